package automata

import (
	"fmt"
	"time"

	"github.com/dgraph-io/ristretto/v2"
)

// Searching beyond the memory budget: state-space caching (Options.
// CacheOverflow). The exact visited set (store) gets three quarters of
// MaxBytes. When it would pass them, it is frozen: no state is added to
// it any more, and every state it holds is either expanded or still
// pending (the breadth-first arena after the cursor, the depth-first
// stack), so "in the store" keeps meaning "explored, or will be". The
// search then goes on depth-first from each pending state, and from the
// successors the store could not take (spilled), keeping:
//
//   - every state on the current depth-first path (with its successors
//     still to try): a state on the path is never entered again, so the
//     search terminates;
//   - the states whose depth-first exploration is finished, in a bounded
//     cache (github.com/dgraph-io/ristretto/v2, cost = the state's bytes,
//     an eighth of MaxBytes) whose admission keeps the states hit often.
//
// A successor in the store, on the path or in the cache is not entered;
// any other is, and an evicted state is explored again when it is met
// again. That is complete for reachability: a state is skipped only if
// it is explored, being explored or to be explored (every state it
// reaches is then reached from it), so every reachable state is visited
// before the search ends; the path and the store are exact sets, and a
// cache hit is checked against the stored copy of the state, so no hash
// collision can skip a state. What it costs is time: a state may be
// explored many times, each time its cache entry was evicted. The
// budgets of time, states (each visit counts) and the context still
// apply; so does MaxBytes, for the path (a path that outgrows what is
// left ends the search with Unknown).

// overflowShare is the part of MaxBytes the store may take when the
// overflow is on; cacheShare the cache's.
const (
	overflowShare = 4 // the store stops at 3/4
	cacheShare    = 8 // the cache's cost: 1/8
	pressureFloor = 8 // under Pressure, the store stops at 1/8 of 3/4 or later
)

// ovFrame is a state on the depth-first path and its successors.
type ovFrame struct {
	s    State
	h    uint64
	succ []State
	next int
}

// ovRoot is where the overflow search starts: a pending state of the
// store (idx) or a spilled successor of one (parent, s).
type ovRoot struct {
	idx    int // the store's index, or -1 for a spilled state
	parent uint32
	s      State
}

type overflow struct {
	sys      System
	opt      *Options
	st       *store
	cache    *ristretto.Cache[uint64, State]
	path     []ovFrame
	onPath   map[uint64][]int32
	pathB    int64
	cacheB   int64
	maxBytes int64
	visits   int64
	trans    int64
	deadline time.Time
	accepted int
	peak     int64   // the most held()
	found    []State // the path to the accepting state found
	stop     string
	fresh    bool // the current root is a spilled state, not the store's
	pathFull bool // the path outgrew what the budget leaves it
}

func newOverflow(sys System, opt *Options, st *store, maxBytes int64, deadline time.Time) (*overflow, error) {
	ov := &overflow{sys: sys, opt: opt, st: st, onPath: map[uint64][]int32{}, maxBytes: maxBytes, deadline: deadline}
	ov.cacheB = maxBytes / cacheShare
	if opt.Pressure.On() {
		// Frozen by the process's memory, not by this search's share:
		// what the share still promises is not there. The cache takes a
		// third of what the visited set holds (at least a third of the
		// visited set's floor, Search's pressed), and the path is charged
		// against the rest of the share as usual.
		floor := (maxBytes - maxBytes/overflowShare) / pressureFloor
		ov.cacheB = min(ov.cacheB, max(1<<20, max(st.bytes(), floor)/3))
	}
	items := ov.cacheB / (ov.cost() + cacheEntryOverhead)
	c, err := ristretto.NewCache(&ristretto.Config[uint64, State]{
		NumCounters: min(max(10*items, 1000), 1<<24),
		MaxCost:     ov.cacheB,
		BufferItems: 64,
	})
	ov.cache = c
	return ov, err
}

// cacheEntryOverhead is what a cache entry costs beyond the state and
// the item ristretto itself adds (its own itemSize): the map's slot and
// the admission policy's record of the key's cost, and the counters
// (NumCounters, ten per item).
const cacheEntryOverhead = 96

// cost is the memory of a state held by the path: its words and its
// slice header.
func (ov *overflow) cost() int64 { return int64(8*ov.st.width + 24) }

// held is the memory of the overflow search beside the frozen store.
func (ov *overflow) held() int64 { return ov.st.bytes() + ov.cacheB + ov.pathB }

// prefix is the store's path to idx, as states.
func (ov *overflow) prefix(idx int) []State {
	if idx < 0 || uint32(idx) == noParent {
		return nil
	}
	return statePath(ov.st, idx)
}

// searchOverflow goes on beyond the frozen store st: from the spilled
// successors, then from the states still pending (the depth-first stack
// from its top, or the breadth-first arena from index expanded on). It
// returns the search and the reason it stopped ("" when it ran out of
// states or found an accepting one).
func searchOverflow(sys System, opt *Options, st *store, maxBytes int64, deadline time.Time, spill []ovRoot, stack []uint32, expanded int) (*overflow, string) {
	ov, err := newOverflow(sys, opt, st, maxBytes, deadline)
	if err != nil {
		return nil, fmt.Sprintf("memory budget of %d MiB reached (no state cache: %v)", maxBytes>>20, err)
	}
	ov.peak = ov.held()
	roots := spill
	if stack != nil {
		for i := len(stack) - 1; i >= 0; i-- {
			roots = append(roots, ovRoot{idx: int(stack[i])})
		}
	} else {
		for i := expanded; i < st.len(); i++ {
			roots = append(roots, ovRoot{idx: i})
		}
	}
	ov.run(roots)
	if ov.stop == acceptStop {
		return ov, acceptStop
	}
	return ov, ov.stop
}

// run searches from each root in turn until an accepting state is found
// (without OnAccept), OnAccept asks to stop, or a budget ends it.
func (ov *overflow) run(roots []ovRoot) {
	defer ov.cache.Close()
	for _, r := range roots {
		if ov.found != nil || ov.stop != "" {
			return
		}
		if r.idx >= 0 {
			ov.dfs(r.idx, copyState(ov.st.state(r.idx)), false)
			continue
		}
		if ov.skip(r.s, hash(r.s)) {
			continue
		}
		ov.dfs(int(r.parent), r.s, true)
	}
}

func copyState(s State) State { return append(State(nil), s...) }

// skip reports whether t is in the store, on the path or in the cache.
func (ov *overflow) skip(t State, h uint64) bool {
	if ov.st.contains(t) {
		return true
	}
	for _, i := range ov.onPath[h] {
		if Equal(ov.path[i].s, t) {
			return true
		}
	}
	v, ok := ov.cache.Get(h)
	return ok && Equal(v, t)
}

// dfs explores from s; base is the store index s hangs from (s itself
// when fresh is false: a pending state of the store, already checked for
// acceptance when it was stored).
func (ov *overflow) dfs(base int, s State, fresh bool) {
	ov.fresh = fresh
	if fresh && ov.visit(base, s) {
		return
	}
	ov.push(s, hash(s))
	for len(ov.path) > 0 && ov.found == nil && ov.stop == "" {
		top := &ov.path[len(ov.path)-1]
		if top.next == len(top.succ) {
			ov.pop()
			continue
		}
		t := top.succ[top.next]
		top.succ[top.next] = nil // tried: the path keeps only the pending ones
		top.next++
		ov.pathB -= ov.cost()
		h := hash(t)
		if ov.skip(t, h) {
			continue
		}
		if ov.visit(base, t) {
			break
		}
		ov.push(t, h)
	}
	for len(ov.path) > 0 {
		ov.pop()
	}
}

// visit counts a newly entered state, checks the budgets and acceptance;
// it reports whether the search must end.
func (ov *overflow) visit(base int, t State) bool {
	ov.visits++
	if ov.opt.MaxStates > 0 && int64(ov.st.len())+ov.visits > ov.opt.MaxStates {
		ov.stop = fmt.Sprintf("state budget of %d states reached", ov.opt.MaxStates)
		return true
	}
	if ov.visits&255 == 0 {
		switch ctx := ov.opt.Context; {
		case ctx != nil && ctx.Err() != nil:
			ov.stop = StopReason(ctx)
			return true
		case !ov.deadline.IsZero() && time.Now().After(ov.deadline):
			ov.stop = fmt.Sprintf("time budget of %v reached", ov.opt.Timeout)
			return true
		}
	}
	if ov.opt.Progress != nil && ov.visits%ov.every() == 0 {
		ov.opt.Progress(Stats{States: int64(ov.st.len()) + ov.visits, Transitions: ov.trans, Bytes: ov.held()})
	}
	if !ov.sys.Accepting(t) {
		return false
	}
	// The store's path to base, then the depth-first path (whose first
	// state is base itself when the root is a pending state of the
	// store), then t.
	path := ov.prefix(base)
	frames := ov.path
	if !ov.fresh && len(frames) > 0 {
		frames = frames[1:]
	}
	for _, f := range frames {
		path = append(path, copyState(f.s))
	}
	path = append(path, copyState(t))
	if ov.opt.OnAccept == nil {
		ov.found = path
		return true
	}
	ov.accepted++
	if ov.opt.OnAccept(path) {
		ov.stop = acceptStop
		return true
	}
	return false
}

func (ov *overflow) every() int64 {
	if ov.opt.ProgressEvery > 0 {
		return ov.opt.ProgressEvery
	}
	return 1 << 16
}

// push enters s: its successors are computed once and kept with it,
// but those in the frozen store, which skip would pass over whenever
// they came up (the store no longer changes).
func (ov *overflow) push(s State, h uint64) {
	f := ovFrame{s: s, h: h}
	ov.sys.Successors(s, func(_ Label, t State) {
		ov.trans++
		if !ov.st.contains(t) {
			f.succ = append(f.succ, copyState(t))
		}
	})
	ov.onPath[h] = append(ov.onPath[h], int32(len(ov.path)))
	ov.path = append(ov.path, f)
	ov.pathB += int64(len(f.succ)+1) * ov.cost()
	ov.peak = max(ov.peak, ov.held())
	if ov.held() > ov.maxBytes {
		ov.pathFull = true
		ov.stop = fmt.Sprintf("memory budget of %d MiB reached (the depth-first path beyond the state cache)", ov.maxBytes>>20)
	}
}

// pop leaves the top state, finished: it goes into the cache.
func (ov *overflow) pop() {
	k := len(ov.path) - 1
	f := ov.path[k]
	if l := ov.onPath[f.h]; len(l) == 1 {
		delete(ov.onPath, f.h)
	} else {
		ov.onPath[f.h] = l[:len(l)-1]
	}
	ov.pathB -= int64(len(f.succ)-f.next+1) * ov.cost()
	ov.path = ov.path[:k]
	if f.next == len(f.succ) && ov.stop == "" && ov.found == nil {
		ov.cache.Set(f.h, f.s, ov.cost()+cacheEntryOverhead)
	}
}

// labelPath gives a path of states the labels of its transitions, asking
// the system once more which transition leads from each state to the
// next (rebuild, for a path that is not the store's).
func labelPath(sys System, states []State) []Step {
	path := make([]Step, len(states))
	for k, s := range states {
		path[k] = Step{State: s}
		if k == 0 {
			continue
		}
		ok := false
		sys.Successors(states[k-1], func(l Label, t State) {
			if !ok && Equal(t, s) {
				path[k].Label, ok = l, true
			}
		})
		if !ok {
			panic("automata: system is not deterministic in its successors: a recorded transition disappeared")
		}
	}
	return path
}
