package normalform

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

// barriers implements rule (bar') for barriers over a set of ranks: the
// members of one set, each at a barrier transition over that set, move
// together and generate their bar events, in rank order, in part 1. The
// other ranks do not move (docs/deviations.md, "Barriers over part of the
// ranks"). A barrier without a set is over every rank, as in the paper.
// The bar events carry the set in Event.Item (pgas.BarItem).
func (y *Y) barriers(s automata.State) []Move {
	if len(y.barIdx) == 0 {
		return nil
	}
	// The sets some rank may take now, in the order ranks 1..N reach them.
	var sets []pgas.RankMask
	for r := 1; r <= y.N; r++ {
		for _, ti := range y.P.Out[y.Control(s, r)] {
			if y.P.Trans[ti].Cmd.Op != pgas.OpBarrier || y.bars.Check(y.P, ti, r, y.N) != nil {
				continue
			}
			if m := y.bars.Mask[ti]; !containsMask(sets, m) {
				sets = append(sets, m)
			}
		}
	}
	var moves []Move
	for _, set := range sets {
		moves = y.barriersOver(s, set, moves)
	}
	return moves
}

func containsMask(sets []pgas.RankMask, m pgas.RankMask) bool {
	for _, x := range sets {
		if x == m {
			return true
		}
	}
	return false
}

// barriersOver appends the barrier moves over one set: one per choice of
// a barrier transition over the set for each member.
func (y *Y) barriersOver(s automata.State, set pgas.RankMask, moves []Move) []Move {
	members := set.Ranks()
	choices := make([][]int, len(members))
	for i, r := range members {
		for _, ti := range y.P.Out[y.Control(s, r)] {
			if y.P.Trans[ti].Cmd.Op == pgas.OpBarrier && y.bars.Err[ti] == nil && y.bars.Mask[ti] == set {
				choices[i] = append(choices[i], ti)
			}
		}
		if len(choices[i]) == 0 {
			return moves
		}
	}
	item := pgas.BarItem(set, y.N)
	pick := make([]int, y.N)
	for i := range pick {
		pick[i] = -1
	}
	var rec func(i int)
	rec = func(i int) {
		if i == len(members) {
			tg := y.target(s)
			evs := make([]HEvent, 0, len(members))
			for _, r := range members {
				ti := pick[r-1]
				y.st[r-1].Set(tg, uint64(y.P.Trans[ti].To))
				evs = append(evs, HEvent{Head: 1, Event: pgas.Event{Kind: pgas.KBar, Rank: r, Trans: ti, Queue: -1, Item: item}})
			}
			moves = append(moves, Move{Trans: -1, BarTrans: append([]int(nil), pick...), Events: evs, Target: tg})
			return
		}
		for _, ti := range choices[i] {
			pick[members[i]-1] = ti
			rec(i + 1)
		}
	}
	rec(0)
	return moves
}
