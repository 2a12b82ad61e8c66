// Lower bounds of rank expressions: what makes a cast of shmem_my_pe()
// and the like to an unsigned type exact (C converts a negative value by
// wrapping it around; a value known non-negative converts to itself).

package cfront

import "modernc.org/cc/v4"

// lowBound is a lower bound of e's value over every PE and N >= 1, for
// constants, shmem_my_pe() (0), shmem_n_pes() (1), substituted locals and
// + - * / % of them; ok is false when none is known.
func (t *translator) lowBound(e cc.ExpressionNode) (int64, bool) {
	return t.lowBoundIn(e, map[*cc.Declarator]bool{})
}

// lowBoundIn is lowBound with the register locals whose bounds are being
// computed (lowbound_reg.go), which a cycle of assignments must not
// enter again.
func (t *translator) lowBoundIn(e cc.ExpressionNode, visiting map[*cc.Declarator]bool) (int64, bool) {
	if v, ok := constValue(e); ok {
		return v, true
	}
	if truthValue(e) {
		return 0, true // 0 or 1
	}
	switch x := unparen(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			if d, ok := x.ResolvedTo().(*cc.Declarator); ok {
				if ent := t.lookup(d); ent != nil && ent.kind == kConst && ent.loOK {
					return ent.lo, true
				} else if ent != nil && ent.kind == kReg {
					return t.regLowBound(d, visiting) // lowbound_reg.go
				}
			}
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionCall && x.ArgumentExpressionList == nil {
			if p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression); ok {
				switch p.Token.SrcStr() {
				case "shmem_my_pe":
					return 0, true
				case "shmem_n_pes":
					return 1, true
				}
			}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && cc.IsIntegerType(x.Type()) {
			return t.lowBoundIn(x.CastExpression, visiting)
		}
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			return t.lowBoundIn(x.MultiplicativeExpression, visiting)
		}
		a, okA := t.lowBoundIn(x.AdditiveExpression, visiting)
		if x.Case == cc.AdditiveExpressionAdd {
			b, okB := t.lowBoundIn(x.MultiplicativeExpression, visiting)
			return a + b, okA && okB
		}
		if k, ok := constValue(x.MultiplicativeExpression); ok && x.Case == cc.AdditiveExpressionSub {
			return a - k, okA
		}
	case *cc.ShiftExpression:
		return t.shiftLowBound(x, visiting) // shiftrank.go
	case *cc.MultiplicativeExpression:
		if x.Case == cc.MultiplicativeExpressionCast {
			return t.lowBoundIn(x.CastExpression, visiting)
		}
		a, okA := t.lowBoundIn(x.MultiplicativeExpression, visiting)
		b, okB := t.lowBoundIn(x.CastExpression, visiting)
		if okA && okB && a >= 0 && b >= 0 {
			if x.Case == cc.MultiplicativeExpressionMul {
				if a > 1<<30 || b > 1<<30 {
					return 0, true
				}
				return a * b, true
			}
			return 0, true // a / b, a % b of non-negative values
		}
	}
	return 0, false
}

// truthValue reports whether e is 0 or 1: a _Bool, a comparison, a
// logical operator (so `unsigned ok = a < b;` converts it unchanged).
func truthValue(e cc.ExpressionNode) bool {
	if e.Type() != nil && e.Type().Kind() == cc.Bool {
		return true
	}
	switch x := unparen(e).(type) {
	case *cc.RelationalExpression:
		return x.Case != cc.RelationalExpressionShift
	case *cc.EqualityExpression:
		return x.Case != cc.EqualityExpressionRel
	case *cc.LogicalAndExpression:
		return x.Case != cc.LogicalAndExpressionOr
	case *cc.LogicalOrExpression:
		return x.Case != cc.LogicalOrExpressionLAnd
	case *cc.UnaryExpression:
		return x.Case == cc.UnaryExpressionNot
	}
	return false
}
