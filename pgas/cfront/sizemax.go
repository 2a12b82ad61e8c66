package cfront

import (
	"fmt"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// SIZE_MAX, the "none" of test_any and wait_until_any, is outside the
// data domain. Their result register holds n (nelems) for it, and the
// translation keeps it exact: a comparison with SIZE_MAX (== or !=) of
// such a result, or of a local initialised by one and never assigned
// again, compares with n; any other read of it is preceded by a guard
// that is a run-time error when it holds n (C would compute with
// SIZE_MAX there, which the calculus cannot).

// sizeMaxGuard lifts the sentinel beyond every domain the checker
// represents (pgas.MaxValue), so that the guard's value is a run-time
// error however far an inferred domain is widened: the decision does not
// widen for a value beyond pgas.MaxValue (cmd/pgasrob/widen.go). It is
// distinct from poisonValue and wrapGuard (conv.go) so that GuardError
// names the right cause.
const sizeMaxGuard = 3 * pgas.MaxValue

// IsSizeMaxGuard reports whether v is the value of the guard of a
// SIZE_MAX result read as an ordinary value: sizeMaxGuard plus the
// result's sentinel n, an array length.
func IsSizeMaxGuard(v int64) bool { return v >= sizeMaxGuard && v <= sizeMaxGuard+maxArray }

func (t *translator) markSizeMax(reg string, n int) {
	if t.smTemp == nil {
		t.smTemp = map[string]int{}
	}
	t.smTemp[reg] = n
}

func (t *translator) sentinel(v string) (int, bool) {
	if n, ok := t.smTemp[v]; ok {
		return n, true
	}
	n, ok := t.smLocal[v]
	return n, ok
}

// guardSM is a read of v as an ordinary value.
func (t *translator) guardSM(v string) string {
	if n, ok := t.sentinel(v); ok {
		g := t.temp()
		t.emit("%s <- %s + (%s == %d) * %d", g, v, v, n, sizeMaxGuard)
	}
	return v
}

func isSizeMax(e cc.ExpressionNode) bool {
	if e == nil {
		return false
	}
	v, ok := e.Value().(cc.UInt64Value)
	return ok && uint64(v) == ^uint64(0)
}

// sizeMaxCompare translates a == SIZE_MAX or a != SIZE_MAX (either side).
func (t *translator) sizeMaxCompare(x cc.Node, op cc.Token, a, b cc.ExpressionNode) string {
	if isSizeMax(a) {
		a, b = b, a
	}
	if isSizeMax(a) || op.SrcStr() != "==" && op.SrcStr() != "!=" {
		t.refuse(x, "SIZE_MAX is outside the data domain: only r == SIZE_MAX and r != SIZE_MAX are in the subset, r the result of shmem_test_any or shmem_wait_until_any")
	}
	v, n := t.sizeMaxOperand(a)
	return fmt.Sprintf("(%s %s %d)", v, op.SrcStr(), n)
}

func (t *translator) sizeMaxOperand(e cc.ExpressionNode) (string, int) {
	v, n, ok := t.operandSM(e)
	if !ok {
		t.refuse(e, "comparison with SIZE_MAX: only the result of shmem_test_any or shmem_wait_until_any (or a local initialised by it and never assigned again) can be SIZE_MAX here")
	}
	return v, n
}

// operandSM evaluates e, unguarded when it is a result that may be
// SIZE_MAX (ok, with its sentinel n), as an ordinary value otherwise.
func (t *translator) operandSM(e cc.ExpressionNode) (string, int, bool) {
	switch x := unparen(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			if ent := t.ident(x); ent.kind == kReg {
				if n, ok := t.smLocal[ent.name]; ok {
					return ent.name, n, true
				}
			}
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionCall {
			v := t.call(x, true)
			n, ok := t.sentinel(v)
			return v, n, ok
		}
	}
	return t.value(e), 0, false
}

// equalityConst translates r == c and r != c for a constant c other than
// the sentinel without a guard: SIZE_MAX differs from c as n does. ok is
// false when neither side is such a pair (nothing was evaluated then).
func (t *translator) equalityConst(op cc.Token, a, b cc.ExpressionNode) (string, bool) {
	c, okc := constValue(b)
	cnode := b
	if !okc {
		if c, okc = constValue(a); !okc {
			return "", false
		}
		a, cnode = b, a
	}
	if !t.mayBeSizeMax(a) {
		return "", false
	}
	v, n, ok := t.operandSM(a)
	if ok && c == int64(n) {
		t.guardSM(v) // C compares SIZE_MAX with n: false; the sentinel is n
	}
	return fmt.Sprintf("(%s %s %s)", v, op.SrcStr(), t.value(cnode)), true
}

// mayBeSizeMax reports, without evaluating e, whether it is a call or a
// local that may hold SIZE_MAX (a call may: it is checked when evaluated).
func (t *translator) mayBeSizeMax(e cc.ExpressionNode) bool {
	switch x := unparen(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			if d, ok := x.ResolvedTo().(*cc.Declarator); ok {
				if ent := t.lookup(d); ent != nil && ent.kind == kReg {
					_, ok := t.smLocal[ent.name]
					return ok
				}
			}
		}
	case *cc.PostfixExpression:
		return x.Case == cc.PostfixExpressionCall
	}
	return false
}

// initValue is the value of a local's initialiser, keeping a SIZE_MAX
// result unguarded: the local inherits the sentinel if it is never
// assigned again.
func (t *translator) initValue(d *cc.Declarator, reg string, e cc.ExpressionNode) string {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionCall {
		return t.value(e)
	}
	v := t.call(x, true)
	if n, ok := t.sentinel(v); ok {
		if d.WriteCount() != 1 {
			t.refuse(d, "%s holds a result that may be SIZE_MAX and is assigned again: keep it in a variable of its own", d.Name())
		}
		if t.smLocal == nil {
			t.smLocal = map[string]int{}
		}
		t.smLocal[reg] = n
	}
	return v
}
