package cycles

import (
	"context"
	"sync"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/pool"
)

// runPerType searches the listed cycle types one product each, Jobs at a
// time, in the order of the list (automata/pool). Without All, the
// reported violation is the one of the first feasible cycle type in that
// order, whatever the scheduling: a found violation only stops the
// searches of later types, earlier ones run to their end.
func (sd *typeSearch) runPerType(ctx context.Context, res *Result) (*Result, error) {
	p, n, y, opt, jobs, maxBytes := sd.p, sd.n, sd.y, sd.opt, sd.jobs, sd.maxBytes
	res.Procedure = "automata"
	types, rep := sd.listTypes()
	cache := sd.moveTable()
	var ymarks *ymarkSet
	if opt.Yardsticks {
		ymarks = newYmarkSet()
	}
	res.Types = make([]TypeResult, len(types))
	own := owned(types, rep, opt)
	var idx []int // the types to search: the representatives of this shard
	for i := range types {
		if rep[i] == i && own[i] {
			idx = append(idx, i)
		}
	}
	var mu sync.Mutex
	var done int
	// States so far, over finished and running searches: kept as a sum
	// updated by differences, since there may be a million cycle types.
	var total int64
	live := map[int]int64{}
	setLive := func(i int, states int64) {
		total += states - live[i]
		live[i] = states
	}
	report := func() {
		if opt.Progress != nil {
			opt.Progress(Progress{States: total, TypesDone: done, TypesTotal: len(types), Elapsed: time.Since(sd.start)})
		}
	}
	pl := &pool.Pool{Workers: jobs}
	pl.Run(ctx, len(idx), func(it pool.Item) bool {
		i := idx[it.Index]
		tr := TypeResult{Cycle: types[i]}
		switch {
		case it.Skip:
			tr.Outcome, tr.Reason = automata.Unknown, skippedReason
		case ctx.Err() != nil:
			// Stopped: the remaining types are not set up at all.
			tr.Outcome, tr.Reason = automata.Unknown, notSearchedReason
		default:
			// A search started when fewer types wait than jobs are free
			// gets the idle slots as frontier workers.
			spare := jobs - it.Running - 1 - (len(idx) - it.Taken)
			tr = sd.searchSlotted(it.Ctx, ctx, types[i], cache, opt, spare, maxBytes/int64(jobs), func(s automata.Stats) {
				mu.Lock()
				setLive(i, s.States)
				report()
				mu.Unlock()
			}, ymarks)
		}
		if tr.Outcome == automata.Unknown && ctx.Err() == nil && pl.Beaten(it.Index) {
			tr.Checked, tr.Reason = false, skippedReason
		}
		mu.Lock()
		setLive(i, tr.Stats.States)
		delete(live, i)
		done++
		res.Types[i] = tr
		report()
		mu.Unlock()
		return tr.Outcome == automata.NonEmpty && !opt.All
	})
	fillTypes(types, rep, own, res)

	res.CacheHits, res.CacheMiss = cache.stats()
	for _, tr := range res.Types {
		res.Stats.Add(tr.Stats)
	}
	if ymarks != nil && ctx.Err() == nil {
		res.Yardsticks = &Yardsticks{YMarks: ymarks.n.Load(), ReducedY: reducedY(ctx, p, y, cache, opt, maxBytes)}
		for _, tr := range res.Types {
			res.Yardsticks.ProductStates += tr.Stats.States
		}
	}
	if err := res.conclude(p, n, ctx, opt); err != nil {
		return nil, err
	}
	res.Elapsed = time.Since(sd.start)
	return res, nil
}

// searchSlotted searches type c with a slot of its own (the portfolio
// takes one away when the oracle joins, so that the two procedures do not
// fight over every core) and up to spare idle slots as frontier workers.
// The slot is waited for until the decision's context (decision) ends;
// the search itself runs under ctx.
func (sd *typeSearch) searchSlotted(ctx, decision context.Context, c CycleType, cache *moveTable, opt Options, spare int, maxBytes int64, progress func(automata.Stats), ymarks *ymarkSet) TypeResult {
	slot := sd.slots.Take(decision)
	fw, extra := sd.frontierWorkers(spare)
	opt.Workers = fw.Workers
	tr := searchType(sd.p, sd.y, c, cache, opt, ctx, maxBytes, progress, ymarks)
	sd.slots.Give(extra)
	if slot {
		sd.slots.Give(1)
	}
	return tr
}
