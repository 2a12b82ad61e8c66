package cycles

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// Stuck ranks. The cells a rank may still touch (normalform.Future) are
// read off its code, so a rank blocked for good at a wait still counts as
// able to do everything after it. In Y a rank is blocked for good when:
//
//   - it has no move now and is not at a barrier;
//   - its disabled commands other than guarded loads stay disabled while
//     it does not move (assumes and range checks read its registers only);
//   - a guarded load reads its own cell in part 1 (Y's memory holds only
//     the pops of τ1), and the only writes to another rank's cell are the
//     popbs of remote commands, generated with the command. So the guard
//     can change only if some other rank, not itself blocked for good,
//     may still issue a remote command touching that cell.
//   - With contexts: a send's popb and a writing atomic are remote
//     commands in this sense (ff.remote lists them). A quiet disabled by
//     delayed(r,c) and an atomic disabled by lb(r,c,k) > 0 stay disabled
//     while r does not move: those fields are r's own and only r's moves
//     change them. A guarded atomic reads a cell (k, a) that k's own
//     stores may write as well, so it is free as soon as any other rank
//     not blocked for good may still touch that cell at all.
//
// Such a rank never generates another event, and no barrier can ever be
// passed again (a barrier needs every rank), so every other rank is left
// with the cells it can reach without crossing a barrier. With a barrier
// over part of the ranks that last step fails (the ranks outside a stuck
// rank's barriers may still pass theirs), so there the other ranks keep
// their whole futures; the stuck rank itself still touches nothing. The shared
// exploration prunes with these smaller futures (product.prune with
// product.stuck set). On the fenced ring this cuts the guesses that put a
// write's popb after τ1: its wait can then never pass, so the rank never
// loads, and the pairs waiting for that load die at once instead of
// being carried to the end of the search.

// freeFuture holds, per rank and control state, what the stuck-rank
// analysis needs beyond normalform.Future.
type freeFuture struct {
	noBarrier [][][]uint64 // [r-1][q]: cells reachable without crossing a barrier
	remote    [][][]uint64 // [r-1][q]: cells of the remote commands reachable from q
	barrierAt []bool       // a barrier transition leaves q
	none      []uint64
	// partial: some barrier is over part of the ranks. A stuck rank then
	// stops only the barriers it belongs to, so the others keep their
	// whole futures (cellsAt, barrierAhead).
	partial bool
}

func newFreeFuture(y *normalform.Y) *freeFuture {
	p, fut := y.P, y.Future()
	bs := p.BarrierSets(y.N)
	ff := &freeFuture{barrierAt: make([]bool, len(p.Labels)), none: make([]uint64, fut.Words), partial: bs.Partial(y.N)}
	for _, t := range p.Trans {
		if t.Cmd.Op == pgas.OpBarrier {
			ff.barrierAt[t.From] = true
		}
	}
	for r := 1; r <= y.N; r++ {
		var nb, rm [][]uint64
		for q := range p.Labels {
			a, b := make([]uint64, fut.Words), make([]uint64, fut.Words)
			reach(p, q, false, func(ti int) {
				for w, x := range fut.TransCells(r, ti) {
					a[w] |= x
				}
			})
			reach(p, q, true, func(ti int) {
				if op := p.Trans[ti].Cmd.Op; op == pgas.OpRead || op == pgas.OpWrite || op == pgas.OpSend || op == pgas.OpAtomic {
					for w, x := range fut.TransCells(r, ti) {
						b[w] |= x
					}
				}
			})
			nb, rm = append(nb, a), append(rm, b)
		}
		ff.noBarrier, ff.remote = append(ff.noBarrier, nb), append(ff.remote, rm)
	}
	return ff
}

// reach calls f with every transition reachable from q (through barriers
// only if barriers is set; a barrier transition itself is never passed to
// f, it touches no cell).
func reach(p *pgas.Program, q int, barriers bool, f func(ti int)) {
	seen := make([]bool, len(p.Labels))
	stack := []int{q}
	seen[q] = true
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ti := range p.Out[x] {
			t := &p.Trans[ti]
			if t.Cmd.Op == pgas.OpBarrier {
				if !barriers {
					continue
				}
			} else {
				f(ti)
			}
			if !seen[t.To] {
				seen[t.To] = true
				stack = append(stack, t.To)
			}
		}
	}
}

// stuckRanks is the set (bit r for rank r) of the ranks blocked for good
// in the Y state s, whose moves are moves.
func (ff *freeFuture) stuckRanks(y *normalform.Y, s automata.State, moves []normalform.Move) uint64 {
	var moving uint64
	for i := range moves {
		if moves[i].Rank == 0 {
			return 0 // a barrier can be passed: every rank is at one
		}
		moving |= 1 << moves[i].Rank
	}
	var cand uint64
	for r := 1; r <= y.N; r++ {
		if moving&(1<<r) == 0 && !ff.barrierAt[y.Control(s, r)] {
			cand |= 1 << r
		}
	}
	p, fut := y.P, y.Future()
	var stuck uint64
	for changed := cand != 0; changed; {
		changed = false
		for r := 1; r <= y.N; r++ {
			if cand&^stuck&(1<<r) == 0 {
				continue
			}
			q := y.Control(s, r)
			free := true
			for _, ti := range p.Out[q] {
				if p.Trans[ti].Cmd.Guard == nil {
					continue
				}
				cells := fut.TransCells(r, ti)
				atomic := p.Trans[ti].Cmd.Op == pgas.OpAtomic
				for r2 := 1; r2 <= y.N && free; r2++ {
					if r2 == r || stuck&(1<<r2) != 0 {
						continue
					}
					writers := ff.remote[r2-1][y.Control(s, r2)]
					if atomic {
						writers = fut.Cells(r2, y.Control(s, r2))
					}
					for w, x := range writers {
						if x&cells[w] != 0 {
							free = false
							break
						}
					}
				}
			}
			if free {
				stuck |= 1 << r
				changed = true
			}
		}
	}
	return stuck
}

// cellsAt is the future of rank r at q for prune: normalform.Future's,
// or with stuck ranks none for them and the barrier-free part for the
// others.
func (p *product) cellsAt(r, q int) []uint64 {
	switch {
	case p.stuck == 0:
		return p.future.Cells(r, q)
	case p.stuck&(1<<r) != 0:
		return p.free.none
	case p.free.partial:
		return p.future.Cells(r, q)
	}
	return p.free.noBarrier[r-1][q]
}

// barrierAhead reports whether a rank at q may still take part in a
// barrier.
func (p *product) barrierAhead(q int) bool {
	return (p.stuck == 0 || p.free.partial) && p.future.Barrier(q)
}
