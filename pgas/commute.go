package pgas

import "math/bits"

// Commuting updates (docs/deviations.md, entry 14). Two events are
// independent when both are the popb of a non-fetching atomic of the same
// commuting operation on the same cell (CommuteClass equal and non-zero).
// The conflict relation cf_c relates every pair e1 <τ e2 on one cell, one
// of them a write, that is not independent; robustness "modulo commuting
// updates" is the acyclicity of the class graph with cf_c instead of cf.

// The commuting classes CommuteClass returns. The tracker of package
// cycles packs a class in 3 bits, so they stay below 8.
const (
	ClassAddUp   = 1 // add, inc, signal add whose operand is >= 0
	ClassAnd     = 2
	ClassOr      = 3
	ClassXor     = 4
	ClassAddDown = 5 // add whose operand is <= 0 (and not always 0)
)

// CommuteClass is the commuting class of e in program p: 0 when e commutes
// with nothing, else one of the Class constants, shared exactly by the
// events it commutes with (on the same cell). Only the popb of an OpSend
// whose Amo is add, and, or or xor has a class; the fetching atomics
// return a value and are class 0. The class also depends on the domain
// and the operand, so that independent updates commute as functions of
// the cell and a wrap does not depend on their order (docs/deviations.md,
// entry 14):
//   - add: by the sign of its operand (OperandRange): ClassAddUp when it
//     is never negative, ClassAddDown when it is never positive, else 0.
//     A block of adds of one sign has monotone running sums, which leave
//     DOM in some order iff the block's total does, in every order. With
//     Lo = 0 every operand is a value of DOM, so every add is ClassAddUp;
//   - and, or, xor: when Lo is 0 and |DOM| is a power of two (then they
//     never leave DOM).
func (p *Program) CommuteClass(e Event) int {
	if e.Kind != KPopb || e.Trans < 0 || e.Trans >= len(p.Trans) {
		return 0
	}
	c := &p.Trans[e.Trans].Cmd
	if c.Op != OpSend {
		return 0
	}
	pow2 := p.Lo == 0 && bits.OnesCount(uint(p.Values)) == 1
	switch {
	case c.Amo == AmoAdd:
		lo, hi := p.OperandRange(c)
		switch {
		case lo >= 0:
			return ClassAddUp
		case hi <= 0:
			return ClassAddDown
		}
	case c.Amo == AmoAnd && pow2:
		return ClassAnd
	case c.Amo == AmoOr && pow2:
		return ClassOr
	case c.Amo == AmoXor && pow2:
		return ClassXor
	}
	return 0
}

// HasCommuting reports whether some event of p has a commuting class.
// Without one, cf_c relates exactly the pairs in the transitive closure of
// the paper's cf on each cell, so both relations have the same cycles and
// the procedures may use the paper's (HappensBeforeCommuting).
func (p *Program) HasCommuting() bool {
	for t := range p.Trans {
		if p.CommuteClass(Event{Kind: KPopb, Trans: t}) != 0 {
			return true
		}
	}
	return false
}

// OperandRange bounds the value an OpSend delivers: its Val, evaluated at
// issue and checked to lie in DOM, or the value of its Local cell, a value
// of DOM. For Val it is an interval evaluation of the compiled code with
// registers in DOM and rank and N in 1..MaxRanks, cut to DOM. The compiler
// bounds every intermediate magnitude of an expression within exact 64-bit
// arithmetic (boundedBy), so the interval arithmetic cannot overflow.
func (p *Program) OperandRange(c *Cmd) (lo, hi int64) {
	if c.Local != nil || c.Val == nil {
		return p.Lo, p.Hi()
	}
	lo, hi, ok := exprRange(c.Val, p.Lo, p.Hi())
	if !ok {
		return p.Lo, p.Hi()
	}
	return max(lo, p.Lo), min(hi, p.Hi())
}

// exprRange is the interval evaluation of OperandRange; ok is false for
// code it cannot follow.
func exprRange(e *Expr, rlo, rhi int64) (lo, hi int64, ok bool) {
	type iv struct{ lo, hi int64 }
	var st []iv
	for _, in := range e.Code {
		switch in.Op {
		case XConst:
			if !exact(in.Arg) {
				return 0, 0, false
			}
			st = append(st, iv{in.Arg, in.Arg})
			continue
		case XReg:
			st = append(st, iv{rlo, rhi})
			continue
		case XRank, XN:
			st = append(st, iv{1, MaxRanks})
			continue
		}
		if len(st) == 0 {
			return 0, 0, false
		}
		if in.Op == XNeg || in.Op == XNot {
			x := &st[len(st)-1]
			if in.Op == XNeg {
				*x = iv{-x.hi, -x.lo}
			} else {
				*x = iv{0, 1}
			}
			continue
		}
		if len(st) < 2 {
			return 0, 0, false
		}
		x, y := st[len(st)-2], st[len(st)-1]
		st = st[:len(st)-1]
		var r iv
		switch in.Op {
		case XAdd:
			r = iv{x.lo + y.lo, x.hi + y.hi}
		case XSub:
			r = iv{x.lo - y.hi, x.hi - y.lo}
		case XMul:
			var ps [4]int64
			for i, ab := range [4][2]int64{{x.lo, y.lo}, {x.lo, y.hi}, {x.hi, y.lo}, {x.hi, y.hi}} {
				ps[i] = ab[0] * ab[1]
				if ab[1] != 0 && ps[i]/ab[1] != ab[0] {
					return 0, 0, false // overflow: only in a program built by hand
				}
			}
			r = iv{min(ps[0], ps[1], ps[2], ps[3]), max(ps[0], ps[1], ps[2], ps[3])}
		case XDiv, XMod:
			// |x / y| and |x % y| are at most |x|; the remainder has the
			// dividend's sign, and so has the quotient by a y >= 0.
			r = iv{min(x.lo, 0), max(x.hi, 0)}
			if in.Op == XDiv && y.lo < 0 {
				m := max(x.hi, -x.lo)
				r = iv{-m, m}
			}
		default: // comparisons and logic: 0 or 1
			r = iv{0, 1}
		}
		if !exact(r.lo) || !exact(r.hi) {
			return 0, 0, false
		}
		st[len(st)-1] = r
	}
	if len(st) != 1 {
		return 0, 0, false
	}
	return st[0].lo, st[0].hi, true
}

// HappensBeforeCommuting is HappensBefore with cf_c for cf: the cf edges
// join every pair of events on one cell, one of them a write, in the order
// of the computation, except pairs of independent events (CommuteClass).
// po and ↔ are HappensBefore's. For a program without commuting updates
// the class graph has the same cycles as HappensBefore's (cf_c is then
// the transitive closure of cf on each cell).
func HappensBeforeCommuting(p *Program, events []Event) *HB {
	h := HappensBefore(events)
	edges := h.Edges[:0:0]
	for _, e := range h.Edges {
		if e.Rel != RelCF {
			edges = append(edges, e)
		}
	}
	byCell := map[Cell][]int{}
	for j, e2 := range events {
		if !e2.HasCell {
			continue
		}
		for _, i := range byCell[e2.Cell] {
			e1 := events[i]
			if !e1.Kind.IsWrite() && !e2.Kind.IsWrite() {
				continue
			}
			if k := p.CommuteClass(e1); k != 0 && k == p.CommuteClass(e2) {
				continue
			}
			edges = append(edges, HBEdge{i, j, RelCF})
		}
		byCell[e2.Cell] = append(byCell[e2.Cell], j)
	}
	sortEdges(edges)
	h.Edges = edges
	return h
}

// exact: a bound exprRange keeps is at most maxExact in magnitude, so the
// sum or difference of two cannot overflow (products are checked where
// they are made). The compiler bounds every intermediate value so
// (boundedBy); this guards programs built by hand.
func exact(v int64) bool { return v >= -maxExact && v <= maxExact }
