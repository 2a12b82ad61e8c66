package cycles

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/pool"
)

// streamed is one representative handed to a search: its ordinal among
// the representatives, and the type.
type streamedType struct {
	ord int64
	c   CycleType
}

// streamState is the bookkeeping of streamPerType, under mu.
type streamState struct {
	mu      sync.Mutex
	found   bool  // without All: a feasible type was found
	total   int64 // states of finished and running searches
	live    map[int64]int64
	done    []streamDone
	empties int64 // infeasible types not listed (beyond MaxListedTypes)
	passed  int64 // types the walk has gone past
}

type streamDone struct {
	ord int64
	tr  TypeResult
}

// streamPerType searches the representatives one by one as the walk
// reaches them, Jobs at a time, in the order of the walk: like
// runPerType, but with no list. The walk stops at the first feasible type
// found (without All; unlike runPerType, the searches of earlier types
// are stopped too: the reported violation is the first found, not the
// first in order), when ctx ends, and, with MaxStates, when the searches
// together have visited MaxStates states:
// with a stream of millions of types, a per-type bound would never end
// the decision, so here it bounds the decision (each search gets what is
// left of it). Memory: the searches running, the infeasible types listed
// up to MaxListedTypes, and the feasible and unknown ones.
func (sd *typeSearch) streamPerType(ctx context.Context, res *Result, g *symGroup) (*Result, error) {
	opt, jobs := sd.opt, sd.jobs
	// Depth-first without All (plan.go): it stops at the first violation
	// of a type instead of after every shorter computation, and costs the
	// same on an infeasible type.
	opt.DepthFirst = sd.plan.depthFirst
	cache := sd.moveTable()
	st := &streamState{live: map[int64]int64{}}
	report := func() {
		if opt.Progress != nil {
			// Done: the types the walk has gone past (the searches of
			// the last few may still run), of all of them.
			opt.Progress(Progress{States: st.total, TypesDone: int(st.passed), TypesTotal: int(res.Counts.Total), Elapsed: time.Since(sd.start)})
		}
	}
	budgetLeft := func() int64 { // under mu; 0: no bound
		if opt.MaxStates <= 0 {
			return 0
		}
		return max(1, opt.MaxStates-st.total)
	}
	pl := &pool.Pool{Workers: jobs, AnyWins: true}
	var reps int64
	var exhausted bool
	var passed int64 // types the walk went past, skipped subtrees included
	pool.Feed(ctx, pl, func(put func(streamedType) bool) {
		w := &typeWalk{n: sd.n, keep: g.keepPrefix, visit: func(c CycleType, pos int64) bool {
			st.mu.Lock()
			st.passed = pos
			stop := ctx.Err() != nil || st.found || (opt.MaxStates > 0 && st.total >= opt.MaxStates)
			st.mu.Unlock()
			if stop {
				return false
			}
			if !g.isRep(c) {
				return true
			}
			ord := reps
			reps++
			return !streamOwned(ord, opt.Shard) || put(streamedType{ord, append(CycleType(nil), c...)})
		}}
		exhausted = w.run()
		passed = w.pos
	}, func(it pool.Item, item streamedType) bool {
		st.mu.Lock()
		topt := opt
		topt.MaxStates = budgetLeft()
		skip := it.Skip || st.found
		st.mu.Unlock()
		tr := TypeResult{Cycle: item.c, Outcome: automata.Unknown, Reason: skippedReason}
		switch {
		case skip:
		case ctx.Err() != nil:
			tr.Reason = notSearchedReason
		default:
			tr = sd.searchStreamed(it.Ctx, cache, topt, item, st, report)
		}
		win := st.finish(item, tr, opt.All, res)
		st.mu.Lock()
		report()
		st.mu.Unlock()
		return win
	})
	st.fill(res, passed, reps)
	res.CacheHits, res.CacheMiss = cache.stats()
	if err := res.conclude(sd.p, sd.n, ctx, opt); err != nil {
		return nil, err
	}
	if res.Verdict == Robust && !exhausted {
		// Stopped by the states bound with every search so far empty.
		res.Verdict = Unknown
		res.Reason = fmt.Sprintf("state budget of %d states reached after %d of %d cycle types", opt.MaxStates, passed, res.Counts.Total)
	}
	res.Elapsed = time.Since(sd.start)
	return res, nil
}

// searchStreamed searches one type, keeping the running states total.
func (sd *typeSearch) searchStreamed(ctx context.Context, cache *moveTable, opt Options, item streamedType, st *streamState, report func()) TypeResult {
	return sd.searchSlotted(ctx, ctx, item.c, cache, opt, 0, sd.maxBytes/int64(sd.jobs), func(s automata.Stats) {
		st.mu.Lock()
		st.total += s.States - st.live[item.ord]
		st.live[item.ord] = s.States
		report()
		st.mu.Unlock()
	}, nil)
}

// finish records a finished search; it reports whether the type is the
// first feasible one found (without All), which ends the decision.
func (st *streamState) finish(item streamedType, tr TypeResult, all bool, res *Result) (first bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.total += tr.Stats.States - st.live[item.ord]
	delete(st.live, item.ord)
	if tr.Outcome == automata.Unknown && st.found {
		tr.Checked, tr.Reason = false, skippedReason
	}
	if tr.Outcome == automata.NonEmpty && !all && !st.found {
		// The first violation found ends the decision, also the
		// searches of earlier types: a list of millions of types has no
		// first feasible type worth waiting for (runPerType waits for
		// it). The pool cancels the other searches (AnyWins).
		st.found, first = true, true
	}
	res.Stats.Add(tr.Stats)
	if tr.Outcome == automata.Empty && int64(len(st.done)) >= MaxListedTypes {
		st.empties++
		return first
	}
	st.done = append(st.done, streamDone{item.ord, tr})
	return first
}

// fill lists the searched types in order and counts them all: passed
// types were reached by the walk, reps of them representatives.
func (st *streamState) fill(res *Result, passed, reps int64) {
	slices.SortFunc(st.done, func(a, b streamDone) int { return int(min(max(a.ord-b.ord, -1), 1)) })
	c := &res.Counts
	c.Infeasible = st.empties
	for _, d := range st.done {
		if !d.tr.Checked && st.found {
			continue // skipped: counted below
		}
		res.Types = append(res.Types, d.tr)
		switch {
		case !d.tr.Checked:
		case d.tr.Outcome == automata.Empty:
			c.Infeasible++
		case d.tr.Outcome == automata.NonEmpty:
			c.Feasible++
		default:
			c.Unknown++
		}
	}
	c.Searched = c.Feasible + c.Infeasible + c.Unknown
	c.BySymmetry = passed - reps
	c.Skipped = c.Total - c.Searched - c.BySymmetry
}
