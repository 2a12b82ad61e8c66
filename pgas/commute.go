package pgas

import "math/bits"

// Commuting updates (docs/deviations.md, entry 14). Two events are
// independent when both are the popb of a non-fetching atomic of the same
// commuting operation on the same cell (CommuteClass equal and non-zero).
// The conflict relation cf_c relates every pair e1 <τ e2 on one cell, one
// of them a write, that is not independent; robustness "modulo commuting
// updates" is the acyclicity of the class graph with cf_c instead of cf.

// CommuteClass is the commuting class of e in program p: 0 when e commutes
// with nothing, else a number 1..4 (add, and, or, xor) shared exactly by
// the events it commutes with (on the same cell). Only the popb of an OpSend whose Amo is add,
// and, or or xor has a class; the fetching atomics return a value and are
// class 0. The class also depends on the domain, so that independent
// updates commute as functions of the cell and a wrap does not depend on
// their order (entry 14, "Wraps"):
//   - add: when Lo is 0 (operands are then non-negative, and the running
//     sum of a block crosses Hi in every order iff it does in one);
//   - and, or, xor: when Lo is 0 and |DOM| is a power of two (then they
//     never leave DOM).
func (p *Program) CommuteClass(e Event) int {
	if e.Kind != KPopb || e.Trans < 0 || e.Trans >= len(p.Trans) {
		return 0
	}
	c := p.Trans[e.Trans].Cmd
	if c.Op != OpSend || p.Lo != 0 {
		return 0
	}
	pow2 := bits.OnesCount(uint(p.Values)) == 1
	switch {
	case c.Amo == AmoAdd:
		return 1
	case c.Amo == AmoAnd && pow2:
		return 2
	case c.Amo == AmoOr && pow2:
		return 3
	case c.Amo == AmoXor && pow2:
		return 4
	}
	return 0
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
