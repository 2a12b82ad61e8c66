// Where the static locals of main are used, for the sharing of their
// cells (statics.go).

package cfront

import (
	"modernc.org/cc/v4"
)

// use modes of a name: a load or store of the PE's own copy, an
// argument of a library or OpenSHMEM call, or a use the plan cannot
// follow (its address kept, or given to the file's own functions).
const (
	useLocal = iota
	useRemote
	useEscape
)

// uses finds the candidates of main in declaration order, with the
// points that name them; a candidate that escapes is dropped (nil).
func (p *staticPlan) uses(funcs map[string]*cc.FunctionDefinition) (map[*cc.Declarator]*staticUse, []*cc.Declarator) {
	uses := map[*cc.Declarator]*staticUse{}
	var order []*cc.Declarator
	for i, it := range p.items {
		walk(it, func(n cc.Node) bool {
			id, ok := n.(*cc.InitDeclarator)
			if !ok {
				return true
			}
			d := id.Declarator
			if v, ok := staticCandidate(d, id.Initializer); ok {
				uses[d] = &staticUse{decl: i, first: never, last: i, firstR: never, lastR: -1, val: v}
				order = append(order, d)
			}
			return true
		})
	}
	for i, it := range p.items {
		p.scan(it, useLocal, i, funcs, uses)
	}
	return uses, order
}

// staticCandidate: d is a static integer scalar with a constant
// initialiser (or none), whose value it returns.
func staticCandidate(d *cc.Declarator, init *cc.Initializer) (int64, bool) {
	if d == nil || !d.IsStatic() || d.Type() == nil || !cc.IsIntegerType(d.Type()) {
		return 0, false
	}
	if init == nil {
		return 0, true
	}
	if init.Case != cc.InitializerExpr {
		return 0, false
	}
	return constValue(init.AssignmentExpression)
}

// scan records the uses of candidates in n, at point i, in mode.
func (p *staticPlan) scan(n cc.Node, mode, i int, funcs map[string]*cc.FunctionDefinition, uses map[*cc.Declarator]*staticUse) {
	walk(n, func(m cc.Node) bool {
		switch x := m.(type) {
		case *cc.PostfixExpression:
			if x.Case != cc.PostfixExpressionCall {
				return true
			}
			am := max(mode, useRemote)
			p.scan(x.PostfixExpression, am, i, funcs, uses) // a _Generic's controlling expression is not evaluated
			if name := calleeName(x); name == "" || name == "shmem_ptr" || funcs[name] != nil {
				am = useEscape
			}
			if x.ArgumentExpressionList != nil {
				p.scan(x.ArgumentExpressionList, am, i, funcs, uses)
			}
			return false
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionAddrof && mode == useLocal {
				if d := identDecl(unparen(x.CastExpression)); d != nil && uses[d] != nil {
					uses[d] = nil // its address is kept: not followed
				}
			}
		case *cc.PrimaryExpression:
			d := identDecl(x)
			u := uses[d]
			if d == nil || u == nil {
				return true
			}
			if mode == useEscape {
				uses[d] = nil
				return true
			}
			u.first, u.last = min(u.first, i), max(u.last, i)
			if mode == useRemote {
				u.firstR, u.lastR = min(u.firstR, i), max(u.lastR, i)
			}
		}
		return true
	})
}

// plainStore: point g is `y = e;` with e not naming y.
func (p *staticPlan) plainStore(g int, y *cc.Declarator) bool {
	it := p.items[g]
	if it.Case != cc.BlockItemStmt || it.Statement.Case != cc.StatementExpr {
		return false
	}
	a, ok := unparen(it.Statement.ExpressionStatement.ExpressionList).(*cc.AssignmentExpression)
	if !ok || a.Case != cc.AssignmentExpressionAssign || identDecl(unparen(a.UnaryExpression)) != y {
		return false
	}
	named := false
	walk(a.AssignmentExpression, func(n cc.Node) bool {
		if identDecl(n) == y {
			named = true
		}
		return !named
	})
	return !named
}
