// The conversions inside operators (conv.go): the usual arithmetic
// conversions (C11 6.3.1.8) turn a signed operand unsigned when the
// other is unsigned and at least as wide; compound assignments and ++ /
// -- convert their result back to the object's type.

package cfront

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// nonNeg reports whether e's value is known non-negative: an unsigned
// type no wider than int's promotion keeps it, a signed one needs a
// lower bound (lowbound.go).
func (t *translator) nonNeg(e cc.ExpressionNode) bool {
	if e == nil || e.Type() == nil {
		return false
	}
	if unsignedInt(e.Type()) && !(t.bitsOn() && t.bits.pattern(e)) {
		return true
	}
	lo, ok := t.lowBound(e)
	return ok && lo >= 0
}

// unsignedArith is a + b or a * b (guard: the result) and a / b or a % b
// (guard: each operand) whose type is unsigned: C converts a negative
// signed operand to a huge value, so a negative result of the exact
// arithmetic, or a negative operand of / and %, is a value C wraps
// around; the guard makes it a run-time error, and every other value is
// C's.
func (t *translator) unsignedArith(x cc.ExpressionNode, a cc.ExpressionNode, op cc.Token, b cc.ExpressionNode) string {
	if a == nil || b == nil || !isUnsigned(x.Type()) {
		return t.binary(a, op, b)
	}
	if t.nonNeg(a) && t.nonNeg(b) {
		return wrap32(x.Type(), op.SrcStr(), t.binary(a, op, b))
	}
	va, vb := t.value(a), t.value(b)
	r := fmt.Sprintf("(%s %s %s)", va, op.SrcStr(), vb)
	switch op.SrcStr() {
	case "/", "%":
		if !t.nonNeg(a) {
			t.wrapGuard(va, "<")
		}
		if !t.nonNeg(b) {
			t.wrapGuard(vb, "<")
		}
	default:
		t.wrapGuard(r, "<")
	}
	return wrap32(x.Type(), op.SrcStr(), r)
}

// wrap32 is r, a non-negative result of + or * in a 32-bit unsigned
// type, modulo 2^32: the checker holds 2^32 itself (pgas.MaxValue), which
// C's unsigned int arithmetic makes 0. Beyond it, values leave the
// checker's widest domain (UNKNOWN).
func wrap32(ty cc.Type, op, r string) string {
	if (op == "+" || op == "*") && unsignedInt(ty) && ty.Size() == 4 {
		return modulo(r, 32, true)
	}
	return r
}

// mixedCompare is a comparison that C makes in an unsigned type while
// one operand is signed: a negative one is converted to a huge value.
// A constant is refused at translation time, a computed value guarded;
// == and != of a bit pattern (unsigned_bits.go) with a signed value of
// no greater width compare the same bits and need neither.
func (t *translator) mixedCompare(x cc.ExpressionNode, a cc.ExpressionNode, op cc.Token, b cc.ExpressionNode) string {
	if !intOperands(a, b) {
		return t.binary(a, op, b)
	}
	common := cc.UsualArithmeticConversions(a.Type(), b.Type())
	ua, ub := unsignedInt(a.Type()), unsignedInt(b.Type())
	if common == nil || !isUnsigned(common) || ua == ub {
		return t.binary(a, op, b)
	}
	signed, other := a, b
	if ua {
		signed, other = b, a
	}
	if t.nonNeg(signed) {
		return t.binary(a, op, b)
	}
	eq := op.SrcStr() == "==" || op.SrcStr() == "!="
	if eq && t.bitsOn() && t.bits.pattern(other) && signed.Type().Size() <= other.Type().Size() {
		return t.binary(a, op, b)
	}
	if v, ok := constValue(signed); ok {
		t.refuse(x, "comparison of the negative constant %d with an unsigned value (C converts it to %s, a huge value): compare with the unsigned value C means, or cast the unsigned side to a signed type", v, common)
	}
	va, vb := t.value(a), t.value(b)
	if signed == a {
		t.wrapGuard(va, "<")
	} else {
		t.wrapGuard(vb, "<")
	}
	return fmt.Sprintf("(%s %s %s)", va, op.SrcStr(), vb)
}

// compoundConv is the value v = cur op rhs of a compound assignment to
// lhs converted back to lhs's type: modulo 2^w for a type narrower than
// int; for one of 32 or 64 bits, a guard where the exact result (or a
// divisor or dividend C converts) is negative.
func (t *translator) compoundConv(lhs, rhs cc.ExpressionNode, op, cur, r, v string) string {
	ty := lhs.Type()
	if !unsignedInt(ty) {
		if intOperands(lhs, rhs) && isUnsigned(cc.UsualArithmeticConversions(ty, rhs.Type())) && (op == "/" || op == "%") && !t.nonNeg(lhs) {
			t.wrapGuard(cur, "<") // int i; i /= u: C converts i
		}
		return v
	}
	if w := ty.Size() * 8; w < 32 {
		return modulo(v, w, false)
	}
	switch op {
	case "/", "%":
		if !t.nonNeg(rhs) {
			t.wrapGuard(r, "<")
		}
	case "+", "*":
		if !t.nonNeg(rhs) {
			t.wrapGuard(v, "<")
		}
		return wrap32(ty, op, v)
	default: // -: any positive right side may take the value below 0
		t.wrapGuard(v, "<")
	}
	return v
}

// stepConv is the value next of ++ or -- on e converted back to e's type:
// modulo 2^w for a type narrower than int; a guard where -- takes an
// unsigned value of 32 or 64 bits below 0.
func (t *translator) stepConv(e cc.ExpressionNode, inc bool, next string) string {
	ty := e.Type()
	if !unsignedInt(ty) {
		return next
	}
	if w := ty.Size() * 8; w < 32 {
		return modulo(next, w, inc) // 0 - 1 is -1: the full remainder
	}
	if !inc {
		t.wrapGuard(next, "<")
		return next
	}
	return wrap32(ty, "+", next)
}

// apiArgs checks the arguments of an OpenSHMEM routine whose parameter
// is unsigned (a uint64_t signal value, the value of a typed routine on
// unsigned objects): the routine's translation reads the argument as it
// is, so a constant C converts to another value is refused, and a
// computed one that C could convert is guarded (evaluated twice, so only
// when evaluating it emits nothing) or refused.
func (t *translator) apiArgs(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) {
	if !strings.HasPrefix(name, "shmem_") {
		return
	}
	ft, ok := calleeType(x)
	if !ok {
		return
	}
	for i, p := range ft.Parameters() {
		if i >= len(args) || !t.convNeeded(p.Type(), args[i], nil) {
			continue
		}
		pt, a := p.Type(), args[i]
		w := pt.Size() * 8
		if _, ok := a.Value().(cc.Int64Value); ok {
			t.refuse(a, "argument %d of %s: the constant %s converted to the parameter's type %s is another value in C (it wraps around): write the value C means", i+1, name, opText(a), pt)
		}
		if !t.pure(a) {
			t.refuse(a, "argument %d of %s: a value C may convert to the parameter's type %s by wrapping it around: store it in a local first, or make it evidently non-negative", i+1, name, pt)
		}
		v := t.value(a)
		t.wrapGuard(v, "<")
		if w < 32 || a.Type().Size() > pt.Size() {
			hi := int64(1)<<w - 1
			if w == 64 || hi > pgas.MaxValue {
				continue
			}
			t.wrapGuard(fmt.Sprintf("(%s - %d)", v, hi), ">")
		}
	}
}

// calleeType is the prototype of the function x calls.
func calleeType(x *cc.PostfixExpression) (*cc.FunctionType, bool) {
	p, ok := unparen(generic(x.PostfixExpression)).(*cc.PrimaryExpression) // a C11 generic: the routine it selects
	if !ok {
		return nil, false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok || d.Type() == nil {
		return nil, false
	}
	ft, ok := d.Type().(*cc.FunctionType)
	if !ok || ft.IsVariadic() {
		return nil, false
	}
	return ft, true
}

// mixedSigns reports whether a comparison of a and b is one that
// mixedCompare guards (a signed operand of unknown sign, C comparing in
// an unsigned type): the special forms of == must not take it.
func (t *translator) mixedSigns(a, b cc.ExpressionNode) bool {
	if !intOperands(a, b) || unsignedInt(a.Type()) == unsignedInt(b.Type()) {
		return false
	}
	if !isUnsigned(cc.UsualArithmeticConversions(a.Type(), b.Type())) {
		return false
	}
	if unsignedInt(a.Type()) {
		a = b
	}
	return !t.nonNeg(a)
}

// signedBits is the value of the computed operand a of a bitwise operator
// with a constant: when the result is unsigned and a signed, C converts a
// negative a to a huge value, and a | k or a ^ k keeps its top bits (a & k
// with k >= 0 clears them: the same value either way), so a negative a is
// guarded there.
func (t *translator) signedBits(e, a cc.ExpressionNode, op string) string {
	v := t.value(a)
	if op != "&" && isUnsigned(e.Type()) && !t.nonNeg(a) && !(t.bitsOn() && t.bits.pattern(a)) {
		t.wrapGuard(v, "<")
	}
	return v
}

// intOperands: a and b are both of integer type (the usual arithmetic
// conversions apply).
func intOperands(a, b cc.ExpressionNode) bool {
	return a != nil && b != nil && a.Type() != nil && b.Type() != nil && cc.IsIntegerType(a.Type()) && cc.IsIntegerType(b.Type())
}

// narrowConv is v converted back to an unsigned char or short ty, by C's
// remainder (a shift or a mask with a negative constant leaves its range).
func narrowConv(ty cc.Type, v string) string {
	if unsignedInt(ty) && ty.Size() < 4 {
		return modulo(v, ty.Size()*8, false)
	}
	return v
}
