package cycles

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// Partial-order reduction with ample sets. In a state s, if some rank r is
// "alone" — every move it can make touches only cells that no other rank
// may ever touch again, none of them a barrier — then its moves commute
// with everything the other ranks can still do, so it is enough to explore
// the moves of r from s. The conditions, and why each is needed:
//
//   - r is not at a barrier: a barrier moves every rank at once.
//   - The cells of r's enabled moves (every event, every part) are outside
//     the future cells of every other rank (normalform.Future): other ranks
//     can then neither enable nor disable r's moves (their guards read only
//     r's registers and those cells) nor be affected by them, and for the
//     tracker events on different cells commute (its decisions compare the
//     order of events on one cell only).
//   - Those cells are not the cell of a pair that has already seen one of
//     its events: an accepting run that never moves r again must not be
//     spoilt by a write of r to a watched cell. Pairs not started need no
//     such care: a cell only r can touch cannot join r to another rank,
//     and the written-cell sets forget it (prune).
//   - r has at least one enabled move. Its disabled commands stay disabled
//     until r moves: assumes and range checks read only r's registers, and
//     the cells of its guarded loads are included in the cells above, so
//     no other rank can write them.
//   - A move that takes r past its last store to a cell counts as
//     touching that cell: it may make other ranks' popas of the cell
//     settled (normalform/settled.go), restricting their choices, so it
//     would not commute with their reads otherwise. (Not for a cell some
//     popb may write: its popas are never settled.)
//   - r's control state is on no cycle of the program: every reduced step
//     moves a rank forward in the acyclic part of its code, so no cycle of
//     the reduced graph consists of reduced steps only, and no rank is
//     postponed forever (the cycle proviso).
//
// Every marking of r's moves is kept, so the guesses of Y^M are intact.

type reducer struct {
	cyclic  []bool // cyclic[q]: q lies on a cycle of the program automaton
	barrier []bool // barrier[q]: a barrier transition leaves q
	mine    []uint64
	others  []uint64
	started []uint64 // scratch: the cells of the pairs already started
	suffix  []uint64 // scratch of candidates (suffixCells)
}

func newReducer(p *pgas.Program, words int) *reducer {
	rd := &reducer{
		cyclic:  onCycle(p),
		barrier: make([]bool, len(p.Labels)),
		mine:    make([]uint64, words),
		others:  make([]uint64, words),
		started: make([]uint64, words),
	}
	for _, t := range p.Trans {
		if t.Cmd.Op == pgas.OpBarrier {
			rd.barrier[t.From] = true
		}
	}
	return rd
}

// onCycle marks the control states that can reach themselves.
func onCycle(p *pgas.Program) []bool {
	n := len(p.Labels)
	res := make([]bool, n)
	for q := 0; q < n; q++ {
		seen := make([]bool, n)
		stack := []int{}
		for _, ti := range p.Out[q] {
			stack = append(stack, p.Trans[ti].To)
		}
		for len(stack) > 0 && !res[q] {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x == q {
				res[q] = true
			}
			if seen[x] {
				continue
			}
			seen[x] = true
			for _, ti := range p.Out[x] {
				stack = append(stack, p.Trans[ti].To)
			}
		}
	}
	return res
}

// ample returns a rank whose moves alone may be explored from s, or 0;
// started holds the cells of the pairs that have seen one of their events
// (of every cycle type carried, in the shared exploration).
func (rd *reducer) ample(y *normalform.Y, fut *normalform.Future, s automata.State, moves []normalform.Move, started []uint64) int {
	found := 0
	rd.candidates(y, fut, s, moves, func(r int, mine []uint64) bool {
		for w := range mine {
			if mine[w]&started[w] != 0 {
				return true
			}
		}
		found = r
		return false
	})
	return found
}

// candidates calls f, in rank order until it returns false, with every
// rank that meets the conditions of ample that depend on s alone, and the
// cells of its moves (mine, valid during the call): the rank is ample in
// s with a tracker iff no started pair's cell is among them. The shared
// exploration lists them once per state of Y (shared_y.go).
func (rd *reducer) candidates(y *normalform.Y, fut *normalform.Future, s automata.State, moves []normalform.Move, f func(r int, mine []uint64) bool) {
	addrs, words := len(y.P.Addrs), len(rd.mine)
	// others holds the future cells of ranks 1..r-1 at the top of the
	// loop; suffix those of ranks r+1..N, made once a rank needs them
	// (the union of every other rank's cells, per rank, was a tenth of the
	// CPU of the per-type search on the ring at N = 6).
	clear(rd.others)
	suffixes := false
	for r := 1; r <= y.N; r++ {
		q := y.Control(s, r)
		if r > 1 {
			for w, x := range fut.Cells(r-1, y.Control(s, r-1)) {
				rd.others[w] |= x
			}
		}
		if rd.cyclic[q] || rd.barrier[q] {
			continue
		}
		clear(rd.mine)
		any := false
		stores := fut.Stores(r, q)
		for i := range moves {
			if moves[i].Rank != r {
				continue
			}
			any = true
			for _, he := range moves[i].Events {
				if he.Event.HasCell {
					c := (he.Event.Cell.Rank-1)*addrs + he.Event.Cell.Addr
					rd.mine[c/64] |= 1 << (c % 64)
				}
			}
			// A move past r's last store to a cell makes other ranks'
			// popas of it settled (normalform/settled.go), which changes
			// their choices: it counts as touching the cell.
			after := fut.Stores(r, y.Control(moves[i].Target, r))
			for w := range stores {
				rd.mine[w] |= stores[w] &^ after[w] &^ fut.PopbDst()[w]
			}
		}
		if !any {
			continue
		}
		// A guarded load that is disabled now could be enabled by another
		// rank writing its cell; then it would have to stay in play, so its
		// cells count as r's too.
		for _, ti := range y.P.Out[q] {
			if y.P.Trans[ti].Cmd.Guard != nil {
				for w, x := range fut.TransCells(r, ti) {
					rd.mine[w] |= x
				}
			}
		}
		if !suffixes {
			rd.suffixCells(y, fut, s)
			suffixes = true
		}
		after := rd.suffix[r*words : (r+1)*words]
		ok := true
		for w := range rd.mine {
			if rd.mine[w]&(rd.others[w]|after[w]) != 0 {
				ok = false
				break
			}
		}
		if ok && !f(r, rd.mine) {
			return
		}
	}
}

// suffixCells fills rd.suffix: its r-th block is the union of the
// future cells of ranks r+1..N in s (block N is empty).
func (rd *reducer) suffixCells(y *normalform.Y, fut *normalform.Future, s automata.State) {
	words := len(rd.mine)
	if len(rd.suffix) < (y.N+1)*words {
		rd.suffix = make([]uint64, (y.N+1)*words)
	}
	clear(rd.suffix[y.N*words : (y.N+1)*words])
	for r := y.N - 1; r >= 1; r-- {
		cur, next := rd.suffix[r*words:(r+1)*words], rd.suffix[(r+1)*words:(r+2)*words]
		copy(cur, next)
		for w, x := range fut.Cells(r+1, y.Control(s, r+1)) {
			cur[w] |= x
		}
	}
}
