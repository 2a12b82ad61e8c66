package oracle

import (
	"github.com/bits-and-blooms/bitset"

	"github.com/pgasrob/pgasrob/pgas"
)

// This file is the oracle's partial-order reduction (Bounds.Reduce; the
// argument is in docs/design.md, "A partial-order reduction in the
// oracle"). In a state where the head of some queue can be popped
// without conflicting with anything that may happen before it, the
// exploration takes that pop alone (an ample set of one transition).
//
// Why that keeps every violation: po relates non-pop events only, ↔ joins
// a request with its pops, and cf relates events on one cell. A pop t
// that no transition able to run before it conflicts with (no common
// cell with a write on either side) commutes with each of them: moving t
// earlier in a computation changes neither po, nor ↔, nor the order of
// any two events on one cell, so the happens-before graph, and a cycle in
// it, stays the same. t is never disabled (the head of a queue stays
// the head until it is popped) and disables nothing. These are
// conditions C0 and C1 of ample sets; the property (a cycle) is the same
// for equivalent computations and persists in extensions, and the cycle
// proviso C3 is met by expanding fully a state whose ample successor has
// been seen before. So every computation of X has an equivalent prefix
// of one the reduced exploration makes.
//
// What may run before t is over-approximated statically: the transitions
// each rank can reach in its automaton from its control state (with
// their cells and the cells of the pops of the requests they issue), and
// the pops of every request pending elsewhere. Two cuts make this useful:
//   - the owner of t's queue q cannot pass a "waitq q" (or the wait of a
//     put or get on q) before t: the await reads a shadow that only the
//     popb of a shadow read issued on q after t's request sets (FIFO, the
//     compiled chain reset; shadow read; await, docs/language.md);
//   - if the owner can reach no barrier before such an await, no rank
//     passes a barrier before t.

// reducer holds what the reduction precomputes for one program and N.
type reducer struct {
	p     *pgas.Program
	n     int
	nadr  int
	await [][]int // await[r-1][tr]: the queue a "waitq"-like await waits on, or -1
	memo  map[futureKey]*future
}

type futureKey struct {
	rank, ctl, cutQ int
	noBarrier       bool
}

// future is the cells a rank may read and write from a control state on.
type future struct {
	rd, wr     *bitset.BitSet
	reachesBar bool
}

// newReducer returns nil when the reduction does not apply: programs with
// a command this file and reduce_ctx.go do not model, or with a barrier
// over part of the ranks.
func newReducer(p *pgas.Program, n int) *reducer {
	for _, t := range p.Trans {
		switch t.Cmd.Op {
		case pgas.OpLoad, pgas.OpStore, pgas.OpAssign, pgas.OpAssume, pgas.OpRead, pgas.OpWrite, pgas.OpBarrier:
		case pgas.OpSend, pgas.OpRecv, pgas.OpFence, pgas.OpQuiet, pgas.OpAtomic:
		default:
			return nil
		}
	}
	if bs := p.BarrierSets(n); bs.Partial(n) {
		// The argument above lets the other ranks' futures stop at
		// barriers because every barrier needs t's owner; a barrier over
		// part of the ranks does not, so the reduction is off for such
		// programs (docs/deviations.md, "Barriers over part of the ranks").
		return nil
	}
	rd := &reducer{p: p, n: n, nadr: len(p.Addrs), memo: map[futureKey]*future{}}
	rd.await = make([][]int, n)
	for r := 1; r <= n; r++ {
		rd.await[r-1] = make([]int, len(p.Trans))
		for i := range p.Trans {
			rd.await[r-1][i] = rd.awaitQueue(r, i)
			if q := rd.quietQueue(r, i); q >= 0 {
				rd.await[r-1][i] = q
			}
		}
	}
	return rd
}

// awaitQueue recognises the compiled chain "mem[$sync] <- 0;
// read($sync, rank, $one, q); $t <- mem[$sync] when …" ending in
// transition i, for rank r, and returns q (-1 otherwise). Each control
// state of the chain must have that single way in, so the await cannot be
// reached without the shadow read just before it.
func (rd *reducer) awaitQueue(r, i int) int {
	p := rd.p
	t := p.Trans[i]
	sigma, ok := constAddr(t.Cmd.Addr)
	if t.Cmd.Op != pgas.OpLoad || t.Cmd.Guard == nil || !ok || sigma < 0 || sigma >= len(p.Addrs) || sigma >= len(p.Shadow) ||
		p.Addrs[sigma] != "$sync" || !p.Shadow[sigma] {
		return -1
	}
	rt, ok := rd.onlyWayIn(t.From)
	if !ok {
		return -1
	}
	read := p.Trans[rt].Cmd
	if l, ok := constAddr(read.Local); read.Op != pgas.OpRead || !ok || l != sigma {
		return -1
	}
	if k, ok := rd.eval(read.Rank, r); !ok || k != r {
		return -1
	}
	q, ok := rd.eval(read.Queue, r)
	if !ok || q < 0 || q >= len(p.Queues) {
		return -1
	}
	zt, ok := rd.onlyWayIn(p.Trans[rt].From)
	if !ok {
		return -1
	}
	reset := p.Trans[zt].Cmd
	if a, ok := constAddr(reset.Addr); reset.Op != pgas.OpStore || !ok || a != sigma {
		return -1
	}
	if v, ok := reset.Val.Const(); !ok || v != 0 {
		return -1
	}
	return q
}

func (rd *reducer) onlyWayIn(ctl int) (int, bool) {
	in := -1
	for i, t := range rd.p.Trans {
		if t.To == ctl {
			if in >= 0 {
				return -1, false
			}
			in = i
		}
	}
	return in, in >= 0 && ctl != rd.p.Init
}

func constAddr(e *pgas.Expr) (int, bool) {
	if e == nil {
		return 0, false
	}
	v, ok := e.Const()
	return int(v), ok
}

// eval evaluates an expression that reads no register for rank r.
func (rd *reducer) eval(e *pgas.Expr, r int) (int, bool) {
	if e == nil || len(e.Regs()) > 0 {
		return 0, false
	}
	v, err := e.Eval(pgas.Env{Rank: int64(r), N: int64(rd.n)})
	return int(v), err == nil
}

// futureOf is the future of rank r from control state ctl: every
// transition reachable without taking an await on cutQ (-1: none) or,
// with noBarrier, a barrier.
func (rd *reducer) futureOf(r, ctl, cutQ int, noBarrier bool) *future {
	k := futureKey{r, ctl, cutQ, noBarrier}
	if f, ok := rd.memo[k]; ok {
		return f
	}
	cells := uint(rd.n * rd.nadr)
	f := &future{rd: bitset.New(cells), wr: bitset.New(cells)}
	seen := map[int]bool{ctl: true}
	stack := []int{ctl}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range rd.p.Out[c] {
			t := rd.p.Trans[i]
			if cutQ >= 0 && rd.await[r-1][i] == cutQ {
				continue
			}
			if t.Cmd.Op == pgas.OpBarrier {
				if noBarrier {
					continue
				}
				f.reachesBar = true
			}
			rd.accesses(r, t.Cmd, f)
			if !seen[t.To] {
				seen[t.To] = true
				stack = append(stack, t.To)
			}
		}
	}
	rd.memo[k] = f
	return f
}

// accesses adds the cells command c of rank r touches, and those the
// pops of the request it issues touch, to f.
func (rd *reducer) accesses(r int, c pgas.Cmd, f *future) {
	switch c.Op {
	case pgas.OpLoad:
		rd.mark(f.rd, r, true, c.Addr, nil)
	case pgas.OpStore:
		rd.mark(f.wr, r, true, c.Addr, nil)
	case pgas.OpRead: // popa reads (k, m), popb writes (r, l)
		rd.mark(f.rd, r, false, c.Remote, c.Rank)
		rd.mark(f.wr, r, true, c.Local, nil)
	case pgas.OpWrite: // popa reads (r, l), popb writes (k, m)
		rd.mark(f.rd, r, true, c.Local, nil)
		rd.mark(f.wr, r, false, c.Remote, c.Rank)
	default:
		rd.ctxAccesses(r, c, f)
	}
}

// mark sets the cells (k, a) with a = addr and k = r (own) or rank,
// every rank or address when the expression depends on registers.
func (rd *reducer) mark(set *bitset.BitSet, r int, own bool, addr, rank *pgas.Expr) {
	lo, hi := 1, rd.n
	if own {
		lo, hi = r, r
	} else if k, ok := rd.eval(rank, r); ok && k >= 1 && k <= rd.n {
		lo, hi = k, k
	}
	a0, a1 := 0, rd.nadr-1
	if a, ok := rd.eval(addr, r); ok && a >= 0 && a < rd.nadr {
		a0, a1 = a, a
	}
	for k := lo; k <= hi; k++ {
		for a := a0; a <= a1; a++ {
			set.Set(uint((k-1)*rd.nadr + a))
		}
	}
}

func (rd *reducer) cell(c pgas.Cell) uint { return uint((c.Rank-1)*rd.nadr + c.Addr) }

// ample returns the steps that may be taken alone in x: one pop, or the
// commands of one rank; nil if there are none.
func (rd *reducer) ample(x *pgas.XState, steps []pgas.Step) []pgas.Step {
	for i, st := range steps {
		mv := st.Move
		if (mv.Kind == pgas.MovePopa || mv.Kind == pgas.MovePopb) && rd.safe(x, mv) {
			return steps[i : i+1]
		}
	}
	for lo := 0; lo < len(steps) && steps[lo].Move.Kind == pgas.MoveCmd; {
		r := steps[lo].Move.Rank
		hi := lo
		for hi < len(steps) && steps[hi].Move.Kind == pgas.MoveCmd && steps[hi].Move.Rank == r {
			hi++
		}
		if rd.localRank(x, r) {
			return steps[lo:hi]
		}
		lo = hi
	}
	return rd.ampleWithPops(x, steps)
}

// localRank reports whether every command leaving rank r's control state
// is independent of everything other ranks and pending pops may do
// before it: the commands of r are then an ample set. Rank r must take
// one of them before any barrier, so the others' futures stop at
// barriers; commands whose cell depends on registers use the values in x.
func (rd *reducer) localRank(x *pgas.XState, r int) bool {
	ok, _ := rd.localRankWith(x, r, nil)
	return ok
}

// localRankWith is localRank, except that with steps a pending context
// pop that conflicts with r's commands does not rule r out when it can
// join them in the ample set (reduce_with.go): it is returned instead.
func (rd *reducer) localRankWith(x *pgas.XState, r int, steps []pgas.Step) (bool, []pgas.Step) {
	ctl := x.Control(r)
	var rdc, wrc []uint
	var with []pgas.Step
	for _, i := range rd.p.Out[ctl] {
		c := rd.p.Trans[i].Cmd
		switch c.Op {
		case pgas.OpBarrier:
			return false, nil
		case pgas.OpSend, pgas.OpRecv, pgas.OpFence, pgas.OpQuiet, pgas.OpAtomic:
			var ok bool
			if rdc, wrc, ok = rd.ctxCommand(x, r, c, rdc, wrc); !ok {
				return false, nil
			}
		case pgas.OpLoad, pgas.OpStore:
			regs := make([]int64, len(rd.p.Regs))
			for k := range regs {
				regs[k] = x.Reg(r, k)
			}
			a, err := c.Addr.Eval(pgas.Env{Regs: regs, Rank: int64(r), N: int64(rd.n)})
			if err != nil || a < 0 || int(a) >= rd.nadr {
				return false, nil
			}
			ci := uint((r-1)*rd.nadr + int(a))
			if c.Op == pgas.OpLoad {
				rdc = append(rdc, ci)
			} else {
				wrc = append(wrc, ci)
			}
		}
	}
	hit := func(rdSet, wrSet func(uint) bool) bool {
		for _, ci := range rdc {
			if wrSet(ci) {
				return true
			}
		}
		for _, ci := range wrc {
			if rdSet(ci) || wrSet(ci) {
				return true
			}
		}
		return false
	}
	for r2 := 1; r2 <= rd.n; r2++ {
		for q2 := range rd.p.Queues {
			for _, req := range x.FA(r2, q2) {
				src, dst := rd.cell(req.Src), rd.cell(req.Dst)
				if hit(func(ci uint) bool { return ci == src }, func(ci uint) bool { return ci == dst }) {
					return false, nil
				}
			}
			for _, tr := range x.FB(r2, q2) {
				dst := rd.cell(tr.Dst)
				if hit(func(uint) bool { return false }, func(ci uint) bool { return ci == dst }) {
					return false, nil
				}
			}
			for _, it := range x.Items(r2, q2) {
				src, dst := rd.cell(it.Src), rd.cell(it.Dst)
				popa := !it.Read
				if hit(func(ci uint) bool { return popa && ci == src }, func(ci uint) bool { return ci == dst }) {
					st, ok := rd.joinPop(x, r, r2, q2, it, steps, hit)
					if !ok {
						return false, nil
					}
					with = append(with, st)
				}
			}
		}
		if r2 == r {
			continue
		}
		f := rd.futureOf(r2, x.Control(r2), -1, true)
		if hit(f.rd.Test, f.wr.Test) {
			return false, nil
		}
	}
	return true, with
}

// safe reports whether nothing that may run before pop mv conflicts with
// it (see the top of the file).
func (rd *reducer) safe(x *pgas.XState, mv pgas.Move) bool {
	r, q := mv.Rank, mv.Queue
	var c pgas.Cell
	write := mv.Kind == pgas.MovePopb
	switch {
	case rd.p.IsCtx(q):
		c = rd.ctxPopCell(x, mv)
	case write:
		c = x.FB(r, q)[0].Dst
	default:
		c = x.FA(r, q)[0].Src
	}
	ci := rd.cell(c)
	clash := func(rdc, wrc bool) bool { return wrc || (write && rdc) }
	if !rd.ctxPendingSafe(x, mv, ci, clash) {
		return false
	}
	// The pops of every other pending request.
	for r2 := 1; r2 <= rd.n; r2++ {
		for q2 := range rd.p.Queues {
			for j, req := range x.FA(r2, q2) {
				own := r2 == r && q2 == q && j == 0 && !write
				if own {
					continue // t itself; its popb comes after it
				}
				if clash(rd.cell(req.Src) == ci, rd.cell(req.Dst) == ci) {
					return false
				}
			}
			for j, tr := range x.FB(r2, q2) {
				if r2 == r && q2 == q && j == 0 && write {
					continue // t itself
				}
				if clash(false, rd.cell(tr.Dst) == ci) {
					return false
				}
			}
		}
	}
	// What every rank may still do; the owner stops at an await on q.
	fo := rd.futureOf(r, x.Control(r), q, false)
	if clash(fo.rd.Test(ci), fo.wr.Test(ci)) {
		return false
	}
	for r2 := 1; r2 <= rd.n; r2++ {
		if r2 == r {
			continue
		}
		f := rd.futureOf(r2, x.Control(r2), -1, !fo.reachesBar)
		if clash(f.rd.Test(ci), f.wr.Test(ci)) {
			return false
		}
	}
	return true
}
