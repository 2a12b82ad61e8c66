package cycles

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
)

// errTables is the cause given to the search's context when the shared
// exploration's own tables outgrow their share of the memory budget.
var errTables = errors.New("memory budget reached")

// runShared decides the cycle types by one shared exploration. The
// outcome of each type is the one its own search would give: a type is
// NonEmpty as soon as one of its elements accepts (the witness is the
// path there, explained by the type's own product and certified by
// conclude), Empty when the exploration ends without that. Without All,
// a feasible type makes every later type irrelevant (the decision reports
// the first feasible type in order, as the per-type search does): they
// are dropped, and the exploration ends once every earlier type is
// settled or the state space is exhausted.
func (sd *typeSearch) runShared(ctx context.Context, res *Result) (*Result, error) {
	res.Procedure = "automata"
	types, rep := sd.listTypes()
	return sd.sharedOver(ctx, res, types, rep)
}

// sharedOver is runShared over the given cycle types (all of them, or
// with Result.Partial the representatives) and their representatives.
func (sd *typeSearch) sharedOver(ctx context.Context, res *Result, types []CycleType, rep []int) (*Result, error) {
	p, n, opt := sd.p, sd.n, sd.opt
	cache := sd.moveTable()
	own := owned(types, rep, opt)
	res.Types = make([]TypeResult, len(types))
	var idx []int // idx[k]: the index in types of the k-th searched type
	var searched []CycleType
	for i := range types {
		if rep[i] == i && own[i] {
			idx = append(idx, i)
			searched = append(searched, types[i])
		}
	}
	if len(searched) > 0 && ctx.Err() == nil {
		if err := sd.exploreShared(ctx, cache, types, idx, searched, res); err != nil {
			return nil, err
		}
	}
	fillTypes(types, rep, own, res)
	res.CacheHits, res.CacheMiss = cache.stats()
	if err := res.conclude(p, n, ctx, opt); err != nil {
		return nil, err
	}
	res.Elapsed = time.Since(sd.start)
	return res, nil
}

// doneTypes are the types no longer wanted (after a feasible one, without
// All), as far as the goroutines of a shared exploration know.
type doneTypes struct {
	flags []atomic.Bool
	gen   atomic.Int64
}

func (d *doneTypes) set(k int) {
	if !d.flags[k].Swap(true) {
		d.gen.Add(1)
	}
}

// sharedRun is the bookkeeping of one shared exploration: the shared
// search and, with two or more jobs, a helper that runs the per-type
// search on the same types in order. Each type's outcome is the first
// exact one either finds; the helper answers a program whose violation
// has a short cycle type as fast as the per-type search does (the
// shared search reaches the violation only at the pace of every type
// together), and the shared search answers the rest.
type sharedRun struct {
	sd       *typeSearch
	searched []CycleType
	idx      []int // idx[k]: the index in types of searched[k]
	res      *Result
	others   *doneTypes
	mu       sync.Mutex
	settled  []bool
	byShared []bool // settled by the shared search, not by the helper
	bound    int    // without All: searched types after bound are not wanted
	finished context.CancelFunc
	failure  error  // an internal error met by the shared search
	turns    *turns // the shared search and a helper without a slot take turns
	// helperStates is the states of the helper's searches so far.
	helperStates atomic.Int64
	// helperReady is closed once the helper holds a slot or the turn, or
	// has nothing to do.
	helperReady chan struct{}
}

// settle records the outcome of searched type k unless it has one; it
// stops the exploration once every wanted type is settled.
func (sr *sharedRun) settle(k int, tr TypeResult, byShared bool) {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	if sr.settled[k] || k > sr.bound {
		return
	}
	sr.settled[k], sr.byShared[k] = true, byShared
	sr.res.Types[sr.idx[k]] = tr
	if tr.Outcome == automata.NonEmpty && !sr.sd.opt.All {
		for j := k + 1; j < sr.bound; j++ {
			sr.others.set(j)
		}
		sr.bound = k
	}
	for j := 0; j <= min(sr.bound, len(sr.searched)-1); j++ {
		if !sr.settled[j] {
			return
		}
	}
	sr.finished()
}

// wanted reports whether type k still needs an outcome.
func (sr *sharedRun) wanted(k int) bool {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	return !sr.settled[k] && k <= sr.bound
}

func (sd *typeSearch) exploreShared(ctx context.Context, cache *moveTable, types []CycleType, idx []int, searched []CycleType, res *Result) error {
	sr := &sharedRun{sd: sd, searched: searched, idx: idx, res: res, settled: make([]bool, len(searched)),
		byShared: make([]bool, len(searched)), bound: len(searched) - 1, others: &doneTypes{flags: make([]atomic.Bool, len(searched))}}
	if sd.opt.All {
		sr.bound = len(searched)
	}
	parent := ctx
	ctx, sr.finished = context.WithCancel(ctx)
	defer sr.finished()
	var rd *reducer
	if !sd.opt.NoReduction {
		rd = newReducer(sd.p, sd.y.Future().Words)
	}
	sys := newSharedCtx(ctx, sd.y, searched, cache.moves, rd)
	if sys == nil {
		// Stopped while setting up: every type is left UNKNOWN.
		for k, i := range idx {
			res.Types[i] = TypeResult{Cycle: searched[k], Outcome: automata.Unknown, Reason: budgetReason(ctx, sd.opt, automata.StopReason(ctx)), Checked: true}
		}
		return nil
	}
	sys.others = sr.others
	sys.stop = ctx
	// The helper gets a quarter of the memory, the shared search the
	// rest: its visited set and its tables share it by need (the search
	// stops when together they pass it; a fixed eighth for the tables,
	// as before, would stop the ring at N = 7, whose tables outgrow it).
	// The memo tables, which are caches, are emptied when they reach a
	// quarter of it, the table of Y states at a sixteenth.
	helperBytes := sd.maxBytes / 4
	if sd.opt.noHelper {
		helperBytes = 0
	}
	shareBytes := sd.maxBytes - helperBytes
	sys.setMemoCap(int(max(1<<16, shareBytes/4/24)))
	sys.yCap = max(1<<20, shareBytes/16)
	// The shared search holds one slot throughout (slots.go).
	if sd.slots.Take(ctx) {
		defer sd.slots.Give(1)
	}
	// The helper runs beside it on another slot or, when there is none,
	// by turns (shared_helper.go).
	sr.turns = &turns{}
	sd.shared.Store(sr.turns) // kept after the search: its turn is free then
	sd.sharedIsUp()
	var wg sync.WaitGroup
	if !sd.opt.noHelper {
		wg.Add(1)
		ready := make(chan struct{})
		sr.helperReady = ready
		go func() {
			defer wg.Done()
			sr.helper(ctx, cache, helperBytes)
		}()
		// The helper goes first when it runs by turns: the shared search
		// may not reach its first progress call, where it hands the turn
		// over, for seconds (at N = 8 its first states carry thousands of
		// types), while the helper settles a short violating type in a
		// fraction of that.
		<-ready
	}
	// The slots still free are the shared search's frontier workers
	// (shared_fork.go); each fork has a table of Y states of its own.
	wopt, extra := sd.frontierWorkers(sd.jobs)
	defer sd.slots.Give(extra)
	if w := wopt.Workers; w > 1 {
		sys.yCap = max(1<<18, sys.yCap/int64(w))
	}
	sr.turns.acquire()
	r, stopCause := sr.search(ctx, sys, shareBytes, len(types), wopt.Workers)
	sr.turns.release(false)
	// Once ctx has ended, Successors gives up on states (sys.stop), so an
	// exhausted search no longer proves the remaining types infeasible.
	if r.Outcome != automata.Unknown && ctx.Err() == nil {
		// Exhausted: every type not settled yet is infeasible.
		for k := range searched {
			sr.settle(k, TypeResult{Cycle: searched[k], Outcome: automata.Empty, Checked: true}, true)
		}
	}
	// The helper ends with the shared search: past a budget of the
	// shared search, the decision is UNKNOWN for the types not settled.
	sr.finished()
	wg.Wait()
	if sr.failure != nil {
		return sr.failure
	}
	sr.canonical(parent, cache)
	reason := r.Reason
	switch {
	case r.Limit == automata.MemoryLimit || errors.Is(stopCause, errTables):
		reason = memoryReason(sd.opt)
	case r.Outcome != automata.Unknown && ctx.Err() != nil:
		// Ended by ctx, with the frontier drained by the states given up
		// (sys.stop) before the search saw it: ctx says why.
		reason = automata.StopReason(ctx)
	}
	for k, i := range idx {
		switch {
		case sr.settled[k]:
			res.Stats.Add(res.Types[i].Stats) // the helper's, or the canonical witness's
		case k > sr.bound:
			res.Types[i] = TypeResult{Cycle: searched[k], Outcome: automata.Unknown, Reason: skippedReason}
		default:
			res.Types[i] = TypeResult{Cycle: searched[k], Outcome: automata.Unknown, Reason: reason, Checked: true}
		}
	}
	r.Stats.Bytes += sys.tableBytes()
	res.Stats.Add(r.Stats)
	return nil
}

// search runs the shared search, settling types as it finds them
// feasible. It returns the search's result and the cause of its stop.
func (sr *sharedRun) search(ctx context.Context, sys *sharedSystem, shareBytes int64, total, workers int) (automata.Result, error) {
	opt := sr.sd.opt
	searchCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	onAccept := func(path []automata.State) bool {
		last := path[len(path)-1]
		for k := sys.acceptingType(last, 0); k >= 0; k = sys.acceptingType(last, k+1) {
			sys.settled[k] = true
			if !sr.wanted(k) {
				continue
			}
			w, err := explainShared(sys, k, path)
			if err != nil {
				sr.failure = fmt.Errorf("%w: cycle type %v: %v", ErrInternal, sr.searched[k], err)
				return true
			}
			sr.settle(k, TypeResult{Cycle: sr.searched[k], Outcome: automata.NonEmpty, Witness: w, Checked: true}, true)
		}
		return ctx.Err() != nil
	}
	start := time.Now()
	yCap := sys.yCap
	progress := func(s automata.Stats) {
		// The table of Y states is a cache: under memory pressure it
		// keeps to a memo's pressed size (product_memo.go).
		sys.yCap = yCap
		if opt.Pressure.On() {
			sys.yCap = min(yCap, pressedMemo)
		}
		// With the state cache the visited set no longer ends the
		// search, so neither do the tables beside it: they are caches
		// bounded by their caps (a quarter of shareBytes for the memos,
		// a sixteenth for the table of Y states, 1 MiB under pressure),
		// and the process's memory is watched by the pressure signal
		// and the guard. (loop-put-bar at N = 4 under --max-memory 650
		// stopped here 512 states after its cache started: 122 MB of
		// visited set and cache plus 63 MB of tables, of 182 MB; leaving
		// the tables their caps out of the visited set's share instead
		// froze it so early that at 1600 it went from ROBUST in 95 cpu-s
		// to UNKNOWN by time after 36 M states.)
		if !opt.StateCache && s.Bytes+sys.tableBytes() > shareBytes {
			cancel(fmt.Errorf("%w (the shared exploration's tables)", errTables))
		}
		sr.turns.yield(false)
		if opt.Progress != nil {
			opt.Progress(Progress{States: s.States + sr.helperStates.Load(), TypesDone: sr.done(), TypesTotal: total, Elapsed: time.Since(start)})
		}
	}
	r := automata.Search(sys, automata.Options{
		Budget:        automata.Budget{MaxStates: opt.MaxStates, MaxBytes: shareBytes},
		Context:       searchCtx,
		Progress:      progress,
		ProgressEvery: 1 << 8, // also the pace of the tables' budget check and of the turns
		OnAccept:      onAccept,
		Workers:       workers,
		CacheOverflow: opt.StateCache,
		Pressure:      opt.Pressure,
	})
	return r, context.Cause(searchCtx)
}

// done counts the settled types.
func (sr *sharedRun) done() int {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	n := 0
	for _, x := range sr.settled {
		if x {
			n++
		}
	}
	return n
}

// canonical gives the reported feasible types the witness of their own
// search, so that the output does not depend on whether the shared
// search or the helper settled a type first (docs/cli.md promises the
// same witness whatever the scheduling): each one found by the shared
// search is searched again alone, which stops at its first accepting
// state. If that search runs out of a budget, the shared search's
// witness, explained and certified like any other, stays.
func (sr *sharedRun) canonical(ctx context.Context, cache *moveTable) {
	sd := sr.sd
	for k, i := range sr.idx {
		tr := &sr.res.Types[i]
		if !sr.byShared[k] || tr.Outcome != automata.NonEmpty || (!sd.opt.All && k != sr.bound) || ctx.Err() != nil {
			continue
		}
		opt, extra := sd.frontierWorkers(sd.jobs)
		own := searchType(sd.p, sd.y, sr.searched[k], cache, opt, ctx, sd.maxBytes, nil, nil)
		sd.slots.Give(extra)
		if own.Outcome == automata.NonEmpty {
			*tr = own
		}
	}
}

// explainShared turns the path of shared states to an accepting state of
// type k into the marked letters of the type's own product, which make
// its witness: each step is the transition of that product (without the
// partial-order reduction, so every move is there to be found) between
// the type's states the two shared states stand for.
func explainShared(sys *sharedSystem, k int, path []automata.State) (*Witness, error) {
	prod := newProduct(sys.y, sys.types[k], sys.moves)
	var sigma []Letter
	prev := sys.typedState(path[0], k)
	if prev == nil {
		return nil, fmt.Errorf("the initial state does not carry the cycle type")
	}
	for j := 1; j < len(path); j++ {
		next := sys.typedState(path[j], k)
		if next == nil {
			return nil, fmt.Errorf("step %d of the path does not carry the cycle type", j)
		}
		var mv *normalform.Move
		var marks []normalform.Mark
		prod.each(prev, func(m *normalform.Move, mk []normalform.Mark, t automata.State) {
			if mv == nil && automata.Equal(t, next) {
				mv, marks = m, append([]normalform.Mark(nil), mk...)
			}
		})
		if mv == nil {
			return nil, fmt.Errorf("step %d of the path is no transition of the cycle type's product", j)
		}
		for i, he := range mv.Events {
			sigma = append(sigma, Letter{Head: he.Head, Event: he.Event, Mark: marks[i]})
		}
		prev = next
	}
	if !prod.Accepting(prev) {
		return nil, fmt.Errorf("the path ends in a state the cycle type's product does not accept")
	}
	return NewWitness(sys.types[k], sigma), nil
}
