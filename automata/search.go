package automata

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// A Label names a transition for witnesses. Its meaning belongs to the
// System; the search never stores labels (it recomputes them for the one
// path it reports), so they cost nothing per visited state.
type Label uint64

// A System is an automaton explored on the fly.
type System interface {
	// Width is the number of words in every State of the system.
	Width() int
	// Initial emits the initial states.
	Initial(emit func(State))
	// Successors emits every transition leaving s. The emitted State may be
	// a buffer the System reuses; the search copies what it keeps. s must
	// not be modified.
	Successors(s State, emit func(Label, State))
	// Accepting reports whether s is accepting.
	Accepting(s State) bool
}

// Budget bounds a search. Zero fields mean "no bound" except MaxBytes,
// where zero means DefaultMaxBytes.
type Budget struct {
	MaxStates int64
	MaxBytes  int64
	Timeout   time.Duration
}

// DefaultMaxBytes keeps a single search well below the machine's memory so
// that it ends in Unknown rather than in the kernel's OOM killer.
var DefaultMaxBytes int64 = 4 << 30

// Stats describe the work a search did.
type Stats struct {
	States      int64         // distinct states visited
	Transitions int64         // transitions followed
	Bytes       int64         // memory held by the visited set
	Elapsed     time.Duration // wall time
	// Beyond is the part of States visited beyond the frozen visited set
	// (Options.CacheOverflow; Result.Beyond), re-explorations included.
	Beyond int64
}

// StatesPerSecond is States/Elapsed, zero for an instant search.
func (s Stats) StatesPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.States) / s.Elapsed.Seconds()
}

// BytesPerState is Bytes/States.
func (s Stats) BytesPerState() float64 {
	if s.States == 0 {
		return 0
	}
	return float64(s.Bytes) / float64(s.States)
}

// Add accumulates o into s (elapsed times add up as CPU time).
func (s *Stats) Add(o Stats) {
	s.States += o.States
	s.Transitions += o.Transitions
	s.Bytes += o.Bytes
	s.Elapsed += o.Elapsed
	s.Beyond += o.Beyond
}

// Outcome is the answer of an emptiness search.
type Outcome int

const (
	// Empty: no accepting state is reachable (the language is empty).
	Empty Outcome = iota
	// NonEmpty: an accepting state is reachable; Result.Path leads to it.
	NonEmpty
	// Unknown: a budget ran out or the search was cancelled first.
	Unknown
)

func (o Outcome) String() string {
	switch o {
	case Empty:
		return "empty"
	case NonEmpty:
		return "non-empty"
	}
	return "unknown"
}

// A Step of a witness path: the label of the transition taken (zero for the
// first step, which is an initial state) and the state reached.
type Step struct {
	Label Label
	State State
}

// Result is what Search returns.
type Result struct {
	Outcome Outcome
	Reason  string // why the outcome is Unknown
	// Limit is MemoryLimit when the visited set outgrew Budget.MaxBytes,
	// so that a caller that split its user's budget between searches can
	// name the user's number instead of this search's share.
	Limit Limit
	Stats Stats
	Path  []Step // for NonEmpty: initial state first, accepting state last
	// PathWithheld, for NonEmpty without Path, says why: a depth-first
	// path too long to shorten and to copy within the memory budget.
	PathWithheld string
	// Beyond counts the states visited after the visited set was frozen
	// (Options.CacheOverflow), each visit once, re-explorations included;
	// Stats.States counts them too.
	Beyond int64
}

// Limit says which budget ended a search, where the caller needs to know.
type Limit int

const (
	OtherLimit Limit = iota
	MemoryLimit
)

// Strategy is the order in which Search expands states. Both visit the
// same states when the language is empty; they differ in how soon they
// reach an accepting state and in the witness they return first.
type Strategy int

const (
	// BreadthFirst expands states in the order they were found: the
	// witness is a shortest path, found after every shorter prefix.
	BreadthFirst Strategy = iota
	// DepthFirst expands the state found last first: a violation at the
	// end of a long run is reached without walking every level before it.
	// Its witness is then shortened by a breadth-first search restricted
	// to the states already visited (no new state is explored), so it is
	// a shortest path through those.
	DepthFirst
)

// Options configure Search.
type Options struct {
	Strategy Strategy
	Budget
	// Context cancels the search; nil means context.Background().
	Context context.Context
	// Progress, if set, is called about every ProgressEvery states visited.
	Progress      func(Stats)
	ProgressEvery int64
	// OnAccept, if set, lets the search go on past accepting states
	// (shared.go): each one found is handed over with the path of states
	// leading to it, and the search stops when OnAccept returns true.
	OnAccept func(path []State) (stop bool)
	// Workers, above 1, is the number of goroutines that compute
	// successors for a BreadthFirst search of a System that implements
	// Forker (parallel.go); the result is the one of the sequential
	// search, state for state. DepthFirst searches, and systems that
	// cannot fork, are searched sequentially whatever Workers says.
	Workers int
	// CacheOverflow: when the visited set would pass three quarters of
	// MaxBytes, the search goes on depth-first with the states on its
	// path kept and the others in a bounded cache, explored again when
	// evicted (overflow.go), instead of ending with Unknown. The answer
	// stays exact; the time it takes may grow. EnterFirst searches
	// ignore it.
	CacheOverflow bool
	// Pressure, with CacheOverflow, freezes the visited set when it is
	// on (pressure.go) and the set holds an eighth of its share of
	// MaxBytes, before the share is reached: the process's memory, not
	// this search's count, is what runs out.
	Pressure *Pressure
}

// Search decides emptiness of sys by a graph search in the order
// opt.Strategy says. Breadth-first, the witness path it returns is a
// shortest one. Depth-first, it is the shortest path through the states
// the search happened to visit (see shortest), which a path outside them
// may beat. With OnAccept, every path handed over is the one of the
// parent links (shared.go).
func Search(sys System, opt Options) Result {
	if opt.Strategy == EnterFirst {
		return searchEnterFirst(sys, opt)
	}
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
	every := opt.ProgressEvery
	if every <= 0 {
		every = 1 << 16
	}
	start := time.Now()
	st := newStoreFor(sys)
	// The parallel frontier starts once the search has expanded
	// ParallelAfter states (parallel.go).
	var pl *pipeline
	forker, _ := sys.(Forker)
	if opt.Workers <= 1 || opt.Strategy != BreadthFirst {
		forker = nil
	}
	defer func() {
		if pl != nil {
			pl.stop() // also when a Successors panic goes through
		}
	}()
	// held is the memory of the search: the visited set and the batches
	// of the parallel frontier.
	held := func() int64 {
		if pl != nil {
			return st.bytes() + pl.held
		}
		return st.bytes()
	}
	res := Result{}
	// With CacheOverflow the store stops at storeMax and the search goes
	// on beyond it (overflow.go): the successors it could not take are
	// spilled, and overflowing ends the exact search.
	storeMax := maxBytes
	if opt.CacheOverflow {
		storeMax = maxBytes - maxBytes/overflowShare
	}
	overflowing := false
	// pressed: the process's memory is short (Options.Pressure) and the
	// visited set holds its floor, an eighth of storeMax. The signal is a
	// level that a frozen search keeps up, so a search started under it
	// still gets a visited set of its own up to the floor, not none.
	pressed := func() bool { return opt.Pressure.On() && held() >= storeMax/pressureFloor }
	var spill []ovRoot
	stats := func() Stats {
		return Stats{States: int64(st.len()), Transitions: res.Stats.Transitions, Bytes: held(), Elapsed: time.Since(start)}
	}
	found := -1
	stop := ""
	accepted := 0 // accepting states handed to OnAccept
	// The frontier: for breadth-first search, the states of the arena after
	// the cursor; for depth-first search, a stack of state indices.
	var stack []uint32
	if opt.Strategy == DepthFirst {
		stack = make([]uint32, 0, 64)
	}
	// checkBudgets is also called while one state's successors are
	// expanded: a state may have thousands of them, each costly.
	checkBudgets := func() {
		switch {
		case ctx.Err() != nil:
			stop = StopReason(ctx)
		case !deadline.IsZero() && time.Now().After(deadline):
			stop = fmt.Sprintf("time budget of %v reached", opt.Timeout)
		case opt.CacheOverflow && (held() > storeMax || pressed()):
			overflowing = true
		case held() > maxBytes:
			stop, res.Limit = fmt.Sprintf("memory budget of %d MiB reached", maxBytes>>20), MemoryLimit
		}
	}
	// add inserts a successor; h is its hash when a worker computed it,
	// else 0 (then computed here).
	add := func(s State, h uint64, parent uint32) {
		if found >= 0 || stop != "" {
			return
		}
		if len(s) != st.width {
			panic(fmt.Sprintf("automata: system emitted a state of %d words, want %d", len(s), st.width))
		}
		if opt.CacheOverflow && !overflowing {
			if g := st.growthBytes(); g > 0 && held()+g > storeMax || st.full() || pressed() {
				overflowing = true
			}
		}
		if overflowing {
			spill = append(spill, ovRoot{idx: -1, parent: parent, s: copyState(s)})
			return
		}
		if g := st.growthBytes(); g > 0 && held()+g > maxBytes {
			// Refuse the allocation rather than notice it afterwards: a
			// doubled table alone can take the process past its budget.
			stop, res.Limit = fmt.Sprintf("memory budget of %d MiB reached", maxBytes>>20), MemoryLimit
			return
		}
		if st.full() {
			stop, res.Limit = "the table of states shared between searches is full", MemoryLimit
			return
		}
		if h == 0 && st.parts == nil {
			h = hash(s) // a collapsed store hashes the key it makes
		}
		idx, fresh := st.insertHashed(s, h, parent)
		if fresh && sys.Accepting(s) {
			if opt.OnAccept == nil {
				found = idx
				return
			}
			if accepted++; opt.OnAccept(statePath(st, idx)) {
				stop = acceptStop
				return
			}
		}
		if fresh && stack != nil {
			stack = append(stack, uint32(idx))
		}
		if opt.MaxStates > 0 && int64(st.len()) > opt.MaxStates {
			stop = fmt.Sprintf("state budget of %d states reached", opt.MaxStates)
		} else if res.Stats.Transitions&1023 == 0 {
			checkBudgets()
		}
	}
	sys.Initial(func(s State) { add(s, 0, noParent) })
	if stack != nil {
		// Initial states are expanded in the order given.
		slices.Reverse(stack)
	}
	var cur State = make(State, st.width)
	expanded := 0
	// The two emit functions are made once, not per state: a closure
	// handed to an interface method escapes, so one per expansion would be
	// an allocation per visited state.
	var parent uint32
	emitWorker := func(s State, h uint64) {
		res.Stats.Transitions++
		add(s, h, parent)
	}
	emitSys := func(_ Label, s State) {
		res.Stats.Transitions++
		add(s, 0, parent)
	}
	for next := 0; found < 0 && stop == "" && !overflowing; next = expanded {
		var at int
		if stack != nil {
			if len(stack) == 0 {
				break
			}
			at = int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		} else {
			if next >= st.len() {
				break
			}
			at = next
		}
		expanded++
		parent = uint32(at)
		if forker != nil && pl == nil && expanded > ParallelAfter {
			pl = newPipeline(forker, st, opt.Workers, ctx, at)
		}
		done := false
		if pl != nil {
			ok := false
			ok, done = pl.successors(at, emitWorker)
			if !ok {
				stop = StopReason(ctx)
				break
			}
		}
		if !done {
			copy(cur, st.state(at))
			sys.Successors(cur, emitSys)
		}
		n := int64(st.len())
		switch {
		case opt.MaxStates > 0 && n >= opt.MaxStates && expanded < st.len():
			stop = fmt.Sprintf("state budget of %d states reached", opt.MaxStates)
		case n >= maxStates:
			stop = "more states than the visited set can index"
		case next&1023 == 0 && opt.CacheOverflow && (held() > storeMax || pressed()):
			overflowing = true
		case next&1023 == 0 && held() > maxBytes:
			stop, res.Limit = fmt.Sprintf("memory budget of %d MiB reached", maxBytes>>20), MemoryLimit
		case next&255 == 0 && ctx.Err() != nil:
			stop = StopReason(ctx)
		case next&255 == 0 && !deadline.IsZero() && time.Now().After(deadline):
			stop = fmt.Sprintf("time budget of %v reached", opt.Timeout)
		}
		if opt.Progress != nil && (int64(next)+1)%every == 0 {
			opt.Progress(stats())
		}
	}
	if pl != nil {
		pl.stop() // before rebuild: the witness needs no workers
	}
	var ov *overflow
	if overflowing && found < 0 && stop == "" {
		ov, stop = searchOverflow(sys, &opt, st, maxBytes, deadline, spill, stack, expanded)
	}
	res.Stats = stats()
	if ov != nil {
		res.Stats.States += ov.visits
		res.Stats.Transitions += ov.trans
		res.Stats.Bytes = ov.peak
		res.Beyond, res.Stats.Beyond = ov.visits, ov.visits
		accepted += ov.accepted
		if ov.pathFull {
			res.Limit = MemoryLimit
		}
	}
	switch {
	case ov != nil && ov.found != nil:
		res.Outcome = NonEmpty
		res.Path = labelPath(sys, ov.found)
	case found >= 0:
		res.Outcome = NonEmpty
		if stack != nil {
			// The shortening's own table counts against the budget
			// beside the visited set; when it would not fit, or the
			// search's time is up, the depth-first path is the witness.
			over := func(extra int64) bool {
				return ctx.Err() != nil || !deadline.IsZero() && time.Now().After(deadline) || held()+extra > maxBytes
			}
			res.Path, res.PathWithheld = depthFirstPath(sys, st, found, over, held(), maxBytes)
		} else {
			res.Path = rebuild(sys, st, found)
		}
	case stop != "" && stop != acceptStop:
		res.Outcome = Unknown
		res.Reason = stop
	case accepted > 0:
		res.Outcome = NonEmpty // the paths went to OnAccept
	default:
		res.Outcome = Empty
	}
	return res
}

// StopReason says why a context ended a search, in the terms of budgets:
// the cause given to context.WithCancelCause when there is one (the
// command's memory guard names its budget that way), else "interrupted"
// or "time budget reached".
func StopReason(ctx context.Context) string {
	if c := context.Cause(ctx); c != nil && c != ctx.Err() {
		return c.Error()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		if d, ok := ctx.Deadline(); ok {
			return fmt.Sprintf("time budget reached (deadline %s)", d.Format(time.TimeOnly))
		}
		return "time budget reached"
	}
	return "interrupted"
}

// rebuild turns the parent chain of state i into a labelled path by asking
// the system once more which transition leads from each state to the next.
func rebuild(sys System, st *store, i int) []Step {
	idx := st.path(i)
	path := make([]Step, len(idx))
	for k, j := range idx {
		s := append(State(nil), st.state(j)...)
		path[k] = Step{State: s}
		if k == 0 {
			continue
		}
		prev := path[k-1].State
		ok := false
		sys.Successors(prev, func(l Label, t State) {
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

// Equal reports whether two packed states are the same.
func Equal(a, b State) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// depthFirstPath is the witness of a depth-first hit at found: the
// shortest path through the visited states when its table fits (over),
// else the depth-first path itself when its copy fits beside the held
// bytes, else no path and the reason it was withheld.
func depthFirstPath(sys System, st *store, found int, over func(extra int64) bool, held, maxBytes int64) ([]Step, string) {
	if p := shortest(sys, st, over); p != nil {
		return p, ""
	}
	// The copy of the path rebuild makes: per step a label, a slice
	// header and the state.
	n := len(st.path(found))
	if need := int64(n) * int64(8+24+8*st.width); held+need > maxBytes {
		return nil, fmt.Sprintf("its depth-first path of %d steps does not fit the memory budget", n)
	}
	return rebuild(sys, st, found), ""
}

// shortest is the witness of a depth-first hit: a breadth-first search
// from the initial states that only enters states of visited (the states
// the depth-first search stored), up to the first accepting one. It finds
// no new state, so it costs at most the search it follows, and it never
// fails: the depth-first tree path is such a path. It gives up, returning
// nil, when over says that the memory its table would take (beside the
// visited set) or the time is beyond the budget.
func shortest(sys System, visited *store, over func(extra int64) bool) []Step {
	st := newStoreFor(sys)
	found := -1
	stopped := false
	add := func(s State, parent uint32) {
		if found >= 0 || stopped || !visited.contains(s) {
			return
		}
		if g := st.growthBytes(); g > 0 && over(st.bytes()+g) {
			stopped = true
			return
		}
		if idx, fresh := st.insert(s, parent); fresh && sys.Accepting(s) {
			found = idx
		}
	}
	sys.Initial(func(s State) { add(s, noParent) })
	cur := make(State, st.width)
	for next := 0; found < 0 && !stopped && next < st.len(); next++ {
		if next&1023 == 0 && over(st.bytes()) {
			return nil
		}
		copy(cur, st.state(next))
		parent := uint32(next)
		sys.Successors(cur, func(_ Label, s State) { add(s, parent) })
	}
	if stopped {
		return nil
	}
	if found < 0 {
		panic("automata: the depth-first path is not among the visited states")
	}
	return rebuild(sys, st, found)
}
