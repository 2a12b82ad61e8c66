package tso

import (
	"context"
	"strings"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// The probe before the pre-pass rounds (issue 35 items 4 and 5).
//
// The pre-pass (prepass.go) searches every attack alone with a cap of 512
// states before P_* runs. That keeps P_* away from robust programs whose
// attacks are cheap (`private` N = 6: 36 attacks of about 50 states each,
// 1,812 in all, against 13,401 for P_*), but where each attack costs a
// few hundred states and the feasible ones come late in attack order, it
// pays every infeasible attack before P_*, which would have found the goal
// at once: the Chase-Lev queue with one thief, 41 attacks of 470 to 700
// states each, pays 11,880 states where P_* alone takes 115 (the reference
// tool 150). No one cap tells the two apart: 16 meets the queues and
// costs `private` 3.6 times its states, 64 keeps `private` and leaves the
// queues at 12 to 18 times the reference's (docs/measurements.md).
//
// What tells them apart is the cost of one attack against the size of
// the program: `private`'s attacks need under 2 states per transition of
// the program (50 for 30 transitions), the queues' 8 to 24 (Chase-Lev:
// 471 for 58). So the probe searches the attacks in order, each with a
// cap of probeFactor states per transition, and stops at the first one
// the cap stops (or that it settles feasible). If none is stopped, every
// attack is settled and P_* never runs: such a program pays exactly its
// per-attack searches. Otherwise P_* runs on the attacks from the stopped
// one on, with a budget of four times the probe's states (at least
// probeCombined, at most the combined search's own), and if it finds no
// goal the pre-pass rounds go on with those attacks as before. The probe
// wastes at most one capped search (4 states per transition, less than
// the attack it stopped costs) and one combined search of 4,096 states
// or four times the probe's. Why 4,096: the combined search splits its
// budget (a quarter to each stage with frozen twins, stages.go, and a
// quarter of that to the goal-directed leg, order.go), and with 2,048
// the idempotent FIFO queue with 2 or 3 thieves finds no goal within it
// (18,700 states in all instead of 880 and 930); with 1,024 neither do
// the Chase-Lev and LIFO queues with 2 or 3 thieves (22,000 to 25,000).
// More is not better: 128 states per transition decides the FIFO queue
// with 4 puts sooner but sends Peterson's filter lock, N = 12, from 2,572
// states to 66,060 (a longer first leg dives the wrong way).
//
// Exactness is the pre-pass's: an attack the probe settles was searched
// to its end, a goal of P_* ends the check only with its witness
// replayed, and every other attack is searched again afterwards. The
// attacks after the stopped one are searched again even if a parallel
// worker finished them, so what the probe settles does not depend on the
// scheduling.

// probeFactor is the probe's cap per transition of the program, and
// probeCombined the least budget of the combined search after it (see
// above for both figures; variables for the tests).
var (
	probeFactor   int64 = 4
	probeCombined int64 = 1 << 12
)

// probeCap is the probe's per-attack cap: probeFactor states per
// transition of p, at most the pre-pass's cap.
func probeCap(p *prog.Program, cap int64) int64 {
	n := int64(0)
	for _, th := range p.Threads {
		n += int64(len(th.Trans))
	}
	return min(max(probeFactor*n, 1), cap)
}

// capped reports whether a search was stopped by its state cap (and by
// nothing else).
func capped(ctx context.Context, ar *AttackResult) bool {
	return ar.Outcome == Undecided && ctx.Err() == nil && strings.HasPrefix(ar.Reason, "state budget")
}

// probe searches todo's attacks in order with the cap until the first one
// the cap stops or that is feasible. It returns the attacks from the
// stopped one on (none if there is none or a feasible attack came
// first), reset to be searched again, and the states spent on the probe:
// all of its searches (used) and the capped one's (wasted).
func (res *Result) probe(ctx context.Context, todo []int, jobs int, opt Options, cap int64, search func(ctx context.Context, i int, opt *Options) AttackResult) (open []int, used, wasted automata.Stats) {
	o := opt
	o.MaxStates = cap
	own := make([]bool, len(todo))
	for k := range own {
		own[k] = true
	}
	searchUntil(ctx, res, todo, own, jobs, &o, func(ctx context.Context, i int) AttackResult { return search(ctx, i, &o) },
		func(ar *AttackResult) bool { return ar.Outcome == Feasible || capped(ctx, ar) })
	for k, i := range todo {
		ar := &res.Attacks[i]
		used.Add(ar.Stats)
		switch {
		case ar.Outcome == Feasible:
			open = nil
		case capped(ctx, ar):
			wasted.Add(ar.Stats)
			open = todo[k:]
		default:
			continue
		}
		for _, j := range todo[k+1:] {
			res.Attacks[j] = AttackResult{Attack: res.Attacks[j].Attack}
		}
		if open != nil {
			*ar = AttackResult{Attack: ar.Attack}
		}
		return open, used, wasted
	}
	return nil, used, wasted
}

// probeRound runs the probe and, if it leaves attacks open, the combined
// search on them. It returns the attacks left open (nil: the probe
// settled them all, or one of them feasible), the combined run and the
// states wasted.
func (res *Result) probeRound(ctx context.Context, p *prog.Program, todo []int, jobs int, opt Options, cap, maxBytes int64, search func(ctx context.Context, i int, opt *Options) AttackResult) ([]int, combinedRun, automata.Stats) {
	pre := combinedRun{found: -1}
	open, used, wasted := res.probe(ctx, todo, jobs, opt, cap, search)
	if len(open) <= 1 || ctx.Err() != nil {
		return open, pre, wasted
	}
	o := opt
	o.CombinedStates = min(combinedBudget(opt), max(probeCombined, 4*used.States))
	pre = res.combinedFirst(ctx, p, o, open, maxBytes)
	if pre.found < 0 {
		wasted.Add(pre.spent)
		pre.spent = automata.Stats{}
	}
	return open, pre, wasted
}
