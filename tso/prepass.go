package tso

import (
	"context"
	"strings"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// The pre-pass before the combined first search (issue 35). P_* carries
// every attack's choice at once, so its state space grows faster than the
// sum of the per-attack ones: on the robust `private` family at N = 6 it
// is 11,589 states against 1,812 for all 36 attacks searched one by one,
// and a robust program has to exhaust it (or its budget) before the
// per-attack searches decide. So the combined search now gets a budget
// proportional to the per-attack work: every attack is first searched
// alone with a small state cap (Options.PrepassStates); the attacks that
// this settles stay settled, and only if some attack hit the cap before
// the first feasible one (in the order of the attacks) does the combined
// search run, on those attacks, with a budget of four times the states
// the pre-pass spent (at least 4,096, at most CombinedStates), before the
// per-attack searches of those attacks without the cap; in rounds of
// growing caps (prepassRounds, below). A probe runs before the first
// round (probe.go): it settles the attacks before the first one that
// costs more than a few states per transition and tries P_* there.
//
// The answer and the witness are those of the per-attack order: an
// attack settled in the pre-pass was searched to the end (its outcome is
// the uncapped one), and a feasible attack in the pre-pass is reported
// only when every attack before it is settled infeasible.

// DefaultPrepassStates is the per-attack cap of the pre-pass when
// Options.PrepassStates is zero.
var DefaultPrepassStates int64 = 512

// prepass searches todo's attacks with the cap and returns those that hit
// it before the first feasible one, and the states spent on them (their
// results are searched again and replaced).
func (res *Result) prepass(ctx context.Context, todo []int, own []bool, jobs int, opt Options, cap int64, search func(ctx context.Context, i int, opt *Options) AttackResult) ([]int, automata.Stats) {
	o := opt
	o.MaxStates = cap
	searchAttacks(ctx, res, todo, own, jobs, &o, func(ctx context.Context, i int) AttackResult { return search(ctx, i, &o) })
	var rest []int
	var spent automata.Stats
	for k, i := range todo {
		if !own[k] {
			continue
		}
		ar := &res.Attacks[i]
		if ar.Outcome == Feasible {
			break
		}
		if ar.Outcome == Undecided && ctx.Err() == nil && strings.HasPrefix(ar.Reason, "state budget") {
			rest = append(rest, i)
			spent.Add(ar.Stats)
			*ar = AttackResult{Attack: ar.Attack}
		}
	}
	return rest, spent
}

// prepassCap is the pre-pass's per-attack cap, or 0 when there is none:
// turned off, or not below the user's own state budget.
func prepassCap(m prog.Model, opt Options, todo int) int64 {
	cap := opt.PrepassStates
	if cap == 0 {
		cap = DefaultPrepassStates
	}
	if cap < 0 || !useCombined(m, opt, todo) || opt.MaxStates > 0 && opt.MaxStates <= cap {
		return 0
	}
	return cap
}

// prepassGrowth is the factor between the caps of successive pre-pass
// rounds, and maxPrepassCap the largest cap (prepassRounds).
const (
	prepassGrowth = 8
	maxPrepassCap = 1 << 18
)

// prepassRounds runs the pre-pass and the combined search in rounds of
// growing size: each round searches the attacks still open with the cap,
// then P_* on them with four times the states those capped searches
// spent (the first round's combined budget at most the combined
// search's own, later ones growing with the cap); a round that finds a
// certified goal, or leaves at most one attack open, ends it, and so
// does the largest cap. The attacks it leaves are searched without a
// cap afterwards, as before.
//
// Why rounds (issue 35 item 4): with one round, a program whose
// infeasible attacks never end (the idempotent LIFO queue whose owner
// loops: its tag grows without bound, so each of those attacks widens to
// 32 bits and searches 2^32 tags) got a combined search of four times
// 512 states per attack, too small to reach its goal with three or more
// thieves, and then hung in the first infeasible attack's search. The
// answer stays the one of the single pass: every round settles only
// attacks searched to their end, and a goal of P_* ends the check only
// with its witness replayed. A robust program all of whose attacks end
// within the first cap pays nothing more; one whose attacks need more
// pays the capped searches again, at most a constant factor (the caps
// grow geometrically) beside its uncapped searches, plus the combined
// searches, proportional to them.
//
// A round that leaves a feasible attack settled (its search ended within
// the cap, with a goal) ends the rounds with no attack left open: the
// verdict is NOT ROBUST whatever the open attacks before it would give,
// and its witness is that of the first feasible attack settled. (Before,
// the open attacks before it were searched to their end to report the
// first feasible one in attack order; the looping LIFO owner's never
// end.) The choice stays independent of the scheduling: capped searches
// end on their cap, not on time.
//
// It returns the attacks left open, the combined run that found a goal
// (found -1: none) and the states spent on capped and combined searches
// whose work was redone or in vain.
func (res *Result) prepassRounds(ctx context.Context, p *prog.Program, todo []int, own []bool, jobs int, opt Options, cap, maxBytes int64, search func(ctx context.Context, i int, opt *Options) AttackResult) ([]int, combinedRun, automata.Stats) {
	// The probe first (probe.go): it settles the cheap attacks and, at the
	// first dear one, gives P_* a small budget.
	todo, pre, spent := res.probeRound(ctx, p, todo, jobs, opt, probeCap(p, cap), maxBytes, search)
	if pre.found >= 0 || len(todo) <= 1 || ctx.Err() != nil {
		return todo, pre, spent
	}
	own = make([]bool, len(todo))
	for k := range own {
		own[k] = true
	}
	ceiling, share := combinedBudget(opt), int64(4)
	for {
		rest, round := res.prepass(ctx, todo, own, jobs, opt, cap, search)
		spent.Add(round)
		if len(rest) > 1 {
			o := opt
			o.CombinedStates = min(ceiling, max(1<<12, share*round.States))
			pre = res.combinedFirst(ctx, p, o, rest, maxBytes)
			if pre.found >= 0 {
				return rest, pre, spent
			}
			spent.Add(pre.spent)
			pre.spent = automata.Stats{}
		}
		if res.anyFeasible(todo) {
			// The verdict is sealed; the open attacks before the feasible
			// one would only choose another witness (they count as
			// skipped), and they may never end.
			return nil, pre, spent
		}
		if len(rest) <= 1 || cap >= maxPrepassCap || ctx.Err() != nil ||
			opt.MaxStates > 0 && cap*prepassGrowth >= opt.MaxStates {
			return rest, pre, spent
		}
		todo, own = rest, make([]bool, len(rest))
		for k := range own {
			own[k] = true
		}
		cap *= prepassGrowth
		share = 1
	}
}

// anyFeasible reports whether an attack of todo is settled feasible.
func (res *Result) anyFeasible(todo []int) bool {
	for _, i := range todo {
		if res.Attacks[i].Outcome == Feasible {
			return true
		}
	}
	return false
}
