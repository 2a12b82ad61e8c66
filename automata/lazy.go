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

func searchEnterFirst(sys System, opt Options) Result {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	maxBytes := opt.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	var deadline time.Time
	if opt.Timeout > 0 {
		deadline = time.Now().Add(opt.Timeout)
	}
	start := time.Now()
	st := newStoreFor(sys)
	w := st.width
	var arena []uint64 // successors not yet entered, frame by frame
	var stack []frame
	held := func() int64 { return st.bytes() + int64(cap(arena))*8 + int64(cap(stack))*24 }
	res := Result{}
	found, stop := -1, ""
	cur := make(State, w)
	// enter stores s, a successor of parent, if it is new and, unless it
	// is accepting, pushes it with its successors.
	enter := func(s State, parent uint32) {
		if len(s) != w {
			panic(fmt.Sprintf("automata: system emitted a state of %d words, want %d", len(s), w))
		}
		if g := st.growthBytes(); g > 0 && held()+g > maxBytes {
			stop, res.Limit = fmt.Sprintf("memory budget of %d MiB reached", maxBytes>>20), MemoryLimit
			return
		}
		if st.full() {
			stop, res.Limit = "the table of states shared between searches is full", MemoryLimit
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
		if sys.Accepting(s) {
			found = idx
			return
		}
		first := len(arena)
		copy(cur, s)
		sys.Successors(cur, func(_ Label, t State) {
			res.Stats.Transitions++
			arena = append(arena, t...)
		})
		stack = append(stack, frame{idx: uint32(idx), start: first, next: len(arena)})
	}
	var inits []State
	sys.Initial(func(s State) { inits = append(inits, append(State(nil), s...)) })
	next := make(State, w)
	for _, s := range inits {
		if enter(s, noParent); found >= 0 || stop != "" {
			break
		}
		for found < 0 && stop == "" && len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == top.start {
				arena = arena[:top.start]
				stack = stack[:len(stack)-1]
				continue
			}
			top.next -= w
			copy(next, arena[top.next:top.next+w])
			enter(next, top.idx)
			n := int64(st.len())
			switch {
			case found >= 0:
			case opt.MaxStates > 0 && n >= opt.MaxStates:
				stop = fmt.Sprintf("state budget of %d states reached", opt.MaxStates)
			case n >= maxStates:
				stop = "more states than the visited set can index"
			case n&1023 == 0 && held() > maxBytes:
				stop, res.Limit = fmt.Sprintf("memory budget of %d MiB reached", maxBytes>>20), MemoryLimit
			case n&255 == 0 && ctx.Err() != nil:
				stop = StopReason(ctx)
			case n&255 == 0 && !deadline.IsZero() && time.Now().After(deadline):
				stop = fmt.Sprintf("time budget of %v reached", opt.Timeout)
			}
		}
		if found >= 0 || stop != "" {
			break
		}
	}
	res.Stats = Stats{States: int64(st.len()), Transitions: res.Stats.Transitions, Bytes: held(), Elapsed: time.Since(start)}
	switch {
	case found >= 0:
		res.Outcome = NonEmpty
		res.Path = shortest(sys, st)
	case stop != "":
		res.Outcome, res.Reason = Unknown, stop
	default:
		res.Outcome = Empty
	}
	return res
}
