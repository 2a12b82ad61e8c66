package tso

import (
	"context"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Stages of the combined search over identical threads (issue 35 item 4).
//
// Thread symmetry (symmetry.go) folds the orders of identical threads,
// but not their number: with six identical thieves the combined program
// P_* still has every multiset of six thief states, and the goal of a
// work-stealing queue, which needs one thief, lies behind many of them in
// any depth-first order (the idempotent LIFO queue with a looping owner:
// 839 states with one thief, 54,193 with three, 957,785 with five, all
// with the symmetry).
//
// So, before P_* itself, the combined search runs on P_* with all but k
// threads of each class of twins frozen, for k = 1 and 2 (each stage
// only if some class is larger than k), each within a quarter of the
// budget; P_* gets what is left. A frozen thread never moves: it stays
// at its initial label with zero registers, holds no lock and touches no
// cell. A run of the staged system is therefore a run of P_* (the same
// moves, the frozen threads idle, which P_* allows: nothing forces a
// thread to move), and its goal is a goal of P_*; the path is one of P_*'s
// system and goes to the witness unchanged (replayed as any other). A
// stage that finds nothing decides nothing, and P_* is searched as
// before; the staged systems' partial-order reduction is planned for all
// threads, which only makes fewer labels reducible than the stage's own
// threads would allow, so por.go's argument holds for it. Only goals end
// the check, and only with a replayed witness, so the answer is exact
// whatever the stages find.

// stagedOrders is searchOrders over the stages above, then P_*; it
// returns the system and width of the last search, its result and the
// work of all.
func stagedOrders(ctx context.Context, p *prog.Program, attacks []Attack, opt Options, bits int, budget, maxBytes int64) (*scSystem, int, automata.Result, automata.Stats) {
	fixed := opt.ValueBits > 0
	newSys := func(frozen []bool) func(int) *scSystem {
		return func(bits int) *scSystem {
			s := newCombinedSystem(p, attacks, opt.NoReduction, bits)
			s.frozen = frozen
			return s
		}
	}
	var spent automata.Stats
	if !opt.NoSymmetry {
		if y := planSymmetry(newCombinedSystem(p, attacks, opt.NoReduction, bits)); y != nil {
			for k := 1; k <= 2; k++ {
				frozen, some := freezeTwins(len(p.Threads), y.classes, k)
				if !some {
					break
				}
				sys, b, r, s := searchOrders(ctx, newSys(frozen), bits, fixed, false, budget/4, maxBytes)
				spent.Add(s)
				if r.Outcome == automata.NonEmpty || ctx.Err() != nil || r.Limit == automata.MemoryLimit {
					return sys, b, r, spent
				}
			}
		}
	}
	sys, b, r, s := searchOrders(ctx, newSys(nil), bits, fixed, opt.NoSymmetry, max(budget-spent.States, 1), maxBytes)
	spent.Add(s)
	return sys, b, r, spent
}

// freezeTwins freezes all but the first k threads of each class; some is
// false when no class has more than k.
func freezeTwins(n int, classes [][]int, k int) (frozen []bool, some bool) {
	frozen = make([]bool, n)
	for _, c := range classes {
		for _, t := range c[min(k, len(c)):] {
			frozen[t], some = true, true
		}
	}
	return frozen, some
}
