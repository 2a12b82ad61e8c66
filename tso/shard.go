package tso

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// ownedAttacks says which of the n attacks left to search this check
// searches. Attacks have no cost estimate better than one another (their
// searches all walk the same program, instrumented differently), so the
// split deals them out in turn: every shard gets as many, from the whole
// list.
func ownedAttacks(n int, sh shard.Shard) []bool {
	own := make([]bool, n)
	costs := make([]float64, n)
	for k := range costs {
		costs[k] = 1
	}
	part := shard.Assign(costs, max(sh.Count, 1))
	for k := range own {
		own[k] = sh.Whole() || part[k] == sh.Index-1
	}
	return own
}

// Part is one shard's result of a check as Merge needs it: its Index
// (from 1) and Result, or nil and why it is missing. Result.Attacks lists
// every attack in Attacks order; those marked OtherShard are not read.
// Result.Witness, if set, needs only Attack, Steps, StoreEvent and
// LastEvent: Merge replays it.
type Part struct {
	Index   int
	Result  *Result
	Missing string
}

// Merge combines the results of the count shards of one check of p under
// m into the result an unsharded Check with the same options gives: NOT
// ROBUST with the witness of the first feasible attack in order (its
// shard searched every attack before it, and recorded its witness, which
// is replayed and certified again here), UNKNOWN naming missing shards or
// shards that ran out of budget, ROBUST only when every attack is decided.
func Merge(p *prog.Program, m prog.Model, opt Options, count int, parts []Part) (*Result, error) {
	def, err := defOf(opt.Criterion)
	if err != nil {
		return nil, err
	}
	res, todo := newResult(p, m, opt)
	owner := make([]int, len(res.Attacks)) // index into parts, -1 for none
	for i := range owner {
		owner[i] = -1
	}
	var gaps []string
	for k, pt := range parts {
		r := pt.Result
		if r == nil {
			why := pt.Missing
			if why == "" {
				why = "missing"
			}
			gaps = append(gaps, fmt.Sprintf("shard %d/%d %s", pt.Index, count, why))
			continue
		}
		res.Elapsed = max(res.Elapsed, r.Elapsed)
		if len(r.Attacks) != len(res.Attacks) {
			return nil, fmt.Errorf("shard %d/%d lists %d attacks, want %d", pt.Index, count, len(r.Attacks), len(res.Attacks))
		}
		for _, i := range todo {
			ar := r.Attacks[i]
			switch {
			case ar.Outcome == OtherShard:
				continue
			case ar.Attack != res.Attacks[i].Attack:
				return nil, fmt.Errorf("shard %d/%d: attack %d is %s, want %s", pt.Index, count, i+1, ar.Attack.Format(p), res.Attacks[i].Attack.Format(p))
			case owner[i] >= 0:
				return nil, fmt.Errorf("attack %s is in more than one shard", ar.Attack.Format(p))
			case ar.Outcome == Undecided && ar.Reason != "":
				ar.Reason = fmt.Sprintf("shard %d/%d: %s", pt.Index, count, ar.Reason)
			}
			owner[i] = k
			res.Attacks[i] = AttackResult{Attack: ar.Attack, Outcome: ar.Outcome, Reason: ar.Reason, Stats: ar.Stats, Bits: ar.Bits}
		}
	}
	uncovered := ""
	if len(gaps) > 0 {
		uncovered = "not covered: " + strings.Join(gaps, "; ")
	}
	for _, i := range todo {
		if owner[i] < 0 {
			if uncovered == "" {
				return nil, fmt.Errorf("attack %s is in no shard, although every shard is present: the shards do not belong to one run", res.Attacks[i].Attack.Format(p))
			}
			res.Attacks[i].Outcome, res.Attacks[i].Reason = Undecided, uncovered
		}
	}
	first := res.conclude(p, todo, nil)
	if first < 0 {
		return res, nil
	}
	a := res.Attacks[first].Attack
	w := parts[owner[first]].Result.Witness
	if w == nil || w.Attack != a {
		res.WitnessErr = fmt.Errorf("shard %d/%d found attack %s feasible but recorded no witness for it", parts[owner[first]].Index, count, a.Format(p))
		return res, nil
	}
	res.Witness, res.WitnessErr = def.replay(p, m, w)
	return res, nil
}
