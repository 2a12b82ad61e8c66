package cycles

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/pool"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// Verdict is the answer of Decide.
type Verdict int

const (
	Robust    Verdict = iota // every product is empty
	NotRobust                // some product is non-empty; a certified witness exists
	Unknown                  // a budget ran out before the question was settled
	RunError                 // a run-time error (out-of-range value, address, rank, queue) is reachable
)

func (v Verdict) String() string {
	return [...]string{"ROBUST", "NOT ROBUST", "UNKNOWN", "RUN-TIME ERROR"}[v]
}

// Progress is a snapshot of a running decision.
type Progress struct {
	// RuntimeCheck is true while the run-time error check runs (before
	// any cycle type), which on some programs is most of the work.
	RuntimeCheck bool
	States       int64
	TypesDone    int
	TypesTotal   int
	Elapsed      time.Duration
}

// StatesPerSecond is the search speed so far.
func (p Progress) StatesPerSecond() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.States) / p.Elapsed.Seconds()
}

// TypeResult is the outcome for one cycle type.
type TypeResult struct {
	Cycle   CycleType
	Outcome automata.Outcome // Empty: infeasible; NonEmpty: feasible
	Reason  string           // for Unknown
	Stats   automata.Stats
	Witness *Witness // for NonEmpty
	Checked bool     // false if skipped after a violation was found elsewhere
	// SymmetricTo is set when the outcome was not searched but taken from
	// this cycle type, which a renaming of ranks that leaves the program
	// unchanged maps onto this one.
	SymmetricTo CycleType
}

// RuntimeError is a reachable run-time error with the sequentially
// consistent computation that reaches it.
type RuntimeError struct {
	Err  error
	Path []pgas.Event
}

// Result is the answer of Decide.
type Result struct {
	Verdict   Verdict
	N         int
	Types     []TypeResult
	Witness   *Witness // the first certified witness, for NotRobust
	RunError  *RuntimeError
	Stats     automata.Stats // summed over all searches
	Elapsed   time.Duration  // wall time
	CacheHits int64
	CacheMiss int64
	Reason    string // for Unknown: which budget ran out
	// Procedure names who answered: "automata" (the cycle-type search)
	// or "oracle" (the direct exploration of X(P,N); Types is then empty
	// and a witness is Direct).
	Procedure string
	// Yardsticks, with Options.Yardsticks, when the search finished.
	Yardsticks *Yardsticks
	// Partial is set when N has more than MaxListedTypes cycle types
	// (and no Options.Only): Types then lists only the representatives
	// searched, in order (stream_run.go), and Counts counts every type.
	Partial bool
	Counts  TypeCounts
	// Note says where the decision departed from its options, such as a
	// shared exploration replaced by per-type searches.
	Note string
}

// skippedReason is the Reason of cycle types not searched (or not to the
// end) because a violation was found first; they have Checked == false.
const skippedReason = "skipped: a violation was found in another cycle type"

// notSearchedReason is the Reason of cycle types never started because the
// decision was interrupted or ran out of time first.
const notSearchedReason = "not searched: the decision was stopped first"

// ErrInternal marks failures of the procedure itself, such as a witness
// that does not replay.
var ErrInternal = errors.New("internal error")

// Decide answers ROB for (P, N) by Theorem 16: it checks, for every cycle
// type, whether Y^M(P,N) × Z^cyc accepts something.
func Decide(p *pgas.Program, n int, opt Options) (*Result, error) {
	start := time.Now()
	opt = opt.relation(p)
	y, err := normalform.New(p, n)
	if err != nil {
		return nil, err
	}
	y.AllParts = opt.NoReduction // the settled-popa rule is a reduction too
	y.Commuting = opt.Commuting
	pl := makePlan(opt, n)
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = automata.DefaultMaxBytes
	}
	res := &Result{N: n}

	// Run-time errors first: if the program is robust, every relaxed
	// computation is equivalent to a sequentially consistent one, so an
	// error is reachable at all iff it is reachable under SC.
	rerr, stats, reason := findRuntimeError(ctx, y, opt, maxBytes)
	res.Stats.Add(stats)
	if rerr != nil {
		res.Verdict, res.RunError, res.Elapsed = RunError, rerr, time.Since(start)
		return res, nil
	}
	if reason != "" {
		res.Verdict, res.Reason, res.Elapsed = Unknown, "run-time error check: "+budgetReason(ctx, opt, reason), time.Since(start)
		return res, nil
	}
	sd := &typeSearch{p: p, n: n, y: y, opt: opt, plan: pl, jobs: jobs, maxBytes: maxBytes, scStates: stats.States, start: start,
		slots: pool.NewSlots(jobs)}
	sd.tableBytes = sd.tableShare()
	if opt.BudgetBytes > 0 && opt.CacheBytes == 0 {
		// Under a process budget (the command's --max-memory) the move
		// table's share comes out of the searches' part, so that what
		// the searches and the table may hold adds up to MaxBytes.
		sd.maxBytes = max(sd.maxBytes/2, sd.maxBytes-sd.tableBytes)
	}
	switch sd.plan.arbiter {
	case oracleAlone:
		return sd.oracleOnly(ctx, res)
	case race:
		return sd.portfolio(ctx, res)
	}
	return sd.run(ctx, res)
}

// typeSearch is the search of the cycle types (Theorem 16) once the
// run-time error check has passed.
type typeSearch struct {
	p        *pgas.Program
	n        int
	y        *normalform.Y
	opt      Options
	plan     plan
	jobs     int
	maxBytes int64
	scStates int64 // states of the run-time error check, a gauge of Y's size
	start    time.Time
	slots    *pool.Slots // one token per cycle-type search allowed to run (slots.go)
	// shared, while the shared exploration runs, lets the portfolio's
	// oracle take turns with its search (portfolio.go).
	shared atomic.Pointer[turns]
	// sharedUp, if set, is closed once shared is set, or once the
	// decision goes without the shared exploration (sharedIsUp).
	sharedUp chan struct{}
	upOnce   sync.Once

	tableBytes int64 // the move table's bound (tableShare)
}

// tableShare is the bound of the table of Y's moves shared by the
// searches: Options.CacheBytes when set, else a quarter of the searches'
// part of the budget, and sized by the problem as well: the run-time
// error check has just visited the sequentially consistent states of Y,
// a gauge of how many moves there are to keep (a relaxed Y has up to a
// thousand times more on queue-heavy programs; an entry costs about 600
// bytes).
func (sd *typeSearch) tableShare() int64 {
	if sd.opt.CacheBytes != 0 {
		return sd.opt.CacheBytes
	}
	return min(sd.maxBytes/4, max(1<<20, sd.scStates*600*1024))
}

// moveTable makes the table of Y's moves shared by the searches.
func (sd *typeSearch) moveTable() *moveTable {
	t := newMoveTable(sd.y, sd.tableBytes)
	t.pressure = sd.opt.Pressure
	return t
}

// run runs the plan's driver of the cycle-type search.
func (sd *typeSearch) run(ctx context.Context, res *Result) (*Result, error) {
	res.Note = sd.plan.note // the search's own: an oracle's answer has none
	switch sd.plan.driver {
	case streamedShared, streamedPerType:
		return sd.runStream(ctx, res)
	case listedShared:
		return sd.runShared(ctx, res)
	}
	return sd.runPerType(ctx, res)
}

// fillTypes completes res.Types after the searches: the representatives
// not searched (another shard's, or never started because the decision
// was stopped first) and the types that take their outcome from their
// orbit's representative.
func fillTypes(types []CycleType, rep []int, own []bool, res *Result) {
	for i := range types {
		if rep[i] == i && res.Types[i].Cycle == nil {
			reason := notSearchedReason
			if !own[i] {
				reason = OtherShardReason
			}
			res.Types[i] = TypeResult{Cycle: types[i], Outcome: automata.Unknown, Reason: reason}
		}
	}
	for i := range types {
		if r := rep[i]; r != i {
			src := res.Types[r]
			res.Types[i] = TypeResult{Cycle: types[i], Outcome: src.Outcome, Reason: src.Reason, Checked: src.Checked, SymmetricTo: types[r]}
		}
	}
}

// conclude certifies every witness and sets the verdict from the cycle
// types' outcomes; ctx is the decision's (nil when merging shards, whose
// own reasons already say why they stopped).
func (res *Result) conclude(p *pgas.Program, n int, ctx context.Context, opt Options) error {
	var wrap *RuntimeError
	for i := range res.Types {
		tr := &res.Types[i]
		if tr.Witness != nil {
			if err := tr.Witness.certify(p, n, opt.Commuting); err != nil {
				return fmt.Errorf("%w: the witness for cycle type %v does not hold up against the plain semantics: %v", ErrInternal, tr.Cycle, err)
			}
			if re := tr.Witness.wrap(p, n, opt.Commuting); re != nil {
				wrap = cmp.Or(wrap, re)
				continue
			}
			if res.Witness == nil {
				res.Witness = tr.Witness
			}
		}
	}
	stopped := ctx != nil && ctx.Err() != nil
	switch {
	case res.Witness == nil && wrap != nil:
		res.Verdict, res.RunError = RunError, wrap
	case res.Witness != nil:
		res.Verdict = NotRobust
	default:
		res.Verdict = Robust
		for _, tr := range res.Types {
			if tr.Outcome == automata.Unknown && tr.Reason != OtherShardReason {
				res.Verdict = Unknown
				res.Reason = fmt.Sprintf("cycle type %v: %s", tr.Cycle, tr.Reason)
				break
			}
		}
		if stopped && res.Verdict == Robust {
			res.Verdict, res.Reason = Unknown, automata.StopReason(ctx)
		}
	}
	if res.Verdict == Unknown && stopped {
		// Say which budget ran out in the user's terms, for the whole
		// decision and for every cycle type it stopped.
		res.Reason = budgetReason(ctx, opt, res.Reason)
		for i := range res.Types {
			if res.Types[i].Outcome == automata.Unknown && res.Types[i].Reason != skippedReason && res.Types[i].Reason != OtherShardReason {
				res.Types[i].Reason = budgetReason(ctx, opt, res.Types[i].Reason)
			}
		}
	}
	return nil
}

// searchType searches the product for one cycle type, breadth-first, or
// depth-first with Options.DepthFirst when the decision needs only the
// first witness (not All). Depth-first search stops at the first accepting
// state it meets, which on a violating type may lie deep, at the end of a
// long cycle, where breadth-first search arrives only after every shorter
// computation; the witness is then shortened (automata.DepthFirst) and
// certified as always. It can also lose: a violation near the start that
// depth-first search passes by can cost it more states than a state budget
// allows. On an infeasible type both orders visit the same states, and the
// cycle proviso of the partial-order reduction is static (reduce.go), so
// it holds under either order. Every search of one decision uses the same
// order, so a type's witness does not depend on which search (the shared
// exploration's helper, its canonical re-search, the per-type
// exploration) produced it.
func searchType(p *pgas.Program, y *normalform.Y, c CycleType, cache *moveTable, opt Options, ctx context.Context, maxBytes int64, progress func(automata.Stats), ymarks *ymarkSet) TypeResult {
	prod := newProduct(y, c, cache.moves)
	prod.table = cache
	if !opt.NoReduction {
		prod.reduce = newReducer(p, prod.future.Words)
	}
	var sys automata.System = prod
	var sym *typeSym
	if ymarks != nil {
		sys = &counting{product: prod, set: ymarks}
	} else if !opt.NoSymmetry {
		if sym = newTypeSym(prod, classesOf(p, y.N), turnsOf(p, y.N, c)); sym != nil {
			sys = newSymProduct(prod, sym)
		}
	}
	strategy := automata.BreadthFirst
	if opt.DepthFirst && !opt.All {
		strategy = automata.DepthFirst
	}
	workers := opt.Workers
	if ymarks != nil {
		workers = 1 // the forks would not count (Y, marks) pairs
	}
	// The memo of move outcomes (product_memo.go), one per goroutine, is
	// not in the visited set's count: its cap, at most an eighth of the
	// budget in all, is set aside from the search's budget.
	g := int64(max(1, workers))
	prod.memoCap = max(1, min(maxMoveMemo, maxBytes/8/g))
	maxBytes -= prod.memoCap * g
	r := automata.Search(sys, automata.Options{
		Strategy: strategy,
		Budget:   automata.Budget{MaxStates: opt.MaxStates, MaxBytes: maxBytes},
		Context:  ctx,
		Progress: progress,
		Workers:  workers,
		// The state cache replaces the visited set's budget, not the
		// memo's share set aside above.
		CacheOverflow: opt.StateCache,
		Pressure:      opt.Pressure,
	})
	tr := TypeResult{Cycle: c, Checked: true, Outcome: r.Outcome, Reason: r.Reason, Stats: r.Stats}
	if r.Limit == automata.MemoryLimit {
		// The user's number, not this search's share of it.
		tr.Reason = memoryReason(opt)
	}
	if r.Outcome == automata.NonEmpty && sym != nil {
		full := newProduct(y, c, cache.moves)
		if path, ok := sym.realPath(full, r.Path); ok {
			tr.Witness = buildWitness(full, path)
			return tr
		}
		return witnessSearch(p, y, c, cache, opt, ctx, maxBytes, progress, tr)
	}
	if r.Outcome == automata.NonEmpty {
		tr.Witness = buildWitness(prod, r.Path)
	}
	return tr
}

// memoryReason names the memory budget the user gave.
func memoryReason(opt Options) string {
	if opt.BudgetBytes > 0 {
		return fmt.Sprintf("memory budget of %d MiB reached", opt.BudgetBytes>>20)
	}
	if opt.MaxBytes > 0 {
		return fmt.Sprintf("memory budget of %d MiB reached", opt.MaxBytes>>20)
	}
	return fmt.Sprintf("memory budget of %d MiB reached", automata.DefaultMaxBytes>>20)
}

// budgetReason names the --timeout budget when the decision's deadline
// stopped a search, and keeps the search's own reason otherwise.
func budgetReason(ctx context.Context, opt Options, reason string) string {
	if opt.Timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("time budget of %v reached", opt.Timeout)
	}
	return reason
}

// errSystem is Y restricted to sequentially consistent computations, with
// one extra word: a state whose commands hit a range error has a single
// successor, itself with the extra word set, and only those are accepting.
// The moves of a state are thus computed once, when it is expanded, not
// again for every state that reaches it.
//
// With rd, only the moves of an ample rank are followed (reduce_err.go).
// That keeps a reachable error reachable. Let a path π lead from s to a
// state u where a move of rank q errs, and let r be ample in s: no
// barrier leaves r's control state, so no barrier happens before r moves,
// and until then the other ranks stay within their futures before their
// next barrier, none of which writes a cell r's moves (or its disabled
// guarded commands) touch or touches a cell they write. So the first r
// move of π is enabled in s (r's commands read only r's registers and
// those cells; a disabled one stays disabled until r moves) and can be
// taken first, the rest of π following unchanged: the path from the
// successor is shorter. If π has no r move, any move a of r can be taken
// first: the moves of π stay enabled and do the same, and q's command
// still errs at the end, since a changed nothing q reads; unless q = r,
// and then r's command errs already in s (its outcome depends on r's
// registers and on cells no other rank writes before r moves), where
// Moves reports it. The second case keeps π's length and moves r along a
// forward transition of the program, which lowers the sum of the ranks'
// depth-first postorder numbers (reduce_err.go); that can happen only
// finitely often in a row, so the argument ends at an error found. (A
// state fully expanded passes on the first move of π: shorter again.)
// Dropping the proviso loses errors: TestRuntimeCheckProviso.
type errSystem struct {
	y    *normalform.Y
	rd   *errReducer // nil: no reduction, or old's
	old  *reducer    // reduce.go's reducer, never in a loop (errAcyclic: the benchmarks' "old")
	none []uint64    // no pair started: old's cell set, all zero
}

func (e errSystem) Width() int { return e.y.Words() + 1 }
func (e errSystem) Initial(emit func(automata.State)) {
	s := make(automata.State, e.Width())
	e.y.Initial(s[:e.y.Words()])
	emit(s)
}
func (e errSystem) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	w := e.y.Words()
	if s[w] != 0 {
		return
	}
	moves, errs := e.y.Moves(s[:w])
	t := make(automata.State, w+1)
	if len(errs) > 0 {
		copy(t, s)
		t[w] = 1
		emit(automata.Label(len(moves)), t)
		return
	}
	only := 0
	switch {
	case e.rd != nil:
		only = e.rd.ample(e.y, s[:w], moves)
	case e.old != nil:
		only = e.old.ample(e.y, e.y.Future(), s[:w], moves, e.none)
	}
	for i := range moves {
		if only != 0 && moves[i].Rank != only {
			continue
		}
		// The label is the index among all moves: the path is read back
		// with Moves (findRuntimeError).
		copy(t, moves[i].Target)
		emit(automata.Label(i), t)
	}
}
func (e errSystem) Accepting(s automata.State) bool { return s[e.y.Words()] != 0 }

// Fork is e with a reducer of its own (its scratch sets): Successors
// allocates what it emits, and Y's moves may be computed by several
// goroutines at once.
func (e errSystem) Fork() automata.System {
	if e.rd != nil {
		e.rd = e.rd.fork()
	}
	if e.old != nil {
		e.old = e.old.fork()
	}
	return e
}

// errReduction picks the run-time error check's reduction.
type errReduction int

const (
	errLoops     errReduction = iota // reduce_err.go: the default
	errNone                          // every interleaving (Options.NoReduction)
	errAcyclic                       // reduce.go's reducer, which never reduces in a loop (before; for the benchmarks)
	errNoProviso                     // reduce_err.go without its cycle proviso: unsound, for the mutation test only
)

func findRuntimeError(ctx context.Context, y *normalform.Y, opt Options, maxBytes int64) (*RuntimeError, automata.Stats, string) {
	how := errLoops
	if opt.NoReduction {
		how = errNone
	}
	return findRuntimeErrorBy(ctx, y, opt, maxBytes, how)
}

func findRuntimeErrorBy(ctx context.Context, y *normalform.Y, opt Options, maxBytes int64, how errReduction) (*RuntimeError, automata.Stats, string) {
	sc := *y
	sc.SC = true
	start := time.Now()
	var progress func(automata.Stats)
	if opt.Progress != nil {
		progress = func(s automata.Stats) {
			opt.Progress(Progress{RuntimeCheck: true, States: s.States, Elapsed: time.Since(start)})
		}
	}
	// The check runs alone, before any cycle type: every job is a
	// frontier worker.
	workers := opt.Workers
	if workers == 0 {
		workers = opt.Jobs
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	sys := errSystem{y: &sc, none: make([]uint64, y.Future().Words)}
	switch how {
	case errLoops, errNoProviso:
		sys.rd = newErrReducer(&sc)
		sys.rd.noProviso = how == errNoProviso
	case errAcyclic:
		sys.old = newReducer(y.P, y.Future().Words)
	}
	rerr, probed, done := probeWiden(ctx, sys, &sc, opt, maxBytes)
	if done {
		return rerr, probed, ""
	}
	r := automata.Search(sys, automata.Options{Context: ctx, Progress: progress, Workers: workers,
		Budget: automata.Budget{MaxStates: opt.MaxStates, MaxBytes: maxBytes}, CacheOverflow: opt.StateCache})
	r.Stats.Add(probed)
	switch r.Outcome {
	case automata.Unknown:
		if r.Limit == automata.MemoryLimit {
			return nil, r.Stats, memoryReason(opt)
		}
		return nil, r.Stats, r.Reason
	case automata.Empty:
		return nil, r.Stats, ""
	}
	return runtimeErrorOf(&sc, r.Path), r.Stats, ""
}

// runtimeErrorOf is the run-time error at the end of an accepting path of
// errSystem over sc, with its computation.
func runtimeErrorOf(sc *normalform.Y, steps []automata.Step) *RuntimeError {
	w := sc.Words()
	var path []pgas.Event
	// The last step only sets the error word.
	for k := 1; k < len(steps)-1; k++ {
		moves, _ := sc.Moves(steps[k-1].State[:w])
		for _, he := range moves[steps[k].Label].Events {
			path = append(path, he.Event)
		}
	}
	_, errs := sc.Moves(steps[len(steps)-1].State[:w])
	return &RuntimeError{Err: errs[0], Path: path}
}
