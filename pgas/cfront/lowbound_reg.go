// Lower bounds of register locals: a local assigned after its
// declaration (`int npes; … npes = shmem_n_pes();`) is a register, not a
// substituted constant, but when every value it is ever given has a known
// non-negative lower bound, so has the local, and a cast of it to an
// unsigned type is exact (lowbound.go).

package cfront

import "modernc.org/cc/v4"

// regLowBound is a lower bound of the register local d of the function
// being translated: the least of the lower bounds of its initialiser and
// of every expression assigned to it by `=`. Its value before the first
// write does not count: d's address is never taken (it would be a cell),
// so reading it uninitialised is undefined behaviour (C11 6.3.2.1p2).
// ok is false when d is written any other way (++, +=, a parameter's
// argument), never written, or some value has no known bound.
func (t *translator) regLowBound(d *cc.Declarator, visiting map[*cc.Declarator]bool) (int64, bool) {
	if visiting[d] || len(t.frames) == 0 {
		return 0, false
	}
	fd := t.funcs[t.frame().fn]
	if fd == nil {
		return 0, false
	}
	visiting[d] = true
	defer delete(visiting, d)
	lo, ok, declared, writes := int64(0), true, false, 0
	bound := func(e cc.ExpressionNode) {
		v, vok := t.lowBoundIn(e, visiting)
		if !vok {
			ok = false
		}
		if writes == 1 || v < lo {
			lo = v
		}
	}
	walk(fd, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.InitDeclarator:
			if x.Declarator == d {
				declared = true
				if x.Initializer != nil {
					writes++
					if x.Initializer.Case != cc.InitializerExpr {
						ok = false
					} else {
						bound(x.Initializer.AssignmentExpression)
					}
				}
			}
		case *cc.AssignmentExpression:
			if x.Case == cc.AssignmentExpressionAssign && resolvesTo(x.UnaryExpression, d) {
				writes++
				bound(x.AssignmentExpression)
			}
		}
		return ok
	})
	if !ok || !declared || writes == 0 || writes != d.WriteCount() {
		return 0, false
	}
	return lo, true
}

// resolvesTo reports whether e is the identifier of d.
func resolvesTo(e cc.ExpressionNode, d *cc.Declarator) bool {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	return ok && p.Case == cc.PrimaryExpressionIdent && p.ResolvedTo() == d
}
