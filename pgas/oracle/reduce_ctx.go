package oracle

import (
	"slices"

	"github.com/pgasrob/pgasrob/pgas"
)

// This file extends the partial-order reduction of reduce.go to the
// OpenSHMEM commands (docs/shmem-calculus.md; the argument is in
// docs/deviations.md, "The oracle's reduction with contexts"). The
// dependence stays the paper's: two transitions are dependent when they
// touch one cell, one of them writing it, or when one enables or disables
// the other. What contexts add:
//   - an item's popa reads its Src, its popb writes its Dst (an atomic
//     add's popb also reads it, which a write covers); a fetching atomic
//     reads and writes its target in one event; issue, fence and quiet
//     events touch no cell;
//   - a pop, once enabled, stays enabled until it is taken: new items
//     have epochs no smaller than any pending one, and a new send only
//     joins the current chain, which no pending After item waits for (an
//     After send makes itself the current chain);
//   - what a pop enables (the owner's quiet, its atomic held by a fence,
//     a popb behind a fence or a chain) cannot run before it;
//   - the owner of a context cannot pass a quiet on it before every
//     pending item of it is popped: a quiet is a cut of the owner's
//     future, like the wait on a FIFO queue;
//   - a rank's quiet that is blocked, or its atomic held back by a fence,
//     is enabled by its own items' popbs, so a rank at such a command is
//     never taken alone.

// quietQueue returns the context a quiet of rank r at transition i
// waits on, or -1.
func (rd *reducer) quietQueue(r, i int) int {
	c := rd.p.Trans[i].Cmd
	if c.Op != pgas.OpQuiet {
		return -1
	}
	q, ok := rd.eval(c.Queue, r)
	if !ok || !rd.p.IsCtx(q) {
		return -1
	}
	return q
}

// ctxAccesses adds the cells an OpenSHMEM command of rank r touches, with
// the pops of the item it issues, to f.
func (rd *reducer) ctxAccesses(r int, c pgas.Cmd, f *future) {
	switch c.Op {
	case pgas.OpSend: // popa reads (r, Local); popb writes (k, m)
		if c.Local != nil {
			rd.mark(f.rd, r, true, c.Local, nil)
		}
		rd.mark(f.wr, r, false, c.Remote, c.Rank)
	case pgas.OpRecv: // popa reads (k, m); popb writes (r, Local)
		rd.mark(f.rd, r, false, c.Remote, c.Rank)
		rd.mark(f.wr, r, true, c.Local, nil)
	case pgas.OpAtomic: // reads and writes (k, m)
		rd.mark(f.rd, r, false, c.Remote, c.Rank)
		rd.mark(f.wr, r, false, c.Remote, c.Rank)
	}
}

// ctxItem returns the pending item a context pop move names.
func ctxItem(x *pgas.XState, mv pgas.Move) (pgas.Item, bool) {
	items := x.Items(mv.Rank, mv.Queue)
	j := slices.IndexFunc(items, func(it pgas.Item) bool { return it.Issue == mv.Item })
	if j < 0 {
		return pgas.Item{}, false
	}
	return items[j], true
}

// ctxPopCell is the cell a context pop touches: Src for a popa, Dst for
// a popb.
func (rd *reducer) ctxPopCell(x *pgas.XState, mv pgas.Move) pgas.Cell {
	it, _ := ctxItem(x, mv)
	if mv.Kind == pgas.MovePopa {
		return it.Src
	}
	return it.Dst
}

// ctxPendingSafe reports whether no pop of a pending context item, other
// than the item of mv itself, clashes with the pop mv on cell ci.
func (rd *reducer) ctxPendingSafe(x *pgas.XState, mv pgas.Move, ci uint, clash func(rd, wr bool) bool) bool {
	ctx := rd.p.IsCtx(mv.Queue)
	for r2 := 1; r2 <= rd.n; r2++ {
		for q2 := range rd.p.Queues {
			for _, it := range x.Items(r2, q2) {
				if ctx && r2 == mv.Rank && q2 == mv.Queue && it.Issue == mv.Item {
					continue // mv itself; after a popa, its popb comes later
				}
				if clash(!it.Read && rd.cell(it.Src) == ci, rd.cell(it.Dst) == ci) {
					return false
				}
			}
		}
	}
	return true
}

// ctxCommand adds to rdc and wrc the cells an OpenSHMEM command of rank
// r at its control state touches in its own step (a blocking put's read
// of its source, an atomic's target), evaluated with x's registers. It
// reports false when the command rules rank r out as an ample set: its
// cells cannot be evaluated, or it is a quiet or atomic that r's own
// pending items may enable later.
func (rd *reducer) ctxCommand(x *pgas.XState, r int, c pgas.Cmd, rdc, wrc []uint) ([]uint, []uint, bool) {
	regs := make([]int64, len(rd.p.Regs))
	for k := range regs {
		regs[k] = x.Reg(r, k)
	}
	env := pgas.Env{Regs: regs, Rank: int64(r), N: int64(rd.n)}
	q, err := rd.p.QueueOf(c.Queue, env)
	if err != nil || !rd.p.IsCtx(int(q)) {
		return nil, nil, false
	}
	items := x.Items(r, int(q))
	switch c.Op {
	case pgas.OpQuiet:
		return rdc, wrc, len(items) == 0
	case pgas.OpSend:
		if c.Blocking && c.Local != nil {
			a, err := rd.p.Address(c.Local, env)
			if err != nil {
				return nil, nil, false
			}
			rdc = append(rdc, uint((r-1)*rd.nadr+int(a)))
		}
	case pgas.OpAtomic:
		k, err := rd.p.RankOf(c.Rank, env)
		if err != nil {
			return nil, nil, false
		}
		a, err := rd.p.Address(c.Remote, env)
		if err != nil {
			return nil, nil, false
		}
		ep := x.Epoch(r, int(q))
		for _, it := range items {
			if !it.Recv && it.Dst.Rank == int(k) && it.Epoch < ep {
				return nil, nil, false // held by a fence until an own popb
			}
		}
		ci := uint((int(k)-1)*rd.nadr + int(a))
		rdc, wrc = append(rdc, ci), append(wrc, ci)
	}
	return rdc, wrc, true
}
