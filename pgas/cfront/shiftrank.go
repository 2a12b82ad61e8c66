// Shifts by an amount computed from the PE: x << k and x >> k where k is
// made of constants, shmem_my_pe(), shmem_n_pes() and locals set from
// them (rankExpr). Once N is known, k is a known number on each PE, so
// the shift is, exactly, x times (or divided by) the power of two of the
// calling PE, spelled as a sum over the PEs of (rank == j) * 2^k(j).
// The tests of bitwise atomics shift 1 by the PE number this way.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// maxRankShift bounds an amount the expansion spells out: 2^32 is the
// checker's largest value (pgas.MaxValue), so a larger power could only
// multiply 0, and would make the expression's static bound overflow.
const maxRankShift = 32

// rankShift translates x op k (op << or >>) for a computed k of the rank
// kind, or refuses it by name.
func (t *translator) rankShift(e cc.ExpressionNode, a cc.ExpressionNode, op string, b cc.ExpressionNode) string {
	s, ok := t.rankExpr(b)
	if !ok {
		t.refuse(e, "shift by a computed amount (%s): the calculus has no shift; shift by a constant, or by an expression of shmem_my_pe(), shmem_n_pes() and constants (known on each PE once N is)", op)
		return ""
	}
	amounts := t.rankValues(e, s, "amount of this shift")
	if amounts == nil {
		return ""
	}
	if same(amounts) {
		return t.shift(e, t.value(a), op, amounts[0])
	}
	width := int64(64)
	if ty := e.Type(); ty != nil && ty.Size() > 0 {
		width = ty.Size() * 8
	}
	x := t.value(a)
	var pow, undef []string
	for j, k := range amounts {
		if k < 0 || k >= width {
			// C: undefined; a run-time error on the PE that shifts
			undef = append(undef, fmt.Sprintf("(rank == %d) * %d", j+1, poisonValue))
			continue
		}
		if k > maxRankShift {
			t.refuse(e, "shift by %d on PE %d: beyond the checker's values (at most 2^%d); shift by less", k, j, maxRankShift)
			return ""
		}
		pow = append(pow, fmt.Sprintf("(rank == %d) * %d", j+1, int64(1)<<k))
	}
	m := "0"
	if len(pow) > 0 {
		m = "(" + strings.Join(pow, " + ") + ")"
	}
	var v string
	switch {
	case len(pow) == 0:
		v = "0"
	case op == "<<":
		v = fmt.Sprintf("(%s * %s)", x, m)
	default:
		// floor(x / m), as shift does for a constant amount; m >= 1 on
		// every PE whose amount is defined, and the other PEs' terms are
		// poison, so m = 0 is never divided by where it matters
		m1 := fmt.Sprintf("(%s + %s)", m, t.undefRanks(amounts, width))
		v = fmt.Sprintf("((%s - ((%s %% %s + %s) %% %s)) / %s)", x, x, m1, m1, m1, m1)
	}
	if len(undef) > 0 {
		v = fmt.Sprintf("(%s + %s)", v, strings.Join(undef, " + "))
	}
	return v
}

// undefRanks is 1 on the PEs whose amount is undefined, 0 elsewhere: it
// keeps the divisor of >> nonzero there (their value is poison anyway).
func (t *translator) undefRanks(amounts []int64, width int64) string {
	var terms []string
	for j, k := range amounts {
		if k < 0 || k >= width {
			terms = append(terms, fmt.Sprintf("(rank == %d)", j+1))
		}
	}
	if len(terms) == 0 {
		return "0"
	}
	return "(" + strings.Join(terms, " + ") + ")"
}

// rankValues is the value on each PE, PE 0 first, for the .pgas text
// s of a rank-kind expression (one entry per PE even when it does not
// depend on the PE); nil after a refusal.
func (t *translator) rankValues(e cc.ExpressionNode, s, what string) []int64 {
	if t.opt.N == 0 {
		if !rankWord.MatchString(s) {
			if k, err := evalSize(s, 0); err == nil {
				return []int64{k} // the same on every PE
			}
		}
		t.needN = true
		t.refuse(e, "the %s depends on the PE or on the number of PEs: the translation is made for one N (on the command line, give one N, e.g. -n 3, not a range)", what)
		return nil
	}
	out := make([]int64, t.opt.N)
	for j := range out {
		k, err := evalSize(rankWord.ReplaceAllString(s, fmt.Sprint(j+1)), t.opt.N)
		if err != nil {
			t.refuse(e, "the %s on PE %d: %v", what, j, err)
			return nil
		}
		out[j] = k
	}
	return out
}

// same says whether every PE shifts by the same amount.
func same(ks []int64) bool {
	for _, k := range ks {
		if k != ks[0] {
			return false
		}
	}
	return true
}

// rankBitop is a & b, a | b or a ^ b where one operand is computed and
// the other is of the rank kind and not constant: on PE j that operand is
// the constant v(j), so the value is the sum over the PEs of (rank == j)
// times bitop(x, v(j)), exactly one term counting on each PE. ok is false
// when neither operand is of the rank kind (or nothing is known of N and
// the operand depends on the PE: refused by the caller).
func (t *translator) rankBitop(e cc.ExpressionNode, a cc.ExpressionNode, op string, b cc.ExpressionNode) (string, bool) {
	x, r := a, b
	if !t.rankOnly(r) {
		x, r = b, a
	}
	if !t.rankOnly(r) {
		return "", false
	}
	s, _ := t.rankExpr(r)
	vals := t.rankValues(e, s, "operand of "+op)
	if vals == nil {
		return "0", true
	}
	xv := t.value(x)
	if same(vals) {
		t.unsignedMask(e, e.Type(), op, vals[0])
		return t.bitop(e, xv, op, vals[0]), true
	}
	terms := make([]string, len(vals))
	for j, v := range vals {
		t.unsignedMask(e, e.Type(), op, v)
		terms[j] = fmt.Sprintf("(rank == %d) * %s", j+1, t.bitop(e, xv, op, v))
	}
	return "(" + strings.Join(terms, " + ") + ")", true
}

// shiftLowBound is a lower bound of a << b or a >> b (lowbound.go): with
// a >= 0 and b >= 0, a << b is at least a * 2^lb(b) (C's unsigned wrap
// aside, which the calculus reports as an overflow of the type), and
// a >> b at least 0.
func (t *translator) shiftLowBound(x *cc.ShiftExpression, visiting map[*cc.Declarator]bool) (int64, bool) {
	if x.ShiftExpression == nil {
		return t.lowBoundIn(x.AdditiveExpression, visiting)
	}
	a, okA := t.lowBoundIn(x.ShiftExpression, visiting)
	b, okB := t.lowBoundIn(x.AdditiveExpression, visiting)
	if !okA || !okB || a < 0 || b < 0 {
		return 0, false
	}
	if x.Case != cc.ShiftExpressionLsh || b > 30 || a > 1<<30 {
		return 0, true
	}
	return a << b, true
}
