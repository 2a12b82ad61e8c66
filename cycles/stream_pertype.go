package cycles

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"pgasrob/automata"
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
	cancels map[int64]context.CancelFunc
	done    []streamDone
	empties int64 // infeasible types not listed (beyond MaxListedTypes)
	passed  int64 // types the walk has gone past
}

type streamDone struct {
	ord int64
	tr  TypeResult
}

// streamPerType searches the representatives one by one as the walk
// reaches them, Jobs at a time, in the order of the walk: like run, but
// with no list. The walk stops at the first feasible type (without All;
// the searches of earlier types still end, so the reported violation is
// that of the first feasible type, as in run), when ctx ends, and, with
// MaxStates, when the searches together have visited MaxStates states:
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
	st := &streamState{live: map[int64]int64{}, cancels: map[int64]context.CancelFunc{}}
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
	next := make(chan streamedType)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for item := range next {
				st.mu.Lock()
				topt := opt
				topt.MaxStates = budgetLeft()
				typeCtx, cancel := context.WithCancel(ctx)
				st.cancels[item.ord] = cancel
				skip := st.found
				st.mu.Unlock()
				tr := TypeResult{Cycle: item.c, Outcome: automata.Unknown, Reason: skippedReason}
				switch {
				case skip:
				case ctx.Err() != nil:
					tr.Reason = notSearchedReason
				default:
					tr = sd.searchStreamed(typeCtx, cache, topt, item, st, report)
				}
				cancel()
				st.finish(item, tr, opt.All, res)
				st.mu.Lock()
				report()
				st.mu.Unlock()
			}
		}()
	}
	var reps int64
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
		if streamOwned(ord, opt.Shard) {
			next <- streamedType{ord, append(CycleType(nil), c...)}
		}
		return true
	}}
	exhausted := w.run()
	passed := w.pos // types the walk went past, skipped subtrees included
	close(next)
	wg.Wait()
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
	slot := false
	select {
	case <-sd.slots:
		slot = true
	case <-ctx.Done():
	}
	fw, extra := sd.frontierWorkers(0)
	opt.Workers = fw.Workers
	tr := searchType(sd.p, sd.y, item.c, cache, opt, ctx, sd.maxBytes/int64(sd.jobs), func(s automata.Stats) {
		st.mu.Lock()
		st.total += s.States - st.live[item.ord]
		st.live[item.ord] = s.States
		report()
		st.mu.Unlock()
	}, nil)
	sd.releaseSlots(extra)
	if slot {
		sd.slots <- struct{}{}
	}
	return tr
}

// finish records a finished search: a feasible type ends the searches of
// later types (without All).
func (st *streamState) finish(item streamedType, tr TypeResult, all bool, res *Result) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.cancels, item.ord)
	st.total += tr.Stats.States - st.live[item.ord]
	delete(st.live, item.ord)
	if tr.Outcome == automata.Unknown && st.found {
		tr.Checked, tr.Reason = false, skippedReason
	}
	if tr.Outcome == automata.NonEmpty && !all && !st.found {
		// The first violation found ends the decision, also the
		// searches of earlier types: a list of millions of types has no
		// first feasible type worth waiting for (run waits for it).
		st.found = true
		for _, c := range st.cancels {
			c()
		}
	}
	res.Stats.Add(tr.Stats)
	if tr.Outcome == automata.Empty && int64(len(st.done)) >= MaxListedTypes {
		st.empties++
		return
	}
	st.done = append(st.done, streamDone{item.ord, tr})
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
