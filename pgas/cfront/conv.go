// Implicit conversions to unsigned types (C11 6.3.1.3p2): where C
// converts a value to an unsigned type without a cast — an initialiser,
// an assignment, an argument, a return value, the usual arithmetic
// conversions of an operator — it takes the value modulo 2^w. The
// calculus computes with exact integers, so each such place is made
// exact here:
//
//   - a value known non-negative (lowbound.go) and within the type's
//     range converts to itself: nothing to do;
//   - to a type narrower than int (unsigned char, unsigned short, whose
//     2^w is inside the checker's values), the translation computes the
//     remainder itself: ((v % 2^w) + 2^w) % 2^w, or v % 2^w when v is
//     known non-negative;
//   - to a type of 32 or 64 bits, a negative value v becomes 2^w + v,
//     which the checker cannot hold for 64 bits, and which for 32 bits a
//     bit pattern's reading of the same C value (-1 for ~0u) would meet
//     as another number: a guard makes it a run-time error at that line
//     (wrapGuard, named by GuardError), and every non-negative value goes
//     through unchanged;
//   - an object that unsigned_bits.go reads as a bit pattern keeps the
//     negative number, which is then its pattern;
//   - a constant is converted at translation time, or refused when its
//     C value is beyond the checker's values.

package cfront

import (
	"fmt"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// wrapGuard is the value of the guard of a conversion that C would wrap
// around beyond the checker's values: beyond every domain (like
// poisonValue), distinct from the other guards so that the run-time
// error names its cause (GuardError).
const wrapGuard = 4 * pgas.MaxValue

// unsignedInt reports whether ty is an unsigned integer type of any
// width (not _Bool, whose conversion is != 0).
func unsignedInt(ty cc.Type) bool {
	return ty != nil && cc.IsIntegerType(ty) && ty.Kind() != cc.Bool && !cc.IsSignedInteger(ty)
}

// convTo is v, the value of e, converted to ty as C converts it
// implicitly; obj is the object it is stored into (nil for an argument
// or a return value).
func (t *translator) convTo(ty cc.Type, e cc.ExpressionNode, v string, obj *cc.Declarator) string {
	if ty != nil && ty.Kind() == cc.Bool {
		return boolConv(ty, v)
	}
	if !t.convNeeded(ty, e, obj) {
		return v
	}
	w := ty.Size() * 8
	if c, ok := t.convConst(ty, e, obj); ok {
		if t.novalue == 0 {
			t.constant(e, c)
		}
		if c < 0 {
			return fmt.Sprintf("(%d)", c)
		}
		return fmt.Sprint(c)
	}
	nonneg := unsignedInt(e.Type())
	if !nonneg {
		lo, ok := t.lowBound(e)
		nonneg = ok && lo >= 0
	}
	if w < 32 {
		return modulo(v, w, nonneg)
	}
	if !nonneg {
		t.wrapGuard(v, "<")
	}
	if e.Type().Size() > ty.Size() {
		return modulo(v, w, true) // 2^32 itself, the one value the checker holds beyond unsigned int
	}
	return v
}

// convNeeded reports whether converting e to ty may change its value:
// false when ty is not an unsigned integer type, e is unsigned and no
// wider, e is a non-negative value within ty's range, or obj is a bit
// pattern object and e no wider.
func (t *translator) convNeeded(ty cc.Type, e cc.ExpressionNode, obj *cc.Declarator) bool {
	if !unsignedInt(ty) || e == nil || e.Type() == nil || !cc.IsIntegerType(e.Type()) {
		return false
	}
	w, src := ty.Size()*8, e.Type()
	if v, ok := e.Value().(cc.Int64Value); ok && v >= 0 && (w == 64 || int64(v) < 1<<w) {
		return false
	}
	if v, ok := e.Value().(cc.UInt64Value); ok && (w == 64 || uint64(v) < 1<<w) {
		return false
	}
	if src.Size() <= ty.Size() && unsignedInt(src) {
		return false
	}
	if src.Size() <= ty.Size() && w >= 32 && obj != nil && t.bitsOn() && t.bits.objs[obj] {
		return false // unsigned_bits.go: the pattern is the signed number
	}
	if src.Size() > ty.Size() && w >= 32 && t.bitsOn() && t.bits.pattern(e) {
		return false // narrowing a pattern to 32 bits keeps it
	}
	if lo, ok := t.lowBound(e); ok && lo >= 0 && src.Size() <= ty.Size() && (w >= 32 || src.Size()*8 <= w) {
		return false
	}
	return true
}

// convConst is C's value of the constant e converted to ty, as the
// checker holds it; ok is false when e is no constant.
func (t *translator) convConst(ty cc.Type, e cc.ExpressionNode, obj *cc.Declarator) (int64, bool) {
	var bits uint64
	switch v := e.Value().(type) {
	case cc.Int64Value:
		bits = uint64(v)
	case cc.UInt64Value:
		bits = uint64(v)
	default:
		return 0, false
	}
	w := ty.Size() * 8
	if w < 64 {
		bits &= 1<<w - 1
	}
	if !bigUnsigned(bits, ty) || w < 32 {
		return int64(bits), true
	}
	if w == 32 && !t.patternsRead() {
		return int64(bits), true // at most 2^32 - 1: the checker holds it
	}
	if obj != nil && t.bitsOn() && t.bits.objs[obj] {
		return int64(bits) - int64(1)<<(w-1) - int64(1)<<(w-1), true // the pattern
	}
	t.refuse(e, "the constant %s converted to %s is %d in C (it wraps around), beyond the values the checker holds: write a value in 0..%d, or keep it in a signed type", opText(e), ty, bits, pgas.MaxValue)
	return 0, false
}

// modulo is v modulo 2^w, C's conversion to an unsigned type of w bits
// (nonneg: v is known non-negative).
func modulo(v string, w int64, nonneg bool) string {
	m := int64(1) << w
	if nonneg {
		return fmt.Sprintf("(%s %% %d)", v, m)
	}
	return fmt.Sprintf("(((%s %% %d) + %d) %% %d)", v, m, m, m)
}

// wrapGuard emits a run-time error where `v op 0` holds: C would wrap
// the value around beyond what the checker holds.
func (t *translator) wrapGuard(v, op string) {
	g := t.temp()
	t.emit("%s <- rank - rank + (%s %s 0) * %d", g, v, op, wrapGuard)
}

// GuardError names the cause of a run-time error whose value v is one of
// the translation's guards: a value beyond every domain, which the
// decision reports as the program's error instead of widening.
// GuardIsLimit reports whether guard value v stands for a limit of the
// checker rather than the program's own error: a value C converts to an
// unsigned type that the checker's values cannot hold. The commands
// answer UNKNOWN for it, never a run-time error of the program.
func GuardIsLimit(v int64) bool { return v == wrapGuard }

func GuardError(v int64) (string, bool) {
	switch {
	case IsSizeMaxGuard(v):
		return "SIZE_MAX, the \"none\" of shmem_test_any or shmem_wait_until_any, used as a value (only == and != SIZE_MAX are in the subset)", true
	case v == poisonValue:
		return "an OpenSHMEM call whose behaviour C leaves undefined here (a collective's buffer too small for N, a PE outside its team, an invalid context or string): see the line's call", true
	case v == wrapGuard:
		return "a value converted to an unsigned type that cannot hold it (C wraps it around modulo 2^w: a negative one becomes a huge number, beyond the values the checker holds): keep the value in a signed type, or make it non-negative and within the type before the conversion", true
	}
	return "", false
}

// leafTypes maps each expression of an initialiser to the type of the
// element or member it initialises: C converts it to that type.
func leafTypes(init *cc.Initializer) map[cc.ExpressionNode]cc.Type {
	m := map[cc.ExpressionNode]cc.Type{}
	walk(init, func(n cc.Node) bool {
		if i, ok := n.(*cc.Initializer); ok && i.Case == cc.InitializerExpr {
			m[i.AssignmentExpression] = i.Type()
			return false
		}
		return true
	})
	return m
}

// patternsRead reports whether some value of the file is read as a bit
// pattern (unsigned_bits.go): then an unsigned value with its top bit set
// must be one too, or two readings of one C value would meet; otherwise
// C's own value is the only reading.
func (t *translator) patternsRead() bool {
	if !t.bitsOn() {
		return false
	}
	if len(t.bits.objs) > 0 {
		return true
	}
	found := false
	walk(t.bits.root, func(n cc.Node) bool {
		if e, ok := n.(cc.ExpressionNode); ok && t.bits.pattern(e) {
			found = true
		}
		return !found
	})
	return found
}
