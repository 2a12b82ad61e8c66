// Bitwise operators and shifts, in the arithmetic of the calculus (which
// has + - * / % only): with one operand a constant, every operator is a
// sum over the constant's bits of terms bit_j(x) = ((x % 2M + 2M) % 2M)
// / M, M = 2^j, which is bit j of x in two's complement for any x,
// negative too. Two computed operands are refused: their expansion would
// range over every bit of the domain.

package cfront

import (
	"fmt"
	"math/bits"
	"strings"

	"modernc.org/cc/v4"
)

// maxMaskBits bounds the bits of a mask the expansion spells out.
const maxMaskBits = 16

// bit is bit j of the value of the .pgas expression x.
func bit(x string, j int) string {
	m := int64(1) << j
	return fmt.Sprintf("(((%s %% %d + %d) %% %d) / %d)", x, 2*m, 2*m, 2*m, m)
}

// maskBits lists the bits set in k (k >= 0), refusing too many.
func (t *translator) maskBits(n cc.Node, k int64) []int {
	if bits.OnesCount64(uint64(k)) > maxMaskBits || k >= 1<<61 {
		t.refuse(n, "bitwise operator with the constant %d: at most %d bits set, below 2^61 (the translation spells each bit out)", k, maxMaskBits)
	}
	var out []int
	for j := 0; k>>j != 0; j++ {
		if k>>j&1 == 1 {
			out = append(out, j)
		}
	}
	return out
}

// bitop is x op k for a .pgas expression x and a constant k, op one of
// & | ^ (C's meaning on two's complement integers).
func (t *translator) bitop(n cc.Node, x, op string, k int64) string {
	if k < 0 {
		// with the complement ~k >= 0: x & k clears the bits of ~k;
		// x | k = ~(~x & ~k); x ^ k = ~(x ^ ~k)
		nk := ^k
		switch op {
		case "&":
			return t.sumBits(n, x, nk, "-", func(b string) string { return b })
		case "|":
			return fmt.Sprintf("(-1 - %s)", t.bitop(n, fmt.Sprintf("(-1 - %s)", x), "&", nk))
		default:
			return fmt.Sprintf("(-1 - %s)", t.bitop(n, x, "^", nk))
		}
	}
	switch op {
	case "&":
		if k == 0 {
			return "0"
		}
		var terms []string
		for _, j := range t.maskBits(n, k) {
			terms = append(terms, fmt.Sprintf("%d * %s", int64(1)<<j, bit(x, j)))
		}
		return "(" + strings.Join(terms, " + ") + ")"
	case "|":
		return t.sumBits(n, x, k, "+", func(b string) string { return "(1 - " + b + ")" })
	default: // ^
		return t.sumBits(n, x, k, "+", func(b string) string { return "(1 - 2 * " + b + ")" })
	}
}

// sumBits is x sign Σ_{j in k} 2^j * f(bit_j(x)).
func (t *translator) sumBits(n cc.Node, x string, k int64, sign string, f func(string) string) string {
	if k == 0 {
		return x
	}
	s := x
	for _, j := range t.maskBits(n, k) {
		s += fmt.Sprintf(" %s %d * %s", sign, int64(1)<<j, f(bit(x, j)))
	}
	return "(" + s + ")"
}

// shift is x << k or x >> k for a constant k: a product, or a division
// rounded towards minus infinity (the arithmetic shift of every C
// compiler on a negative value; C leaves it to the implementation).
func (t *translator) shift(n cc.Node, x, op string, k int64) string {
	if k < 0 || k > 61 {
		t.refuse(n, "shift by %d (C: undefined outside 0..width-1)", k)
	}
	m := int64(1) << k
	if op == "<<" {
		return fmt.Sprintf("(%s * %d)", x, m)
	}
	return fmt.Sprintf("((%s - ((%s %% %d + %d) %% %d)) / %d)", x, x, m, m, m, m)
}

// bitwise translates a & b, a | b, a ^ b, a << b, a >> b, one operand a
// constant (the right one, for shifts, or an amount known on each PE:
// shiftrank.go).
func (t *translator) bitwise(e cc.ExpressionNode, a cc.ExpressionNode, op string, b cc.ExpressionNode) string {
	if op == "<<" || op == ">>" {
		k, ok := constValue(b)
		if !ok {
			return t.rankShift(e, a, op, b) // shiftrank.go
		}
		return t.shift(e, t.value(a), op, k)
	}
	if k, ok := t.constBits(b); ok {
		t.unsignedMask(e, e.Type(), op, k)
		return t.bitop(e, t.signedBits(e, a, op), op, k)
	}
	if k, ok := t.constBits(a); ok {
		t.unsignedMask(e, e.Type(), op, k)
		return t.bitop(e, t.signedBits(e, b, op), op, k)
	}
	if v, ok := t.rankBitop(e, a, op, b); ok { // shiftrank.go
		return v
	}
	t.refuse(e, "bitwise operator %s between two computed values: the calculus has no bitwise arithmetic, and the translation spells out a constant's bits only (or those of a value known on each PE once N is: shmem_my_pe(), shmem_n_pes() and constants)", op)
	return ""
}

// bitwiseExpr dispatches the bitwise nodes of cc (a node without its
// operator passes its operand through).
func (t *translator) bitwiseExpr(e cc.ExpressionNode) string {
	switch x := e.(type) {
	case *cc.ShiftExpression:
		if x.ShiftExpression == nil {
			return t.value(x.AdditiveExpression)
		}
		return t.bitwise(x, x.ShiftExpression, x.Token.SrcStr(), x.AdditiveExpression)
	case *cc.AndExpression:
		if x.AndExpression == nil {
			return t.value(x.EqualityExpression)
		}
		return t.bitwise(x, x.AndExpression, "&", x.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if x.ExclusiveOrExpression == nil {
			return t.value(x.AndExpression)
		}
		return t.bitwise(x, x.ExclusiveOrExpression, "^", x.AndExpression)
	case *cc.InclusiveOrExpression:
		if x.InclusiveOrExpression == nil {
			return t.value(x.ExclusiveOrExpression)
		}
		return t.bitwise(x, x.InclusiveOrExpression, "|", x.ExclusiveOrExpression)
	}
	t.refuse(e, "this expression")
	return ""
}

// unsignedMask refuses x | k and x ^ k with a negative k in unsigned
// arithmetic: C converts k to a huge unsigned value and the result is one
// too, where the calculus's would be negative. (x & k is the same in both:
// k only clears bits of x.)
func (t *translator) unsignedMask(n cc.Node, ty cc.Type, op string, k int64) {
	if k < 0 && op != "&" && isUnsigned(ty) && !t.bitsOn() {
		t.refuse(n, "%s with the negative constant %d in unsigned arithmetic (C converts it to a huge unsigned value)", op, k)
	}
}

// complement is ~x = -1 - x.
func (t *translator) complement(x *cc.UnaryExpression) string {
	if isUnsigned(x.Type()) && !t.bitsOn() { // unsigned_bits.go
		t.refuse(x, "%s", t.bitsRefusal())
	}
	return "(-1 - " + t.value(x.CastExpression) + ")"
}
