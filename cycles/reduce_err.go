package cycles

import (
	"github.com/bits-and-blooms/bitset"
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The partial-order reduction of the run-time error check (errSystem;
// docs/deviations.md, "The run-time error check's reduction on loops").
// The check explores the sequentially consistent Y, in which a move is
// one command of one rank with its pops (or a barrier of every rank), and
// asks a reachability question: is a state reachable in which some
// enabled command errs? Persistent sets with a cycle proviso keep every
// reachable error (Godefroid's thesis, LNCS 1032, ch. 6; Valmari's
// stubborn sets). reduce.go's reducer is built for the cycle-type products
// and never takes a rank alone at a control state on a cycle of the
// program, which on programs whose time steps are loops leaves the check
// unreduced. This one differs in three ways, each argued at errSystem:
//
//   - the cycle proviso is static and per transition: a depth-first
//     search of the program automaton without its barriers splits the
//     other transitions into back edges (which return to a state on the
//     search's stack) and forward ones; a rank is taken alone only when
//     every move it can make follows a forward transition. Forward transitions
//     strictly lower the depth-first postorder number, so no cycle of the
//     reduced graph consists of reduced steps only (Kurshan, Levin, Minea,
//     Peled, Yenigün, "Static partial order reduction", TACAS 1998).
//   - other ranks' futures stop at barriers: a rank that is taken alone
//     has no barrier leaving its control state, and a barrier moves every
//     rank, so no barrier can happen before it moves. (A barrier over part
//     of the ranks would need its own rule here: it can pass without r.)
//   - reads commute: the conflict is a common cell that one side writes.

// errReducer holds the tables of one program and N, read-only after
// newErrReducer, and the scratch sets of one goroutine.
type errReducer struct {
	forward []bool       // forward[t]: t is no back edge of the program automaton
	barrier []bool       // barrier[q]: a barrier transition leaves q
	guarded [][]int      // guarded[q]: the transitions leaving q with a guard
	touch   [][][]uint64 // touch[r-1][q]: the cells rank r may touch from q before its next barrier
	write   [][][]uint64 // write[r-1][q]: those it may write
	words   int
	// noProviso drops the cycle proviso (only the mutation test sets it;
	// the reduction is then unsound on loops).
	noProviso bool
	// Scratch: the cells of the candidate's moves (touched, written) and
	// the other ranks' futures.
	mineT, mineW, othT, othW []uint64
}

func newErrReducer(y *normalform.Y) *errReducer {
	p, fut := y.P, y.Future()
	words := fut.Words
	rd := &errReducer{forward: forwardTrans(p), barrier: make([]bool, len(p.Labels)), guarded: make([][]int, len(p.Labels)), words: words}
	for i, t := range p.Trans {
		if t.Cmd.Op == pgas.OpBarrier {
			rd.barrier[t.From] = true
		}
		if t.Cmd.Guard != nil {
			rd.guarded[t.From] = append(rd.guarded[t.From], i)
		}
	}
	cut := fullBarriers(p, y.N)
	for r := 1; r <= y.N; r++ {
		touch := make([][]uint64, len(p.Trans))
		write := make([][]uint64, len(p.Trans))
		for i := range p.Trans {
			touch[i] = fut.TransCells(r, i)
			write[i] = writeCells(p, y.N, r, &p.Trans[i].Cmd, words)
		}
		rd.touch = append(rd.touch, closureToBarrier(p, cut, touch, words))
		rd.write = append(rd.write, closureToBarrier(p, cut, write, words))
	}
	return rd.fork()
}

// fork is rd with scratch sets of its own and the same tables.
func (rd *errReducer) fork() *errReducer {
	f := *rd
	f.mineT, f.mineW = make([]uint64, rd.words), make([]uint64, rd.words)
	f.othT, f.othW = make([]uint64, rd.words), make([]uint64, rd.words)
	return &f
}

// forwardTrans marks the transitions that are no barrier and no back edge
// of a depth-first search of p's automaton without its barriers (from the
// initial state, then from every state not reached yet): each lowers the
// search's postorder number, so every cycle of the automaton has a
// barrier or a back edge. A rank at a barrier is never taken alone
// anyway, so a loop with a barrier in it costs the reduction nothing.
func forwardTrans(p *pgas.Program) []bool {
	post := make([]int, len(p.Labels))
	seen := make([]bool, len(p.Labels))
	n := 0
	var dfs func(q int)
	dfs = func(q int) {
		seen[q] = true
		for _, ti := range p.Out[q] {
			if t := p.Trans[ti]; t.Cmd.Op != pgas.OpBarrier && !seen[t.To] {
				dfs(t.To)
			}
		}
		post[q] = n
		n++
	}
	dfs(p.Init)
	for q := range p.Labels {
		if !seen[q] {
			dfs(q)
		}
	}
	fw := make([]bool, len(p.Trans))
	for i, t := range p.Trans {
		fw[i] = t.Cmd.Op != pgas.OpBarrier && post[t.To] < post[t.From]
	}
	return fw
}

// writeCells is the cells command c of rank r may write in the
// sequentially consistent Y (its own step and its pops), every address or
// rank where the expression reads registers; a superset is safe.
func writeCells(p *pgas.Program, n, r int, c *pgas.Cmd, words int) []uint64 {
	s := make([]uint64, words)
	na := len(p.Addrs)
	mark := func(own bool, addr, rank *pgas.Expr) {
		if addr == nil {
			return
		}
		env := pgas.Env{Rank: int64(r), N: int64(n)}
		lo, hi := r, r
		if !own {
			lo, hi = 1, n
			if len(rank.Regs()) == 0 {
				if k, err := rank.Eval(env); err == nil && k >= 1 && k <= int64(n) {
					lo, hi = int(k), int(k)
				}
			}
		}
		a0, a1 := 0, na-1
		if len(addr.Regs()) == 0 {
			if a, err := addr.Eval(env); err == nil && a >= 0 && a < int64(na) {
				a0, a1 = int(a), int(a)
			}
		}
		for k := lo; k <= hi; k++ {
			for a := a0; a <= a1; a++ {
				bitset.From(s).Set(uint((k-1)*na + a))
			}
		}
	}
	switch c.Op {
	case pgas.OpStore:
		mark(true, c.Addr, nil)
	case pgas.OpRead, pgas.OpRecv: // the popb writes the local cell
		mark(true, c.Local, nil)
	case pgas.OpWrite, pgas.OpSend: // the popb writes the remote cell
		mark(false, c.Remote, c.Rank)
	case pgas.OpAtomic: // a fetch writes only a register; the others may write the target
		if c.Amo != pgas.AmoFetch {
			mark(false, c.Remote, c.Rank)
		}
		mark(true, c.Local, nil)
	}
	return s
}

// fullBarriers marks the barrier transitions over every rank for n ranks.
// Only those cut another rank's future: the rank followed alone is at no
// barrier, so no other rank passes a barrier that needs it; a barrier over
// part of the ranks (docs/deviations.md, entry 19) may not need it, and
// the future goes on through it.
func fullBarriers(p *pgas.Program, n int) []bool {
	bs := p.BarrierSets(n)
	cut := make([]bool, len(p.Trans))
	for t := range p.Trans {
		cut[t] = bs.IsBar[t] && bs.Err[t] == nil && bs.Mask[t] == pgas.AllRanks(n)
	}
	return cut
}

// closureToBarrier is, for every control state, the union of own[t] over
// the transitions t reachable from it without taking a barrier that cut
// marks.
func closureToBarrier(p *pgas.Program, cut []bool, own [][]uint64, words int) [][]uint64 {
	fs := make([][]uint64, len(p.Labels))
	for q := range fs {
		fs[q] = make([]uint64, words)
	}
	for changed := true; changed; {
		changed = false
		for i, t := range p.Trans {
			if cut[i] {
				continue
			}
			for w := range fs[t.From] {
				v := fs[t.From][w] | own[i][w] | fs[t.To][w]
				if v != fs[t.From][w] {
					fs[t.From][w], changed = v, true
				}
			}
		}
	}
	return fs
}

// ample returns a rank whose moves alone may be explored from s, or 0:
// the first rank with a move, no barrier leaving its control state, every
// move on a forward transition, and whose moves (and disabled guarded
// commands) share no cell with what the other ranks may do before their
// next barrier, unless both only read it.
func (rd *errReducer) ample(y *normalform.Y, s automata.State, moves []normalform.Move) int {
	na := len(y.P.Addrs)
	for r := 1; r <= y.N; r++ {
		q := y.Control(s, r)
		if rd.barrier[q] {
			continue
		}
		clear(rd.mineT)
		clear(rd.mineW)
		any, ok := false, true
		for i := range moves {
			if moves[i].Rank != r {
				continue
			}
			any = true
			if !rd.noProviso && !rd.forward[moves[i].Trans] {
				ok = false
				break
			}
			for _, he := range moves[i].Events {
				if !he.Event.HasCell || he.Event.Cell.Addr < 0 {
					continue
				}
				c := uint((he.Event.Cell.Rank-1)*na + he.Event.Cell.Addr)
				bitset.From(rd.mineT).Set(c)
				if k := he.Event.Kind; k != pgas.KLoad && k != pgas.KPopa && k != pgas.KAFetch {
					bitset.From(rd.mineW).Set(c)
				}
			}
		}
		if !any || !ok {
			continue
		}
		// A guarded command disabled now could be enabled by another rank
		// writing a cell it reads: its cells count as read by r.
		for _, ti := range rd.guarded[q] {
			for w, x := range y.Future().TransCells(r, ti) {
				rd.mineT[w] |= x
			}
		}
		if rd.independent(y, s, r) {
			return r
		}
	}
	return 0
}

// independent reports whether r's cells (mineT, mineW) meet no cell the
// other ranks may write, and r writes no cell they may touch, before
// their next barrier.
func (rd *errReducer) independent(y *normalform.Y, s automata.State, r int) bool {
	clear(rd.othT)
	clear(rd.othW)
	for r2 := 1; r2 <= y.N; r2++ {
		if r2 == r {
			continue
		}
		q2 := y.Control(s, r2)
		for w, x := range rd.touch[r2-1][q2] {
			rd.othT[w] |= x
		}
		for w, x := range rd.write[r2-1][q2] {
			rd.othW[w] |= x
		}
	}
	for w := range rd.mineT {
		if rd.mineT[w]&rd.othW[w] != 0 || rd.mineW[w]&rd.othT[w] != 0 {
			return false
		}
	}
	return true
}
