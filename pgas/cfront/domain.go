// Value-domain inference: the data domain the translation needs.
//
// Without "#pragma pgasrob values", the domain is a window LO..HI
// inferred from the program: every constant in a value position (negative
// ones and sentinels such as -1, 1337 or INT_MAX included), and one more
// than the largest, for a loop counter that steps past its bound. Values the
// constants do not show (a counter that reaches N, a sum of atomic adds)
// are found by the decision: the program is marked inferred
// (pgas.Program.Widen), and a value leaving the window makes the decision
// retry with a wider one (cmd/pgasrob/widen.go) up to the range of the
// program's C types. A value beyond that range is the program's own
// overflow. The pragma sets the domain instead, and then a value outside
// it is a run-time error, as in .pgas.

package cfront

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// window is the domain line of the translation.
func (t *translator) window() string {
	lo, hi, ok := t.declared()
	if !ok {
		lo, hi = t.inferred()
	}
	if lo == 0 && hi < pgas.MaxValue { // "values K" counts at most pgas.MaxValue values: 0..2^32 needs the window form
		return fmt.Sprintf("values %d", hi+1)
	}
	return fmt.Sprintf("values %d..%d", lo, hi)
}

// declared is the domain "#pragma pgasrob values" sets, if any.
func (t *translator) declared() (lo, hi int64, ok bool) {
	switch {
	case t.opt.Values > 0:
		return 0, int64(t.opt.Values) - 1, true
	case t.opt.Declared:
		return t.opt.Lo, t.opt.Hi, true
	}
	return 0, 0, false
}

// inferred is the window from the constants, or the one the widening
// asked for (Options.Lo..Hi) if that is wider.
func (t *translator) inferred() (int64, int64) {
	lo, hi := min(0, t.minc), max(1, t.maxc+1)
	lo, hi = min(lo, t.opt.Lo), max(hi, t.opt.Hi)
	return max(lo, pgas.MinValue), min(hi, pgas.MaxValue)
}

// constant records a literal in a value position, for the inferred domain.
func (t *translator) constant(n cc.Node, v int64) {
	if _, _, ok := t.declared(); ok {
		return // as in .pgas: a value out of the domain is a run-time error
	}
	if v < pgas.MinValue || v > pgas.MaxValue {
		t.refuse(n, "constant %d: the checker represents values in %d..%d (wide enough for int and unsigned int); a wider one is outside the subset", v, int64(pgas.MinValue), int64(pgas.MaxValue))
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		t.wide = true
	}
	t.minc, t.maxc = min(t.minc, v), max(t.maxc, v)
}

// noteType records the integer type of an object the program declares:
// the widening stops at the range of the widest (widening).
func (t *translator) noteType(ty cc.Type) {
	if ty != nil && ty.Kind() == cc.Array {
		ty = ty.(*cc.ArrayType).Elem()
	}
	if ty == nil || !cc.IsIntegerType(ty) {
		return
	}
	if isUnsigned(ty) || ty.Size() > 4 {
		t.wide = true
	}
}

// widening is how far the decision may widen an inferred domain: C's int
// when every object is int or narrower and every constant fits it (a value
// beyond is a signed overflow, undefined in C); otherwise the checker's
// own limit, beyond which it cannot answer.
func (t *translator) widening() *pgas.Widening {
	if _, _, ok := t.declared(); ok {
		return nil
	}
	if t.wide {
		return &pgas.Widening{Lo: pgas.MinValue, Hi: pgas.MaxValue}
	}
	return &pgas.Widening{Lo: math.MinInt32, Hi: math.MaxInt32, Type: "int"}
}

// parseWindow reads the argument of "values": K (0..K-1) or LO..HI.
func parseWindow(s string) (lo, hi int64, ok bool) {
	if a, b, found := strings.Cut(s, ".."); found {
		lo, err1 := strconv.ParseInt(a, 10, 64)
		hi, err2 := strconv.ParseInt(b, 10, 64)
		ok := err1 == nil && err2 == nil && lo <= 0 && hi >= 1 && lo >= pgas.MinValue && hi <= pgas.MaxValue
		return lo, hi, ok
	}
	k, err := strconv.ParseInt(s, 10, 64)
	return 0, k - 1, err == nil && k >= 2 && k <= pgas.MaxValue
}

// declaredValueErrors is the static errors of the translation, when they
// are all constant values outside the domain a pragma declared (x = 9
// with "values 4"), as the user's errors at their C positions; nil
// otherwise (any other error of the translation is ours).
func (r *Result) declaredValueErrors(err error) error {
	var list pgas.ErrorList
	if r.Widen != nil || !errors.As(err, &list) || len(list) == 0 {
		return nil
	}
	var out pgas.ErrorList
	for _, e := range list {
		o, ok := r.Origin(e.Pos.Line)
		if !ok || !strings.HasPrefix(e.Msg, "value ") || !strings.Contains(e.Msg, " outside ") {
			return nil
		}
		out = append(out, &pgas.Error{Pos: o.Pos, Msg: e.Msg + " (the domain \"#pragma pgasrob values\" sets; widen it, or remove the pragma to have it inferred)"})
	}
	return out
}

// poisonValue is a value beyond every domain the checker represents
// (pgas.MaxValue): assigned to a register, it is a run-time error at that
// line however far an inferred domain is widened (the decision does not
// widen past pgas.MaxValue). The API mapping uses it where C's behaviour
// is undefined (a collective's buffer too small for N, a PE outside a
// team).
const poisonValue = 2 * pgas.MaxValue
