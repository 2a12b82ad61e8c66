package oracle

import (
	"math/big"
	"math/bits"

	"github.com/pgasrob/pgasrob/pgas"
)

// The summary for the commuting conflict relation cf_c (docs/deviations.md,
// entry 14): every pair e1 before e2 on one cell, one of them a write,
// except two popbs of non-fetching atomics of one commuting operation.
//
// The writes of a cell fall into blocks: maximal runs (reads may lie
// between) of writes of one commuting class k ≠ 0, and a write of class 0
// alone. A write of one block and a write of a later block are not
// independent unless both blocks have one class k and some block between
// them has another; then the write reaches a member of the next block, which
// reaches the later one. So every write reaches (by cf_c) every member of
// every later block, and every read reaches every member of the next block
// to start after it. Hence for a new event e on cell c, with B the current
// block of c and B' the block before it:
//
//   - e a read: its cf_c predecessors are all writes; those before B reach
//     the members of B, so the members of B stand for all of them;
//   - e a write that joins B (its class is B's, not 0): its predecessors
//     are every read and every write outside B; the members of B' and the
//     reads since B' started stand for them;
//   - e a write that starts a new block: the members of B and the reads
//     since B started stand for its predecessors; then B' := B, B := {e}.
//
// The roles w(c) and rd(c) of summary.go become "the members of B" and
// "the reads since B started" (for the paper's cf every block has one
// write, and these are the last write and the reads since it, as
// before); prev(c) and rdPrev(c) are the members of B' and the reads
// between the start of B' and the start of B, kept as for rd (pending
// popas apart). ops[c] is the class of B.

func (s *summary) prevRole(c pgas.Cell) int   { return s.n + 2*s.cells + (c.Rank-1)*s.nadr + c.Addr }
func (s *summary) rdPrevRole(c pgas.Cell) int { return s.n + 3*s.cells + (c.Rank-1)*s.nadr + c.Addr }
func (s *summary) cellIndex(c pgas.Cell) int  { return (c.Rank-1)*s.nadr + c.Addr }
func (s *summary) rdPrevPend(c pgas.Cell) []uint64 {
	i := s.cells + s.cellIndex(c)
	return s.rdp[i*s.w : (i+1)*s.w]
}

// readEdges adds the cf edges from the reads of one role (its members not
// pending in the column, the pending ones in pend) to class c.
func (w *work) readEdges(role int, pend []uint64, c int) {
	w.edge(role, c)
	for y := 0; y <= w.p && !w.cyclic; y++ {
		if y == c || !has(pend, y) {
			continue
		}
		if has(w.row(c), y) {
			w.cyclic = true
			return
		}
		w.link(w.reachers(y), c)
	}
}

// eventComm is event's part for the cell of e under cf_c.
func (w *work) eventComm(e pgas.Event, c int) {
	x := e.Cell
	i := w.cellIndex(x)
	wr, rd := w.wRole(x), w.rdRole(x)
	if !e.Kind.IsWrite() {
		w.edge(wr, c)
		if w.cyclic {
			return
		}
		if e.Kind == pgas.KPopa {
			add(w.rdPend(x), c)
		} else {
			or(w.column(rd), w.reachers(c))
		}
		return
	}
	k := w.cls(e)
	if k != 0 && k == int(w.ops[i]) { // e joins the current block
		w.edge(w.prevRole(x), c)
		if !w.cyclic {
			w.readEdges(w.rdPrevRole(x), w.rdPrevPend(x), c)
		}
		if !w.cyclic {
			w.readEdges(rd, w.rdPend(x), c)
		}
		if !w.cyclic {
			or(w.column(wr), w.reachers(c))
		}
		return
	}
	w.edge(wr, c)
	if !w.cyclic {
		w.readEdges(rd, w.rdPend(x), c)
	}
	if w.cyclic {
		return
	}
	copy(w.column(w.prevRole(x)), w.column(wr))
	copy(w.column(w.rdPrevRole(x)), w.column(rd))
	copy(w.rdPrevPend(x), w.rdPend(x))
	copy(w.column(wr), w.reachers(c))
	clear(w.column(rd))
	clear(w.rdPend(x))
	w.ops[i] = uint8(k)
}

// commuteClass is the oracle's own reading of the independence of entry
// 14 (it shares no code with pgas.Program.CommuteClass, which the
// procedure uses): a popb of a send that adds an operand that is never
// negative, or one that is never positive (two classes: adds of opposite
// signs do not commute with respect to wraps); or that ands, ors or
// xors, with values 0..2^b-1. Equal non-zero results commute. The class
// of each transition is computed once, here.
func commuteClass(p *pgas.Program) func(pgas.Event) int {
	pow2 := p.Lo == 0 && bits.OnesCount64(uint64(p.Values)) == 1
	dlo, dhi := big.NewInt(p.Lo), big.NewInt(p.Lo+int64(p.Values)-1)
	byTrans := make([]int, len(p.Trans))
	for t := range p.Trans {
		cmd := &p.Trans[t].Cmd
		switch {
		case cmd.Op != pgas.OpSend:
		case cmd.Amo == pgas.AmoAdd:
			lo, hi := dlo, dhi
			if cmd.Local == nil && cmd.Val != nil {
				if l, h, ok := bigRange(cmd.Val.Code, dlo, dhi); ok {
					lo, hi = maxBig(l, dlo), minBig(h, dhi)
				}
			}
			if lo.Sign() >= 0 {
				byTrans[t] = 10
			} else if hi.Sign() <= 0 {
				byTrans[t] = 14
			}
		case cmd.Amo == pgas.AmoAnd && pow2:
			byTrans[t] = 11
		case cmd.Amo == pgas.AmoOr && pow2:
			byTrans[t] = 12
		case cmd.Amo == pgas.AmoXor && pow2:
			byTrans[t] = 13
		}
	}
	return func(e pgas.Event) int {
		if e.Kind != pgas.KPopb || e.Trans < 0 || e.Trans >= len(byTrans) {
			return 0
		}
		return byTrans[e.Trans]
	}
}

// hasCommuting: some send of p has a commuting class.
func hasCommuting(p *pgas.Program) bool {
	cls := commuteClass(p)
	for t := range p.Trans {
		if cls(pgas.Event{Kind: pgas.KPopb, Trans: t}) != 0 {
			return true
		}
	}
	return false
}

// newCommSummary is the empty summary for cf_c.
func newCommSummary(p *pgas.Program, n int) *summary {
	nadr := len(p.Addrs)
	s := &summary{w: 1, n: n, cells: n * nadr, nadr: nadr, nque: len(p.Queues), comm: true, cls: commuteClass(p)}
	s.col = make([]uint64, s.roles()*s.w)
	s.rdp = make([]uint64, s.rdCells()*s.w)
	s.ops = make([]uint8, s.cells)
	return s
}
