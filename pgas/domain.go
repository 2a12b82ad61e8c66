package pgas

import (
	"fmt"
	"math/bits"
)

// The value domain DOM is a window Lo..Hi of the integers with
// Lo <= 0 < Hi ("values K" is 0..K-1, "values LO..HI" any such window
// inside MinValue..MaxValue). Nothing enumerates it: X keeps values as
// int64, Y packs each in ValueBits bits (two's complement when Lo < 0),
// and the oracle keys states by varints. So a wide window costs bits per
// value, not states: the states are those the program reaches.

// MinValue and MaxValue bound a window: wide enough for C's int and
// unsigned int (INT_MIN, INT_MAX, UINT_MAX as sentinels), small enough
// that a bits-per-value field and the arithmetic of a step stay far
// from 64 bits.
const (
	MinValue = -(1 << 32)
	MaxValue = 1 << 32
)

// Widening marks a domain inferred by a front end (Program.Widen).
type Widening struct {
	// Lo..Hi is the widest window the program's types allow (C's int for
	// a program whose objects are int, say); a value outside it is an
	// overflow of the program, reported as Overflow says.
	Lo, Hi int64
	// Type names the C type whose range Lo..Hi is ("int"), for messages;
	// empty when Lo..Hi is the checker's limit.
	Type string
	// From is the window the front end inferred, for reports.
	From [2]int64
}

// Hi is the largest value of DOM.
func (p *Program) Hi() int64 { return p.Lo + int64(p.Values) - 1 }

// WrapValue is v taken modulo |DOM| into Lo..Hi: the result of an atomic
// add that wraps (Step.Wrap), which keeps X total.
func (p *Program) WrapValue(v int64) int64 {
	n := int64(p.Values)
	return p.Lo + ((v-p.Lo)%n+n)%n
}

// ValueBits is the width of a value field in a packed state: enough for
// 0..Hi unsigned when Lo is 0 (as before windows could be negative), else
// for Lo..Hi in two's complement.
func ValueBits(lo, hi int64) int {
	if lo == 0 {
		if hi < 1 {
			return 1
		}
		return bits.Len64(uint64(hi))
	}
	return 1 + bits.Len64(uint64(max(hi, -lo-1)))
}

// DecodeValue reads back a value stored in a field of width w: the field
// holds uint64(v) masked to w bits, sign-extended when signed.
func DecodeValue(u uint64, w int, signed bool) int64 {
	if signed && w < 64 && u&(1<<uint(w-1)) != 0 {
		return int64(u | ^(1<<uint(w) - 1))
	}
	return int64(u)
}

// WidenFor is the step of the widening of an inferred domain (Widen):
// when re is a value leaving p's domain (a stored or assigned value, or an
// atomic add's result) that lies within the range the program's types
// allow, it returns p with a wider domain containing it; the side it left
// doubles (one more bit per value), at least to the value. Otherwise (a
// declared domain, another error, or a value beyond the types' range: the
// program's own overflow) it returns nil. An error says the wider domain
// is not possible for p's arithmetic (WithDomain).
func (p *Program) WidenFor(re *RangeError) (*Program, error) {
	w := p.Widen
	if w == nil || re == nil || re.What != "value" && re.What != "atomic" {
		return nil, nil
	}
	v := re.Val
	if v < w.Lo || v > w.Hi || v >= p.Lo && v <= p.Hi() {
		return nil, nil
	}
	lo, hi := p.Lo, p.Hi()
	if v > hi {
		hi = min(int64(1)<<bits.Len64(uint64(max(v, 2*hi+1))), w.Hi+1) - 1
	}
	if v < lo {
		lo = max(-(int64(1) << bits.Len64(uint64(-min(v, 2*lo-1)-1))), w.Lo)
	}
	return p.WithDomain(lo, hi)
}

// checkWindow reports why lo..hi is not a valid domain ("" if it is).
func checkWindow(lo, hi int64) string {
	switch {
	case lo > 0 || hi < 1:
		return fmt.Sprintf("values %d..%d must contain 0 and 1 (LO <= 0 < HI)", lo, hi)
	case lo < MinValue || hi > MaxValue:
		return fmt.Sprintf("values %d..%d outside %d..%d", lo, hi, int64(MinValue), int64(MaxValue))
	}
	return ""
}

// WithDomain returns a copy of p whose domain is lo..hi (sharing
// everything else), or an error when the window is invalid or an
// expression of p could exceed 64-bit arithmetic with registers in the
// wider window (the check the compiler makes for a declared window).
func (p *Program) WithDomain(lo, hi int64) (*Program, error) {
	if msg := checkWindow(lo, hi); msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	q := *p
	q.Lo, q.Values = lo, int(hi-lo+1)
	mag := uint64(max(hi, -lo))
	for i := range q.Trans {
		c := &q.Trans[i].Cmd
		for _, e := range []*Expr{c.Addr, c.Val, c.Guard, c.Local, c.Rank, c.Remote, c.Queue, c.Val2} {
			if e != nil && !boundedBy(e, mag) {
				return nil, fmt.Errorf("%v: expression %s may exceed 64-bit arithmetic with values %d..%d", e.Pos, e.Src, lo, hi)
			}
		}
	}
	return &q, nil
}

// boundedBy recomputes on compiled code the bound checker.emit computes
// on the syntax: every intermediate magnitude stays within maxExact when
// registers are bounded by mag.
func boundedBy(e *Expr, mag uint64) bool {
	sat := func(v uint64) uint64 { return min(v, maxExact+1) }
	var st []uint64
	for _, in := range e.Code {
		switch in.Op {
		case XConst:
			st = append(st, uint64(max(in.Arg, -in.Arg)))
			continue
		case XReg:
			st = append(st, mag)
			continue
		case XRank, XN:
			st = append(st, MaxRanks)
			continue
		case XNeg:
			continue
		case XNot:
			st[len(st)-1] = 1
			continue
		}
		if len(st) < 2 {
			return false
		}
		x, y := st[len(st)-2], st[len(st)-1]
		st = st[:len(st)-1]
		b := uint64(1)
		switch in.Op {
		case XAdd, XSub:
			b = sat(x + y)
		case XMul:
			if x != 0 && y > (maxExact+1)/x {
				b = maxExact + 1
			} else {
				b = sat(x * y)
			}
		case XDiv, XMod:
			b = x
		}
		if b > maxExact {
			return false
		}
		st[len(st)-1] = b
	}
	return len(st) == 1
}
