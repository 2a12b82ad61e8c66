// Buffers of per-PE blocks under the collapse law (docs/deviations.md,
// entry 15, "Blocks"): a heap buffer of B * npes elements (`int *all =
// shmem_malloc(B * npes * sizeof(int))`) whose every access is an element
// of one block, all[k * B + c] with c a constant below B, or a canonical
// loop over one block, all[k * B + i], or a put or get of at most B
// elements at &all[k * B + c]. k is any expression whose value is a PE
// number and that reads only registers and private index arrays (below).
// The blocks are disjoint sub-buffers of B elements each; the law applies
// to each, so the buffer is a candidate of B cells (buffer.go) whose
// intervals are cut alike in every block, and the plan keeps K of each
// block: the allocation becomes K * npes elements and every B of a block
// index becomes K. Where k is not a PE number the C program faults (its
// index leaves the object); the shrunk translation faults too: every
// element index computed at run time is checked against its object
// (memory.go), and k * K + rest, 0 <= rest < K, lies in the K * npes
// cells exactly when k * B + rest lies in the B * npes ones.
//
// Also here: a size held in a local set once by a constant initializer
// (`size_t size = 2048;`) counts as that constant.

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// bufBlock is what a blocked candidate adds: the nodes of B in its
// indices (rewritten to K).
type bufBlock struct {
	bnodes []cc.ExpressionNode
}

// blockFacts are the locals the block forms read: npes locals, rank
// locals (my_pe or n_pes), constant locals, private index pointers.
type blockFacts struct {
	npes   map[*cc.Declarator]bool
	rank   map[*cc.Declarator]bool
	consts map[*cc.Declarator]int64
	privIx map[*cc.Declarator]bool
}

// rankBound bounds a PE number or count in the overflow argument of
// rankArith: far above any N the checker explores.
const rankBound = 1 << 16

// blockFactsOf collects the facts of the program.
func (a *bufAnalysis) blockFactsOf(ast *cc.AST) {
	f := &blockFacts{npes: map[*cc.Declarator]bool{}, rank: map[*cc.Declarator]bool{},
		consts: map[*cc.Declarator]int64{}, privIx: map[*cc.Declarator]bool{}}
	a.facts = f
	// uses of a pointer as an index array: subscripts, and the indices
	// argument of the _some routines, which write PE numbers into it
	// synchronously, on the calling PE
	allowed := map[*cc.Declarator]int{}
	addr := map[*cc.Declarator]bool{} // &d[k]: a get or a pointer may write it
	walk(ast.TranslationUnit, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.InitDeclarator:
			a.blockInit(x)
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionAddrof {
				if y, ok := unparen(x.CastExpression).(*cc.PostfixExpression); ok && y.Case == cc.PostfixExpressionIndex {
					addr[identDecl(unparen(y.PostfixExpression))] = true
				}
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionIndex {
				if d := identDecl(unparen(x.PostfixExpression)); d != nil {
					allowed[d]++
				}
			}
			if x.Case == cc.PostfixExpressionCall && strings.HasPrefix(calleeName(x), "shmem_") {
				c, args := parseShmem(calleeName(x)), callArgs(x)
				if op := strings.TrimSuffix(c.op, "_vector"); (op == "test_some" || op == "wait_until_some") && !c.ctx && len(args) > 2 {
					if d := identDecl(unparen(args[2])); d != nil {
						allowed[d]++
					}
				}
			}
		}
		return true
	})
	for d := range f.privIx {
		if allowed[d] != a.uses[d] || addr[d] {
			delete(f.privIx, d)
		}
	}
}

// blockInit records what one declaration tells: a local set once to
// shmem_n_pes() or shmem_my_pe(), or to a constant; a private pointer set
// once to malloc or calloc.
func (a *bufAnalysis) blockInit(x *cc.InitDeclarator) {
	d, in := x.Declarator, x.Initializer
	if d == nil || in == nil || in.Case != cc.InitializerExpr || d.WriteCount() != 1 || d.AddressTaken() ||
		a.globals[d] || d.IsStatic() || d.IsExtern() {
		return
	}
	e := unparen(in.AssignmentExpression)
	if pt, ok := d.Type().(*cc.PointerType); ok && cc.IsIntegerType(pt.Elem()) {
		for {
			c, ok := e.(*cc.CastExpression)
			if !ok || c.Case != cc.CastExpressionCast {
				break
			}
			e = unparen(c.CastExpression)
		}
		if c, ok := e.(*cc.PostfixExpression); ok && c.Case == cc.PostfixExpressionCall {
			if n := calleeName(c); n == "malloc" || n == "calloc" {
				a.facts.privIx[d] = true
			}
		}
		return
	}
	if d.Type() == nil || !cc.IsIntegerType(d.Type()) || d.Type().Size() < 4 {
		return
	}
	if v, ok := constValue(e); ok {
		a.facts.consts[d] = v
		return
	}
	if c, ok := e.(*cc.PostfixExpression); ok && rankCall(c) {
		a.facts.rank[d] = true
		a.facts.npes[d] = calleeName(c) == "shmem_n_pes"
	}
}

// constOf is the value of a constant, of a local set once to one, or of
// a product of such (size * sizeof(long)), below 2^31.
func (a *bufAnalysis) constOf(e cc.ExpressionNode) (int64, bool) {
	if v, ok := constValue(e); ok {
		return v, true
	}
	if a.facts == nil {
		return 0, false
	}
	e = unparen(e)
	if x, ok := e.(*cc.MultiplicativeExpression); ok && x.Case == cc.MultiplicativeExpressionMul {
		l, ok1 := a.constOf(x.MultiplicativeExpression)
		r, ok2 := a.constOf(x.CastExpression)
		return l * r, ok1 && ok2 && l >= 0 && r >= 0 && l < 1<<31 && r < 1<<31
	}
	v, ok := a.facts.consts[identDecl(e)]
	return v, ok
}

// npesValued is shmem_n_pes() or a local set once to it.
func (a *bufAnalysis) npesValued(e cc.ExpressionNode) bool {
	e = unparen(e)
	if x, ok := e.(*cc.PostfixExpression); ok && rankCall(x) {
		return calleeName(x) == "shmem_n_pes"
	}
	return a.facts != nil && a.facts.npes[identDecl(e)]
}

// perPE recognises a size C * npes (factors in any order, one of them
// npes-valued, the others constants): it returns C.
func (a *bufAnalysis) perPE(e cc.ExpressionNode) (int64, bool) {
	var factors []cc.ExpressionNode
	var flat func(cc.ExpressionNode)
	flat = func(e cc.ExpressionNode) {
		e = unparen(e)
		if x, ok := e.(*cc.MultiplicativeExpression); ok && x.Case == cc.MultiplicativeExpressionMul {
			flat(x.MultiplicativeExpression)
			flat(x.CastExpression)
			return
		}
		factors = append(factors, e)
	}
	flat(e)
	c, n := int64(1), 0
	for _, f := range factors {
		if a.npesValued(f) {
			n++
		} else if v, ok := a.constOf(f); ok && v >= 1 && v < 1<<31 && c < 1<<31 {
			c *= v
		} else {
			return 0, false
		}
	}
	return c, n == 1
}

// blockRef splits the index of an element of the blocked candidate c,
// k * B + rest (or B * k + rest, or k * B): rest is nil for 0. It records
// the node of B.
func (a *bufAnalysis) blockRef(c *bufCand, x *cc.PostfixExpression) (rest cc.ExpressionNode, ok bool) {
	idx := unparen(x.ExpressionList)
	prod := idx
	if s, ok := idx.(*cc.AdditiveExpression); ok && s.Case == cc.AdditiveExpressionAdd {
		prod, rest = unparen(s.AdditiveExpression), s.MultiplicativeExpression
	}
	m, ok := prod.(*cc.MultiplicativeExpression)
	if !ok || m.Case != cc.MultiplicativeExpressionMul {
		return nil, false
	}
	k, b := m.MultiplicativeExpression, cc.ExpressionNode(m.CastExpression)
	if v, ok := constValue(b); !ok || v != c.size {
		k, b = m.CastExpression, m.MultiplicativeExpression
		if v, ok := constValue(b); !ok || v != c.size {
			return nil, false
		}
	}
	if _, isConst := constValue(prod); isConst || !a.peExpr(k, identDecl(unparen(rest))) {
		return nil, false // a constant k * B is one constant the translation takes whole
	}
	c.block.bnodes = append(c.block.bnodes, b)
	return rest, true
}

// peExpr reports whether k, a block number, reads only registers (not
// the loop counter i), constants, rank calls and elements of private
// index arrays at such indices, with + - * and integer casts: it changes
// nothing, cannot fail, names no buffer and has the same value all
// through a loop over the block (nothing the loop does writes what it
// reads; docs/deviations.md entry 15, "Blocks").
func (a *bufAnalysis) peExpr(k cc.ExpressionNode, i *cc.Declarator) bool {
	k = unparen(k)
	if _, ok := constValue(k); ok {
		return true
	}
	if d := identDecl(k); d != nil {
		return d != i && a.local(d)
	}
	switch x := k.(type) {
	case *cc.CastExpression:
		return x.Case == cc.CastExpressionCast && cc.IsIntegerType(x.Type()) && a.peExpr(x.CastExpression, i)
	case *cc.AdditiveExpression:
		return x.Case != cc.AdditiveExpressionMul && a.peExpr(x.AdditiveExpression, i) && a.peExpr(x.MultiplicativeExpression, i)
	case *cc.MultiplicativeExpression:
		return x.Case == cc.MultiplicativeExpressionMul && a.peExpr(x.MultiplicativeExpression, i) && a.peExpr(x.CastExpression, i)
	case *cc.PostfixExpression:
		if rankCall(x) {
			return true
		}
		if x.Case == cc.PostfixExpressionIndex && a.facts != nil {
			d := identDecl(unparen(x.PostfixExpression))
			return a.facts.privIx[d] && a.cands[d] == nil && a.peExpr(x.ExpressionList, i)
		}
	}
	return false
}

// rankArith bounds e, a value stored into a buffer made of constants,
// the counter i (below hi), and rank locals or calls, with + - *: it can
// then neither fail nor overflow an int, and replacing it by 0 drops only
// its value.
func (a *bufAnalysis) rankArith(e cc.ExpressionNode, i *cc.Declarator, hi int64) (lo, up int64, ok bool) {
	e = unparen(e)
	if v, ok := constValue(e); ok {
		return v, v, v > -1<<31 && v < 1<<31
	}
	if d := identDecl(e); d != nil {
		switch {
		case d == i && hi > 0 && hi < 1<<31:
			return 0, hi, true
		case a.facts != nil && a.facts.rank[d] && a.local(d):
			return 0, rankBound, true
		}
		return 0, 0, false
	}
	var l, r cc.ExpressionNode
	op := byte(0)
	switch x := e.(type) {
	case *cc.PostfixExpression:
		return 0, rankBound, rankCall(x)
	case *cc.AdditiveExpression:
		l, r, op = x.AdditiveExpression, x.MultiplicativeExpression, '+'
		if x.Case == cc.AdditiveExpressionSub {
			op = '-'
		}
	case *cc.MultiplicativeExpression:
		if x.Case != cc.MultiplicativeExpressionMul {
			return 0, 0, false
		}
		l, r, op = x.MultiplicativeExpression, x.CastExpression, '*'
	default:
		return 0, 0, false
	}
	l1, u1, ok1 := a.rankArith(l, i, hi)
	l2, u2, ok2 := a.rankArith(r, i, hi)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	switch op {
	case '+':
		lo, up = l1+l2, u1+u2
	case '-':
		lo, up = l1-u2, u1-l2
	default:
		ps := []int64{l1 * l2, l1 * u2, u1 * l2, u1 * u2}
		lo, up = min(ps[0], ps[1], ps[2], ps[3]), max(ps[0], ps[1], ps[2], ps[3])
	}
	return lo, up, lo > -1<<31 && up < 1<<31
}

// blockSubst rewrites a shrunk blocked buffer's B nodes to K, the cells
// kept per block.
func (p *bufPlan) blockSubst(c *bufCand, kept int64) {
	for _, b := range c.block.bnodes {
		p.subst[b] = kept
	}
}

// blockOld is the old index of each kept element of a blocked buffer:
// the kept spans of each of the n blocks.
func blockOld(spans [][2]int64, size int64, n int) []int64 {
	var old []int64
	for blk := int64(0); blk < int64(n); blk++ {
		for _, s := range spans {
			for i := s[0]; i < s[1]; i++ {
				old = append(old, blk*size+i)
			}
		}
	}
	return old
}
