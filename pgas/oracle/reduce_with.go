package oracle

import (
	"github.com/pgasrob/pgasrob/pgas"
)

// This file widens the ample sets of reduce.go (docs/deviations.md,
// "The oracle's ample sets with pops", after entry 17). Where no pop is
// safe alone and no rank's commands are, a barrier that every rank waits
// at is taken alone (barrierAlone), and the commands of a rank r
// together with the pending context pops that conflict with them can
// still be an ample set A: a rank that reads its recvbuf while the puts
// into it are pending (every all-to-all after a sync) is the usual case.
// Conditions, each for C1 (no step outside A that conflicts with A can
// run before A):
//   - r's commands are as in localRank except for the pending pops they
//     conflict with; r is at no barrier, so no rank passes a barrier
//     before a step of A, and the other ranks' futures stop at barriers;
//   - each joined pop is enabled now (a pop stays enabled until taken:
//     reduce_ctx.go), and it is the pending pop of its item: a conflict
//     with an item whose popa is still pending through its Dst (the popb
//     to come, not enabled yet) rules r out;
//   - each joined pop's cell meets no other pending pop and no future of
//     a rank other than r in conflict (a write on either side). r's own
//     later commands and the pops of items issued later come after a step
//     of A.
// The cycle proviso is the explorer's (explore.go), which checks every
// successor in A.

// ampleWithPops returns the barrier steps when every rank waits at a
// barrier (barrierAlone), or else the first rank's commands with the pops
// they conflict with, when those form an ample set; nil otherwise.
func (rd *reducer) ampleWithPops(x *pgas.XState, steps []pgas.Step) []pgas.Step {
	if amp := rd.barrierAlone(x, steps); amp != nil {
		return amp
	}
	for lo := 0; lo < len(steps) && steps[lo].Move.Kind == pgas.MoveCmd; {
		r := steps[lo].Move.Rank
		hi := lo
		for hi < len(steps) && steps[hi].Move.Kind == pgas.MoveCmd && steps[hi].Move.Rank == r {
			hi++
		}
		if ok, with := rd.localRankWith(x, r, steps); ok {
			amp := append([]pgas.Step(nil), steps[lo:hi]...)
			for _, st := range with {
				if !containsMove(amp, st.Move) {
					amp = append(amp, st)
				}
			}
			return amp
		}
		lo = hi
	}
	return nil
}

// barrierAlone returns the barrier steps when only barrier transitions
// leave every rank's control state. Then nothing but pops can run before
// a barrier, and a barrier commutes with every pop: its events touch no
// cell, so swapping them changes no po (pops have none), no ↔ and no cf
// edge; pops neither enable nor disable it (it waits for no queue), and it
// disables no pop. No rank can take another command first (it has none),
// so no pop can make one enabled either.
func (rd *reducer) barrierAlone(x *pgas.XState, steps []pgas.Step) []pgas.Step {
	for r := 1; r <= rd.n; r++ {
		for _, i := range rd.p.Out[x.Control(r)] {
			if rd.p.Trans[i].Cmd.Op != pgas.OpBarrier {
				return nil
			}
		}
	}
	var amp []pgas.Step
	for _, st := range steps {
		if st.Move.Kind == pgas.MoveBarrier {
			amp = append(amp, st)
		}
	}
	return amp
}

func containsMove(steps []pgas.Step, mv pgas.Move) bool {
	for _, st := range steps {
		if st.Move.Kind == mv.Kind && st.Move.Rank == mv.Rank && st.Move.Queue == mv.Queue && st.Move.Item == mv.Item && st.Move.Trans == mv.Trans {
			return true
		}
	}
	return false
}

// joinPop returns the enabled step of item it's pending pop (context q2
// of rank r2), which conflicts with rank r's commands (hit tests a pop's
// read and write cells against them), if it may join them in an ample
// set; false without steps (localRank) or when it may not.
func (rd *reducer) joinPop(x *pgas.XState, r, r2, q2 int, it pgas.Item, steps []pgas.Step, hit func(rdSet, wrSet func(uint) bool) bool) (pgas.Step, bool) {
	if steps == nil {
		return pgas.Step{}, false
	}
	src, dst := rd.cell(it.Src), rd.cell(it.Dst)
	kind, ci, write := pgas.MovePopb, dst, true
	if !it.Read {
		// The popa is pending; the popb, not enabled yet, must not be the
		// conflict.
		if hit(func(uint) bool { return false }, func(c uint) bool { return c == dst }) {
			return pgas.Step{}, false
		}
		kind, ci, write = pgas.MovePopa, src, false
	}
	var st pgas.Step
	found := false
	for _, s := range steps {
		if mv := s.Move; mv.Kind == kind && mv.Rank == r2 && mv.Queue == q2 && mv.Item == it.Issue {
			st, found = s, true
			break
		}
	}
	if !found || st.Wrap != nil {
		return pgas.Step{}, false
	}
	clash := func(rdc, wrc bool) bool { return wrc || (write && rdc) }
	if !rd.ctxPendingSafe(x, st.Move, ci, clash) {
		return pgas.Step{}, false
	}
	for r3 := 1; r3 <= rd.n; r3++ {
		for q3 := range rd.p.Queues {
			for _, req := range x.FA(r3, q3) {
				if clash(rd.cell(req.Src) == ci, rd.cell(req.Dst) == ci) {
					return pgas.Step{}, false
				}
			}
			for _, tr := range x.FB(r3, q3) {
				if clash(false, rd.cell(tr.Dst) == ci) {
					return pgas.Step{}, false
				}
			}
		}
		if r3 == r {
			continue
		}
		f := rd.futureOf(r3, x.Control(r3), -1, true)
		if clash(f.rd.Test(ci), f.wr.Test(ci)) {
			return pgas.Step{}, false
		}
	}
	return st, true
}
