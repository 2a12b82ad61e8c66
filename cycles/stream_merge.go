package cycles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// TypeRank is the position of the canonical cycle type c in the order of
// CycleTypes(n), from 0, computed without the list.
func TypeRank(c CycleType, n int) int64 { return typeRank(c, n) }

// mergeStreamed is Merge for streamed decisions (Result.Partial): the
// shards dealt the representatives out in turn (streamOwned) and list
// only what they searched, so coverage is judged per shard, not per type:
// a shard that is ROBUST walked every type and found each of its own
// infeasible. The merged result is NOT ROBUST if any shard has a witness
// (certified again here), ROBUST if every shard is present and ROBUST,
// and UNKNOWN otherwise, naming the shards missing or stopped. The
// witness is the one of the first listed feasible type, which, as each
// shard stopped at its first violation found, need not be the first
// feasible type overall.
func mergeStreamed(p *pgas.Program, n int, opt Options, count int, parts []Part, res *Result, missing []string) (*Result, error) {
	res.Partial = true
	res.Counts.Total = TypeCount(n)
	gaps := missing
	for _, pt := range parts {
		r := pt.Result
		if r == nil {
			continue
		}
		if !r.Partial {
			if len(r.Types) == 0 && r.Verdict == Unknown {
				// Stopped in the run-time error check.
				gaps = append(gaps, fmt.Sprintf("shard %d/%d: %s", pt.Index, count, r.Reason))
				continue
			}
			return nil, fmt.Errorf("shard %d/%d did not stream its cycle types, as N = %d needs", pt.Index, count, n)
		}
		for _, tr := range r.Types {
			if !canonicalType(tr.Cycle, n) {
				return nil, fmt.Errorf("shard %d/%d lists the cycle type %v, not one of N = %d", pt.Index, count, tr.Cycle, n)
			}
			res.Types = append(res.Types, tr)
		}
		c := r.Counts
		res.Counts.Searched += c.Searched
		res.Counts.Feasible += c.Feasible
		res.Counts.Infeasible += c.Infeasible
		res.Counts.Unknown += c.Unknown
		// Every shard walks the same types: the images it passed over
		// are those of every shard's representatives up to where it
		// stopped.
		res.Counts.BySymmetry = max(res.Counts.BySymmetry, c.BySymmetry)
		if r.Verdict == Unknown {
			gaps = append(gaps, fmt.Sprintf("shard %d/%d: %s", pt.Index, count, r.Reason))
		}
	}
	slices.SortStableFunc(res.Types, func(a, b TypeResult) int {
		return int(min(max(typeRank(a.Cycle, n)-typeRank(b.Cycle, n), -1), 1))
	})
	for i := 1; i < len(res.Types); i++ {
		if res.Types[i].Cycle.String() == res.Types[i-1].Cycle.String() {
			return nil, fmt.Errorf("cycle type %v is in more than one shard", res.Types[i].Cycle)
		}
	}
	res.Counts.Skipped = max(0, res.Counts.Total-res.Counts.Searched-res.Counts.BySymmetry)
	if err := res.conclude(p, n, nil, opt); err != nil {
		return nil, err
	}
	if res.Verdict == Robust && len(gaps) > 0 {
		res.Verdict = Unknown
	}
	if res.Verdict == Unknown && len(gaps) > 0 {
		res.Reason = "not covered: " + strings.Join(gaps, "; ")
	}
	return res, nil
}

// canonicalType reports whether c is a cycle type over ranks 1..n in
// canonical form (distinct ranks, the smallest first).
func canonicalType(c CycleType, n int) bool {
	seen := map[int]bool{}
	for _, r := range c {
		if r < c[0] || r > n || seen[r] {
			return false
		}
		seen[r] = true
	}
	return len(c) > 0 && c[0] >= 1
}
