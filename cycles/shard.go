package cycles

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/pgas"
)

// OtherShardReason is the Reason of the cycle types a sharded decision
// leaves to the other shards (Options.Shard). They do not make the shard's
// own verdict unknown: a shard's verdict is about its part only.
const OtherShardReason = "left to another shard"

// owned says which cycle types this decision searches: with a Shard, the
// orbit representatives are split by shard.Assign over their estimated
// costs, so every shard of a run computes the same split and together the
// shards cover every representative exactly once.
func owned(types []CycleType, rep []int, opt Options) []bool {
	own := make([]bool, len(types))
	if opt.Shard.Whole() {
		for i := range own {
			own[i] = true
		}
		return own
	}
	var reps []int
	for i := range types {
		if rep[i] == i {
			reps = append(reps, i)
		}
	}
	part := shard.Assign(typeCosts(types, reps, opt.Costs), opt.Shard.Count)
	for k, i := range reps {
		own[i] = part[k] == opt.Shard.Index-1
	}
	return own
}

// typeCosts estimates the work of each representative: the states an
// earlier run took when Costs has them, and otherwise the mean of the
// known ones (1 when none is known). Cycle length is no guide: on the
// examples at N = 5 the mean states per type differ by less than 2x
// between lengths, and not in one direction (docs/cluster.md).
func typeCosts(types []CycleType, reps []int, known map[string]int64) []float64 {
	costs := make([]float64, len(reps))
	var sum float64
	var count int
	for k, i := range reps {
		if c, ok := known[types[i].String()]; ok && c > 0 {
			costs[k] = float64(c)
			sum += float64(c)
			count++
		}
	}
	mean := 1.0
	if count > 0 {
		mean = sum / float64(count)
	}
	for k := range costs {
		if costs[k] == 0 {
			costs[k] = mean
		}
	}
	return costs
}

// Part is the result of one shard of a decision as Merge needs it: the
// shard's Index (from 1) and its Result, or nil and the reason it is
// missing (say "missing" or "stopped before N = 5"). Result.Types must list every cycle type in the order of the
// decision; only those the shard searched itself (not left to another
// shard, not copied by symmetry) are read.
type Part struct {
	Index   int
	Result  *Result
	Missing string
}

// Merge combines the results of the Count shards of one decision of p for
// n ranks into the result an unsharded Decide with the same options
// would give: NOT ROBUST with the witness of the first feasible cycle type
// in order (each shard searched all its types before its own first
// feasible one, so no earlier type can be feasible), a run-time error if
// any shard met one, UNKNOWN naming missing or stopped shards, ROBUST only
// when every cycle type is covered. Every witness is certified again
// against the plain semantics: a shard's file is not trusted.
func Merge(p *pgas.Program, n int, opt Options, count int, parts []Part) (*Result, error) {
	opt = opt.relation(p)
	pl := makePlan(opt, n)
	res := &Result{N: n, Note: pl.note}
	var missing []string
	for _, pt := range parts {
		if pt.Result == nil {
			why := pt.Missing
			if why == "" {
				why = "missing"
			}
			missing = append(missing, fmt.Sprintf("shard %d/%d %s", pt.Index, count, why))
			continue
		}
		r := pt.Result
		res.Stats.Add(r.Stats)
		res.CacheHits += r.CacheHits
		res.CacheMiss += r.CacheMiss
		res.Elapsed = max(res.Elapsed, r.Elapsed)
		if r.RunError != nil && res.RunError == nil {
			res.RunError = r.RunError
		}
	}
	if res.RunError != nil {
		res.Verdict = RunError
		return res, nil
	}
	if opt.Only == nil && TypeCount(n) > listLimit {
		return mergeStreamed(p, n, opt, count, parts, res, missing)
	}
	types, rep := listTypes(p, n, opt)
	res.Types = make([]TypeResult, len(types))
	var stopped []string
	for _, pt := range parts {
		r := pt.Result
		if r == nil {
			continue
		}
		if len(r.Types) == 0 {
			// Stopped before its cycle types (in the run-time error check).
			stopped = append(stopped, fmt.Sprintf("shard %d/%d: %s", pt.Index, count, r.Reason))
			continue
		}
		if len(r.Types) != len(types) {
			return nil, fmt.Errorf("shard %d/%d lists %d cycle types, want %d", pt.Index, count, len(r.Types), len(types))
		}
		for i, tr := range r.Types {
			if tr.SymmetricTo != nil || tr.Reason == OtherShardReason {
				continue
			}
			switch {
			case tr.Cycle.String() != types[i].String():
				return nil, fmt.Errorf("shard %d/%d: cycle type %d is %v, want %v", pt.Index, count, i+1, tr.Cycle, types[i])
			case rep[i] != i:
				return nil, fmt.Errorf("shard %d/%d searched %v, which symmetry maps onto %v", pt.Index, count, tr.Cycle, types[rep[i]])
			case res.Types[i].Cycle != nil:
				return nil, fmt.Errorf("cycle type %v is in more than one shard", tr.Cycle)
			}
			if tr.Outcome == automata.Unknown && tr.Reason != skippedReason {
				// Name the shard that ran out of its budget.
				tr.Reason = fmt.Sprintf("shard %d/%d: %s", pt.Index, count, tr.Reason)
			}
			res.Types[i] = tr
		}
	}
	uncovered := ""
	if gaps := append(missing, stopped...); len(gaps) > 0 {
		uncovered = "not covered: " + strings.Join(gaps, "; ")
	}
	for i := range types {
		if rep[i] != i || res.Types[i].Cycle != nil {
			continue
		}
		if uncovered == "" {
			return nil, fmt.Errorf("cycle type %v is in no shard, although every shard is present: the shards do not belong to one run", types[i])
		}
		res.Types[i] = TypeResult{Cycle: types[i], Outcome: automata.Unknown, Reason: uncovered}
	}
	for i := range types {
		if r := rep[i]; r != i {
			src := res.Types[r]
			res.Types[i] = TypeResult{Cycle: types[i], Outcome: src.Outcome, Reason: src.Reason, Checked: src.Checked, SymmetricTo: types[r]}
		}
	}
	if err := res.conclude(p, n, nil, opt); err != nil {
		return nil, err
	}
	if res.Verdict == Unknown && uncovered != "" {
		res.Reason = uncovered
	}
	return res, nil
}
