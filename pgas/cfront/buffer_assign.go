// Heap buffers allocated by an assignment (`target = shmem_calloc(10,
// sizeof(long))`, the style of the tests-sos unit tests) and the null
// tests that follow an allocation (`if (!target) ...`), under the
// collapse law (buffer.go, buffer_heap.go).
//
// A pointer local of main declared without initializer and written once,
// by a statement of main's outermost block (so the allocation runs once,
// before every use that follows it in the block), is a heap buffer like
// one initialised by its declaration. A null test of it reads no cell
// (the translation answers it from the allocation: alloc-succeeds), so
// it is no use of the buffer's cells.

package cfront

import "modernc.org/cc/v4"

// assignedHeap registers the heap buffers allocated by an assignment in
// main's outermost block; it returns the assignments, which stmt then
// takes as handled.
func (a *bufAnalysis) assignedHeap(ast *cc.AST) map[cc.ExpressionNode]bool {
	out := map[cc.ExpressionNode]bool{}
	main := mainDef(ast)
	if main == nil || main.CompoundStatement == nil {
		return out
	}
	bare := map[*cc.Declarator]bool{} // pointers declared without initializer
	walk(main.CompoundStatement, func(n cc.Node) bool {
		if id, ok := n.(*cc.InitDeclarator); ok && id.Initializer == nil && id.Declarator != nil {
			bare[id.Declarator] = true
		}
		return true
	})
	for l := main.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
		it := l.BlockItem
		if it == nil || it.Case != cc.BlockItemStmt || it.Statement == nil || it.Statement.Case != cc.StatementExpr ||
			it.Statement.ExpressionStatement == nil || it.Statement.ExpressionStatement.ExpressionList == nil {
			continue
		}
		e := single(it.Statement.ExpressionStatement.ExpressionList)
		x, ok := e.(*cc.AssignmentExpression)
		if !ok || x.Case != cc.AssignmentExpressionAssign {
			continue
		}
		d := identDecl(unparen(x.UnaryExpression))
		if d == nil || !bare[d] || a.cands[d] != nil || !a.heapAlloc(d, x.AssignmentExpression) {
			continue
		}
		out[e] = true
	}
	return out
}

// nullTest reports whether e only compares a heap buffer's pointer with
// null: p, !p, p == NULL, p != NULL (NULL or 0, either side).
func (a *bufAnalysis) nullTest(e cc.ExpressionNode) bool {
	e = single(e)
	if x, ok := e.(*cc.UnaryExpression); ok && x.Case == cc.UnaryExpressionNot {
		e = single(x.CastExpression)
	}
	if c := a.cands[identDecl(e)]; c != nil {
		return c.alloc != nil
	}
	x, ok := e.(*cc.EqualityExpression)
	if !ok || x.EqualityExpression == nil {
		return false
	}
	l, r := unparen(x.EqualityExpression), unparen(x.RelationalExpression)
	if v, ok := constValue(l); ok && v == 0 {
		l, r = r, l
	}
	if v, ok := constValue(r); !ok || v != 0 {
		return false
	}
	if c, ok := l.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast {
		l = unparen(c.CastExpression)
	}
	c := a.cands[identDecl(l)]
	return c != nil && c.alloc != nil
}

// otherLoops counts, per counter of a recognised loop, its uses in other
// for loops that set it first (`for (i = 0; i < npes; i++)` beside
// `for (i = 0; i < 10; i++) dest[i] = ...`): the value a shrunk loop
// leaves in its counter (N instead of the size) is then never read, since
// every other use follows such a loop's own assignment. A loop that
// contains or is inside a recognised loop on the same counter, or contains
// another loop setting it, is not counted (its uses then disqualify the
// buffers, as before).
func (a *bufAnalysis) otherLoops(ast *cc.AST) map[*cc.Declarator]int {
	rec := map[*cc.IterationStatement]*cc.Declarator{}
	for _, acc := range a.accs {
		if acc.loop != nil && acc.loop.stmt != nil {
			rec[acc.loop.stmt] = acc.loop.counter
		}
	}
	setting := map[*cc.IterationStatement]*cc.Declarator{}
	walk(ast.TranslationUnit, func(n cc.Node) bool {
		if s, ok := n.(*cc.IterationStatement); ok {
			if i := forSets(s); i != nil {
				setting[s] = i
			}
		}
		return true
	})
	out := map[*cc.Declarator]int{}
	for s, i := range setting {
		if _, ok := rec[s]; ok {
			continue
		}
		clean := true
		walk(s, func(n cc.Node) bool {
			if l, ok := n.(*cc.IterationStatement); ok && l != s && setting[l] == i {
				clean = false
			}
			return clean
		})
		for r, ri := range rec {
			if ri == i && clean {
				walk(r, func(n cc.Node) bool {
					clean = clean && n != cc.Node(s)
					return clean
				})
			}
		}
		if clean {
			u := map[*cc.Declarator]int{}
			countUses(s, u)
			out[i] += u[i]
		}
	}
	return out
}

// forSets is the counter of `for (i = e; ...)` where e does not read i.
func forSets(s *cc.IterationStatement) *cc.Declarator {
	if s.Case != cc.IterationStatementFor || s.ExpressionList == nil {
		return nil
	}
	as, ok := single(s.ExpressionList).(*cc.AssignmentExpression)
	if !ok || as.Case != cc.AssignmentExpressionAssign {
		return nil
	}
	i := identDecl(unparen(as.UnaryExpression))
	if i == nil {
		return nil
	}
	u := map[*cc.Declarator]int{}
	countUses(as.AssignmentExpression, u)
	if u[i] > 0 {
		return nil
	}
	return i
}
