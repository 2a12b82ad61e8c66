package automata

import (
	"context"
	"fmt"
	"time"
)

// EnterFirst is a depth-first search that enters one successor at a time
// (issue 27): a state's successors are computed once, kept on the search
// stack beside it, and each is looked up in the visited set only when the
// search comes to it, so a state is stored (and counted) only once it is
// entered. DepthFirst stores every successor of every expanded state at
// once; when a goal lies a few moves away in a program with many threads,
// most of what it stores are siblings it never needs. EnterFirst stores
// the states of the path it walks and of the branches it abandoned, which
// is also how the reference TSO tool counts its visited states.
//
// The order is DepthFirst's: of a state's successors, the one emitted
// last is entered first. Both visit every
// reachable state when no state is accepting, so they agree on Empty; the
// witness is shortened the same way (shortest, over the stored states).
// The stack holds the successors not yet entered of each state on the
// current path, which the memory budget counts.
const EnterFirst Strategy = 2

// frame is a state on the depth-first path (idx in the visited set) with
// the successors it has not entered yet: arena[start:next], one
// width-word state each, entered from next backwards.
type frame struct {
	idx         uint32
	start, next int
}

// enterSearch is the state of one EnterFirst search.
type enterSearch struct {
	sys      System
	opt      Options
	ctx      context.Context
	maxBytes int64
	deadline time.Time
	st       *store
	arena    []uint64 // successors not yet entered, frame by frame
	stack    []frame
	cur      State
	res      Result
	found    int
	stop     string
}

func (e *enterSearch) held() int64 {
	return e.st.bytes() + int64(cap(e.arena))*8 + int64(cap(e.stack))*24
}

func (e *enterSearch) memoryStop() {
	e.stop, e.res.Limit = fmt.Sprintf("memory budget of %d MiB reached", e.maxBytes>>20), MemoryLimit
}

// enter stores s, a successor of parent, if it is new and, unless it is
// accepting, pushes it with its successors.
func (e *enterSearch) enter(s State, parent uint32) {
	st := e.st
	if len(s) != st.width {
		panic(fmt.Sprintf("automata: system emitted a state of %d words, want %d", len(s), st.width))
	}
	if g := st.growthBytes(); g > 0 && e.held()+g > e.maxBytes {
		e.memoryStop()
		return
	}
	if st.full() {
		e.stop, e.res.Limit = "the table of states shared between searches is full", MemoryLimit
		return
	}
	var h uint64
	if st.parts == nil {
		h = hash(s) // a collapsed store hashes the key it makes
	}
	idx, fresh := st.insertHashed(s, h, parent)
	if !fresh {
		return
	}
	if e.sys.Accepting(s) {
		e.found = idx
		return
	}
	first := len(e.arena)
	copy(e.cur, s)
	e.sys.Successors(e.cur, func(_ Label, t State) {
		e.res.Stats.Transitions++
		e.arena = append(e.arena, t...)
	})
	e.stack = append(e.stack, frame{idx: uint32(idx), start: first, next: len(e.arena)})
}

// budgets sets stop when a budget has run out with work left.
func (e *enterSearch) budgets() {
	n := int64(e.st.len())
	switch {
	case e.found >= 0 || len(e.stack) == 0:
	case e.opt.MaxStates > 0 && n >= e.opt.MaxStates:
		e.stop = fmt.Sprintf("state budget of %d states reached", e.opt.MaxStates)
	case n >= maxStates:
		e.stop = "more states than the visited set can index"
	case n&1023 == 0 && e.held() > e.maxBytes:
		e.memoryStop()
	case n&255 == 0 && e.ctx.Err() != nil:
		e.stop = StopReason(e.ctx)
	case n&255 == 0 && !e.deadline.IsZero() && time.Now().After(e.deadline):
		e.stop = fmt.Sprintf("time budget of %v reached", e.opt.Timeout)
	}
}

func searchEnterFirst(sys System, opt Options) Result {
	e := &enterSearch{sys: sys, opt: opt, ctx: opt.Context, maxBytes: opt.MaxBytes, found: -1}
	if e.ctx == nil {
		e.ctx = context.Background()
	}
	if e.maxBytes == 0 {
		e.maxBytes = DefaultMaxBytes
	}
	if opt.Timeout > 0 {
		e.deadline = time.Now().Add(opt.Timeout)
	}
	start := time.Now()
	e.st = newStoreFor(sys)
	w := e.st.width
	e.cur = make(State, w)
	var inits []State
	sys.Initial(func(s State) { inits = append(inits, append(State(nil), s...)) })
	next := make(State, w)
	for _, s := range inits {
		if e.enter(s, noParent); e.found >= 0 || e.stop != "" {
			break
		}
		for e.found < 0 && e.stop == "" && len(e.stack) > 0 {
			top := &e.stack[len(e.stack)-1]
			if top.next == top.start {
				e.arena = e.arena[:top.start]
				e.stack = e.stack[:len(e.stack)-1]
				continue
			}
			top.next -= w
			copy(next, e.arena[top.next:top.next+w])
			e.enter(next, top.idx)
			e.budgets()
		}
		if e.found >= 0 || e.stop != "" {
			break
		}
	}
	res := e.res
	res.Stats = Stats{States: int64(e.st.len()), Transitions: res.Stats.Transitions, Bytes: e.held(), Elapsed: time.Since(start)}
	switch {
	case e.found >= 0:
		res.Outcome = NonEmpty
		over := func(extra int64) bool {
			return e.ctx.Err() != nil || !e.deadline.IsZero() && time.Now().After(e.deadline) || e.held()+extra > e.maxBytes
		}
		res.Path, res.PathWithheld = depthFirstPath(sys, e.st, e.found, over, e.held(), e.maxBytes)
	case e.stop != "":
		res.Outcome, res.Reason = Unknown, e.stop
	default:
		res.Outcome = Empty
	}
	return res
}
