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
// per-attack searches of those attacks without the cap.
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
