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
// So the combined search is a portfolio of three legs within its one
// budget of states (searchOrders, below): the goal-directed order with
// widening values first, with a quarter of it (every near-violation
// program of issue 27 up to N = 10 is found within it); the goal-directed
// order with small values that goes on past overflows (for counters that
// grow without bound); the attack-first order with what is left. All
// search the same graph with the same reductions, or the part of it whose
// values fit (only the order of successors differs; directed.go argues
// why no goal is lost), so a goal any leg finds is a goal of P_*, turned
// into a witness and replayed as before; an exhausted graph ends the
// portfolio. A robust program whose P_* the first leg exhausts within its
// quarter costs what it cost before; a larger one still pays at most the
// budget (DefaultCombinedStates, Options.CombinedStates).

// attackFirstRank ranks the moves that extend the happens-before chain
// highest (2), the starts of attacks next (1), every other move last.
func attackFirstRank(op prog.Op, r role) uint8 {
	if r == rAttStart {
		return 1
	}
	return 2 * moveRank(op, r)
}

// searchOrders searches P_* (newSys(bits), starting at bits) within
// budget states in all, in three legs:
//
//  1. the goal-directed order, within a quarter of the budget, ending
//     at the first value that does not fit and starting again with
//     values twice as wide (up to 32 bits; not with fixed widths). A
//     value that does not fit may hide the goal, and the search that
//     goes on without the moves that overflow can be far longer than
//     the one with wider values (checkAttack widens only after a
//     complete search, which is exact but for P_* may never come
//     within the budget);
//  2. if leg 1 met an overflow: the goal-directed order again with the
//     first width, going on without the moves that overflow, within
//     half of the budget (with leg 1). This is for counters that grow
//     without bound (the tag of an idempotent queue's anchor in an
//     owner that loops): leg 1 then widens up to 32 bits and dives
//     along the counter, while the goal needs small values only;
//  3. the attack-first order with the first width, going on without
//     the moves that overflow, with the rest of the budget.
//
// A search that goes on without the moves that overflow searches a part
// of P_*'s runs (those whose values fit), so a goal it finds is a goal of
// P_*, replayed like any other. Each leg searches up to thread symmetry
// unless noSym (symmetry.go), and a goal's path is unfolded into one of
// the system itself. It returns the system and width of the
// last search, its result (a goal's path is one of that system) and the
// work of all legs.
func searchOrders(ctx context.Context, newSys func(bits int) *scSystem, bits int, fixed, noSym bool, budget, maxBytes int64) (*scSystem, int, automata.Result, automata.Stats) {
	var spent automata.Stats
	leg := func(sys *scSystem, rank func(prog.Op, role) uint8, limit int64, widen bool) automata.Result {
		if limit <= spent.States {
			return automata.Result{Outcome: automata.Unknown, Reason: "out of budget"}
		}
		d := ranked(sys, rank)
		lctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if widen {
			// The search polls its context only now and then; directed.go
			// also stops emitting successors once the flag is set.
			d.overflow = cancel
		}
		searched, sym := withSymmetry(d, sys, noSym)
		r := automata.Search(searched, automata.Options{
			Strategy: automata.EnterFirst,
			Budget:   automata.Budget{MaxStates: limit - spent.States, MaxBytes: maxBytes},
			Context:  lctx,
		})
		spent.Add(r.Stats)
		if sym != nil && r.Outcome == automata.NonEmpty {
			var ok bool
			if r.Path, ok = sym.unfold(r.Path); !ok {
				// Counted like a goal whose witness fails: the later legs
				// and the per-attack searches decide.
				combinedAnomalies.Add(1)
				r = automata.Result{Outcome: automata.Unknown, Reason: unfoldFailed, Stats: r.Stats}
			}
		}
		return r
	}
	done := func(r automata.Result) bool {
		return r.Outcome == automata.NonEmpty || ctx.Err() != nil || r.Limit == automata.MemoryLimit ||
			spent.States >= budget
	}
	first, overflowed := bits, false
	var sys *scSystem
	var r automata.Result
	for {
		sys = newSys(bits)
		r = leg(sys, moveRank, budget/4, bits < 32)
		overflowed = overflowed || sys.overflow
		if done(r) || !sys.overflow || bits >= 32 || fixed || spent.States >= budget/4 {
			break
		}
		bits *= 2
	}
	if done(r) {
		return sys, bits, r, spent
	}
	if overflowed {
		sys, bits = newSys(first), first
		r = leg(sys, moveRank, budget/2, false)
		if done(r) || r.Outcome == automata.Empty {
			// Empty: every run whose values fit searched; the attack-first
			// order would search the same graph again.
			return sys, bits, r, spent
		}
	} else if r.Outcome == automata.Empty {
		return sys, bits, r, spent // P_* searched to its end
	}
	sys, bits = newSys(first), first
	r = leg(sys, attackFirstRank, budget, false)
	return sys, bits, r, spent
}
