package tso

import (
	"context"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Two orders for the combined first search (issue 35 item 4).
//
// The goal-directed order of directed.go enters a thread's own moves
// before the choice to start an attack there. On a work-stealing queue
// with several thieves that is the wrong way round: the owner runs its
// whole program first, and the choice to delay its second put's tail
// store, with one thief half-way through a steal, comes up only when the
// search backs out to that store, after the subtree of every run that
// went on without attacking there (all the thieves' interleavings with
// the rest of the owner's program). Measured on the idempotent FIFO
// queue (family.IdemFIFO) with 3 thieves and 4 puts: the goal is the
// 1,807,751st state P_* enters; 205,042 of the states expanded before it
// have an attack under way and 217,626 none; the combined budget
// (131,072) runs out first, and the per-attack searches then spend
// 43.8 M states (about 240,000 for each of the 48 infeasible attacks
// before the first feasible one). The witness itself is short: the owner
// runs its puts, delays the last tail store, one thief reads head, tail
// and the item, the owner reads head (its last action), the thief's CAS
// of head and its next read of tail close the cycle.
//
// The attack-first order (attackFirstRank) enters, of a state's moves,
// first those that extend the happens-before chain (as directed.go),
// then the starts of attacks, then the rest: every store is tried as the
// attacking one as soon as the search reaches it, and the runs that go
// on without attacking are searched after. On the queue above it enters
// 42,487 states. It is not better everywhere: on the flag ring with 10
// threads it enters 128,848 states against 17 (every thread attacks at
// its first store, before any helper has moved, and each such attack
// dies only after its helpers' interleavings are exhausted).
//
// So the combined search runs both, as a portfolio within its one budget
// of states: the goal-directed order first with a quarter of it (every
// near-violation program of issue 27 up to N = 10 but Peterson's lock at
// N = 10 is found within 8,000 states), then the attack-first order with
// what is left. Both search the same graph with the same reductions (only
// the order of successors differs; directed.go argues why no goal is
// lost), so a goal either finds is a goal of P_*, turned into a witness
// and replayed as before; an exhausted graph (Empty) ends the portfolio,
// since the other order would visit the same states. The budget is the
// combined search's own (DefaultCombinedStates, Options.CombinedStates):
// a robust program whose P_* the first order exhausts within its quarter
// costs what it cost before; one with a larger P_* pays at most the
// budget, as before.

// attackFirstRank ranks the moves that extend the happens-before chain
// highest (2), the starts of attacks next (1), every other move last.
func attackFirstRank(op prog.Op, r role) uint8 {
	if r == rAttStart {
		return 1
	}
	return 2 * moveRank(op, r)
}

// combinedOrders are the orders of the portfolio, each with the part of
// the budget (in quarters) that it and the orders before it may use; the
// last takes what the others left.
var combinedOrders = []struct {
	name     string
	rank     func(prog.Op, role) uint8
	quarters int64
}{
	{"goal-directed", moveRank, 1},
	{"attack-first", attackFirstRank, 4},
}

// searchOrders searches P_* (sys) in the orders of combinedOrders within
// budget states in all, and returns the last search's result (a goal's
// path is one of sys) and the work of all of them. An order's search that
// sees a value overflow calls widen (if set) and ends the portfolio: its
// caller searches again with wider values.
func searchOrders(ctx context.Context, sys *scSystem, budget, maxBytes int64, widen func()) (automata.Result, automata.Stats) {
	var spent automata.Stats
	var r automata.Result
	for i, o := range combinedOrders {
		share := budget*o.quarters/4 - spent.States
		if i == len(combinedOrders)-1 {
			share = budget - spent.States
		}
		if share <= 0 {
			continue
		}
		d := ranked(sys, o.rank)
		d.overflow = widen
		r = automata.Search(d, automata.Options{
			Strategy: automata.EnterFirst,
			Budget:   automata.Budget{MaxStates: share, MaxBytes: maxBytes},
			Context:  ctx,
		})
		spent.Add(r.Stats)
		if r.Outcome != automata.Unknown || (widen != nil && sys.overflow) || ctx.Err() != nil || r.Limit == automata.MemoryLimit {
			break
		}
	}
	return r, spent
}
