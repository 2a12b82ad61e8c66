package tso

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/pool"
	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// defaultMaxBytes is the memory budget of a check when Options.MaxBytes is
// zero: well below the 2 GiB a run may use on the project's machines.
var defaultMaxBytes int64 = 1536 << 20

// Options configure Check. Zero values mean: no state bound, no time
// bound, defaultMaxBytes of memory, runtime.NumCPU() jobs.
type Options struct {
	// MaxStates bounds each attack's search.
	MaxStates int64
	// MaxBytes bounds the memory of all searches together; each of the
	// Jobs concurrent searches gets an equal share.
	MaxBytes int64
	// BudgetBytes, if set, is the user's memory budget of which MaxBytes
	// is the searches' part: messages quote it.
	BudgetBytes int64
	// Timeout bounds the whole check.
	Timeout time.Duration
	// Jobs is how many attacks are searched at once. The check starts
	// on the calling goroutine alone and the other workers join after
	// helpDelay, so that a small program's check starts no threads.
	Jobs int
	// All keeps checking after the first feasible attack, to count them.
	All bool
	// NoPrune decides syntactically refuted attacks by search as well
	// (for tests and benchmarks of the search itself).
	NoPrune bool
	// BreadthFirst searches each attack breadth-first instead of
	// depth-first. Depth-first is the default: an attack is decided by
	// the first goal state found, and the goal of a feasible attack tends
	// to lie at the end of a long run, which breadth-first search reaches
	// only after every shorter run. The witness is shortened either way
	// (automata.DepthFirst), and the verdicts are the same (tested).
	BreadthFirst bool
	// NoReduction turns off the partial-order reduction of the
	// instrumented searches (por.go), for tests and benchmarks.
	NoReduction bool
	// NoSymmetry turns off the thread symmetry of the instrumented
	// searches (symmetry.go), for tests and benchmarks.
	NoSymmetry bool
	// ValueBits is the width of a packed value; 0 starts at 4 bits and
	// doubles (up to 32) whenever a value does not fit.
	ValueBits int
	Context   context.Context
	// Progress, if set, is called from the searches now and then with the
	// work done so far by all of them.
	Progress func(done, total int, states int64)
	// Shard restricts the check to one part of the attacks that need a
	// search; Merge combines the parts (shard.go).
	Shard shard.Shard
	// Criterion is what is checked (criterion.go); the zero value is
	// robustness.
	Criterion Criterion
	// Workers is the number of goroutines that compute successors in
	// each attack's search (automata.Options.Workers), for breadth-first
	// searches only (BreadthFirst; depth-first search is sequential).
	// Zero gives the cores that Jobs leaves idle to the searches: when
	// fewer attacks need a search than Jobs, each gets Jobs divided by
	// their number. The verdicts, states and witnesses are those of the
	// sequential searches.
	Workers int
	// CombinedStates bounds the combined first search (combined.go): one
	// search of the program instrumented for every attack at once, whose
	// certified witness ends a check early. Zero means
	// DefaultCombinedStates; a negative value turns it off.
	CombinedStates int64
	// PrepassStates caps each attack's search in the pre-pass that runs
	// before the combined search (prepass.go). Zero means
	// DefaultPrepassStates; a negative value turns the pre-pass off.
	PrepassStates int64
}

// context is opt.Context (or the background) bounded by opt.Timeout.
func (opt Options) context() (context.Context, context.CancelFunc) {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if opt.Timeout > 0 {
		return context.WithTimeout(ctx, opt.Timeout)
	}
	return ctx, func() {}
}

// Outcome of one attack.
type Outcome int

const (
	RefutedSyntactically Outcome = iota
	Infeasible
	Feasible
	Undecided
	// OtherShard is an attack a sharded check leaves to another shard
	// (Options.Shard).
	OtherShard
)

func (o Outcome) String() string {
	return [...]string{"refuted syntactically", "infeasible", "feasible", "undecided", "left to another shard"}[o]
}

// AttackResult is what the check found out about one attack.
type AttackResult struct {
	Attack  Attack
	Outcome Outcome
	Reason  string // for Undecided
	Stats   automata.Stats
	Bits    int // value width of the last search
	path    []automata.Step
	sys     *scSystem
	// withheld says why a feasible attack has no path.
	withheld string
}

// Result is the answer of Check.
type Result struct {
	Verdict   prog.Verdict
	Criterion Criterion
	Model     prog.Model
	Attacker  Attacker
	Reason    string // for Unknown
	// Counts of attacks.
	Generated, RefutedSyntactic, RefutedSearch, Found, Undecided, Skipped int
	Stats                                                                 automata.Stats // summed over all searches (Elapsed is CPU time)
	Elapsed                                                               time.Duration  // wall time
	Attacks                                                               []AttackResult
	// Witness is set for NotRobust: a replayed relaxed computation with its
	// happens-before cycle.
	Witness *Witness
	// WitnessErr is set when a feasible attack's witness failed its replay:
	// an internal error, never a verdict.
	WitnessErr error
	// WitnessWithheld is set for NotRobust when the witness was not built
	// because it would not fit the memory budget: it names the attack and
	// says why (witnessWithheld).
	WitnessWithheld string
}

// Check decides robustness of p against model m (Theorem 3 of
// tso-robustness-attacks.md for TSO; Proposition 2 with Theorems 1 and 2 of
// locality-singularity.md for PSO): p is robust iff no attack's
// instrumentation reaches its goal under SC. With opt.Criterion set it
// decides that criterion the same way (criterion.go); Verdict Robust then
// means the criterion holds. A request it cannot take (a criterion it does
// not know, or one defined for TSO only asked under PSO) is an error, not
// an UNKNOWN verdict: no budget would change the answer.
func Check(p *prog.Program, m prog.Model, opt Options) (*Result, error) {
	if err := request(opt.Criterion, m); err != nil {
		return nil, err
	}
	return check(p, m, opt), nil
}

// check is Check for the checker's own callers (fences, instances,
// differential tests), which report a request it cannot take as an
// UNKNOWN result with the reason.
func check(p *prog.Program, m prog.Model, opt Options) *Result {
	start := time.Now()
	if err := request(opt.Criterion, m); err != nil {
		return &Result{Verdict: prog.Unknown, Criterion: opt.Criterion, Model: m, Reason: err.Error()}
	}
	def := criteria[opt.Criterion]
	ctx, cancel := opt.context()
	defer cancel()
	if why := tooManyPatterns(countPatterns(p, def.attacks(p, m)), opt.Criterion, opt); why != "" {
		return &Result{Verdict: prog.Unknown, Criterion: opt.Criterion, Model: m, Attacker: attackerFor(p, m), Reason: why, Elapsed: time.Since(start)}
	}
	res, todo, err := newResult(ctx, p, m, opt)
	if err != nil {
		return &Result{Verdict: prog.Unknown, Criterion: opt.Criterion, Model: m, Attacker: attackerFor(p, m), Reason: stopReason(ctx), Elapsed: time.Since(start)}
	}
	shape, attacks := res.Attacker, make([]Attack, len(res.Attacks))
	for i := range res.Attacks {
		attacks[i] = res.Attacks[i].Attack
	}
	own := ownedAttacks(len(todo), opt.Shard)
	for k, i := range todo {
		if !own[k] {
			res.Attacks[i].Outcome = OtherShard
		}
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	if opt.Workers == 0 && len(todo) > 0 && jobs > len(todo) {
		opt.Workers = jobs / len(todo)
	}
	if jobs > len(todo) {
		jobs = max(len(todo), 1)
	}
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = defaultMaxBytes
	}
	pre := combinedRun{found: -1}
	rest, restOwn := todo, own
	var prepassSpent automata.Stats
	if cap := prepassCap(m, opt, len(todo)); cap > 0 {
		rest, pre, prepassSpent = res.prepassRounds(ctx, p, todo, own, jobs, opt, cap, maxBytes, func(ctx context.Context, i int, o *Options) AttackResult {
			return checkAttack(ctx, p, def, attacks[i], shape, *o, maxBytes/int64(jobs))
		})
		restOwn = make([]bool, len(rest))
		for k := range restOwn {
			restOwn[k] = true
		}
	} else if useCombined(m, opt, len(todo)) {
		pre = res.combinedFirst(ctx, p, opt, todo, maxBytes)
	}
	if pre.found < 0 && len(rest) > 0 {
		searchAttacks(ctx, res, rest, restOwn, jobs, &opt, func(ctx context.Context, i int) AttackResult {
			return checkAttack(ctx, p, def, attacks[i], shape, opt, maxBytes/int64(jobs))
		})
	}
	pre.spent.Add(prepassSpent)

	first := res.conclude(p, todo, ctx)
	res.Stats.Add(pre.spent)
	switch {
	case first >= 0 && first == pre.found:
		res.Witness, res.WitnessWithheld = pre.witness, pre.withheld
	case first >= 0:
		ar := &res.Attacks[first]
		if why := witnessWithheld(ar, maxBytes, opt); why != "" {
			res.WitnessWithheld = fmt.Sprintf("attack %s: %s", ar.Attack.Format(p), why)
		} else {
			w, err := def.witness(p, m, ar)
			res.Witness, res.WitnessErr = w, err
		}
	}
	res.Elapsed = time.Since(start)
	return res
}

// searchAttacks searches a check's own attacks in the order of todo on
// jobs workers (automata/pool). Without All, the witness is that of the
// first feasible attack in that order, whatever the scheduling: a
// feasible attack stops only the searches of later attacks; earlier ones
// run to the end. The calling goroutine works alone first: most checks
// end within a millisecond, and starting threads for them would cost
// more than their searches. The other workers join after helpDelay.
func searchAttacks(ctx context.Context, res *Result, todo []int, own []bool, jobs int, opt *Options, search func(ctx context.Context, i int) AttackResult) {
	searchUntil(ctx, res, todo, own, jobs, opt, search, func(ar *AttackResult) bool {
		return ar.Outcome == Feasible && !opt.All
	})
}

// searchUntil is searchAttacks with its own rule for the result that
// ends the searches of later attacks (the probe's: a capped search).
func searchUntil(ctx context.Context, res *Result, todo []int, own []bool, jobs int, opt *Options, search func(ctx context.Context, i int) AttackResult, stop func(*AttackResult) bool) {
	var ks []int // the positions in todo of this shard's attacks
	for k := range todo {
		if own[k] {
			ks = append(ks, k)
		}
	}
	var mu sync.Mutex
	done, states := 0, int64(0)
	pl := &pool.Pool{Workers: jobs, Join: helpDelay}
	pl.Run(ctx, len(ks), func(it pool.Item) bool {
		if it.Skip {
			return false // after a feasible attack: never started
		}
		i := todo[ks[it.Index]]
		ar := search(it.Ctx, i)
		mu.Lock()
		defer mu.Unlock()
		res.Attacks[i] = ar
		done++
		states += ar.Stats.States
		if opt.Progress != nil {
			opt.Progress(done, len(todo), states)
		}
		return stop(&ar)
	})
}

// newResult lists the attacks of p under m, with the syntactically refuted
// ones settled, and returns the indices of those left to search (todo).
func newResult(ctx context.Context, p *prog.Program, m prog.Model, opt Options) (*Result, []int, error) {
	shape := attackerFor(p, m)
	attacks, refuted, err := listPatterns(ctx, p, criteria[opt.Criterion].attacks(p, m))
	if err != nil {
		return nil, nil, err
	}
	res := &Result{Criterion: opt.Criterion, Model: m, Attacker: shape, Generated: len(attacks)}
	res.Attacks = make([]AttackResult, len(attacks))
	var todo []int
	for i, a := range attacks {
		res.Attacks[i] = AttackResult{Attack: a, Outcome: RefutedSyntactically}
		if refuted[i] && !opt.NoPrune {
			res.RefutedSyntactic++
			continue
		}
		todo = append(todo, i)
	}
	return res, todo, nil
}

// conclude counts the searched attacks' outcomes and sets the verdict; it
// returns the index of the first feasible attack, whose witness the
// caller builds, or -1. ctx is the check's (nil when merging shards).
func (res *Result) conclude(p *prog.Program, todo []int, ctx context.Context) int {
	first := -1
	for _, i := range todo {
		ar := &res.Attacks[i]
		res.Stats.Add(ar.Stats)
		switch {
		case ar.Outcome == OtherShard:
		case ar.Outcome == Feasible:
			res.Found++
			if first < 0 {
				first = i
			}
		case ar.Outcome == Infeasible:
			res.RefutedSearch++
		case ar.Outcome == Undecided && ar.Reason != "":
			res.Undecided++
			if res.Reason == "" {
				res.Reason = fmt.Sprintf("attack %s: %s", ar.Attack.Format(p), ar.Reason)
			}
		default:
			// Never started, or cancelled because another attack was
			// found feasible first.
			ar.Outcome = Undecided
			res.Skipped++
		}
	}
	switch {
	case first >= 0:
		res.Verdict = prog.NotRobust
	case res.Undecided > 0 || res.Skipped > 0:
		res.Verdict = prog.Unknown
		if res.Reason == "" {
			res.Reason = "not every attack was decided"
		}
		if ctx != nil && res.Reason == "not every attack was decided" {
			switch ctx.Err() {
			case context.DeadlineExceeded:
				res.Reason = "time budget reached"
			case context.Canceled:
				res.Reason = automata.StopReason(ctx)
			}
		}
	default:
		res.Verdict = prog.Robust
	}
	return first
}

// checkAttack decides one attack by SC reachability of its goal, widening
// the value domain while values overflow it.
func checkAttack(ctx context.Context, p *prog.Program, def *criterionDef, a Attack, shape Attacker, opt Options, maxBytes int64) AttackResult {
	ar := AttackResult{Attack: a}
	bits := opt.ValueBits
	fixed := bits > 0
	if !fixed {
		bits = 4
	}
	for {
		threads, ext := def.instrument(p, a, shape)
		sys := newSCSystemExt(p, threads, shape, ext == nil, ext, bits)
		if opt.NoReduction {
			sys.reducible = nil
		}
		strategy := automata.DepthFirst
		if opt.BreadthFirst {
			strategy = automata.BreadthFirst
		}
		searched, sym := withSymmetry(sys, sys, opt.NoSymmetry)
		r := automata.Search(searched, automata.Options{
			Strategy: strategy,
			Budget:   automata.Budget{MaxStates: opt.MaxStates, MaxBytes: maxBytes},
			Context:  ctx,
			Workers:  opt.Workers,
		})
		sys.gather()
		ar.Stats.Add(r.Stats)
		ar.Bits = bits
		switch {
		case r.Outcome == automata.NonEmpty:
			if sym != nil {
				var ok bool
				if r.Path, ok = sym.unfold(r.Path); !ok {
					ar.Outcome, ar.Reason = Undecided, unfoldFailed
					return ar
				}
			}
			ar.Outcome, ar.path, ar.sys, ar.withheld = Feasible, r.Path, sys, r.PathWithheld
			return ar
		case r.Outcome == automata.Unknown:
			ar.Outcome = Undecided
			if ctx.Err() == nil {
				// A cancelled context means another attack was found
				// feasible first: no reason, so the attack counts as
				// skipped rather than undecided.
				ar.Reason = r.Reason
				if r.Limit == automata.MemoryLimit {
					// The user's number, not this search's share.
					ar.Reason = fmt.Sprintf("memory budget of %d MiB reached", userBytes(opt)>>20)
				}
			}
			if ctx.Err() == context.DeadlineExceeded {
				ar.Reason = "time budget reached"
			}
			return ar
		case sys.badAddr != "":
			ar.Outcome, ar.Reason = Undecided, sys.badAddr
			return ar
		case sys.overflow && (fixed || bits >= 32):
			ar.Outcome, ar.Reason = Undecided, fmt.Sprintf("values do not fit in %d bits", bits)
			return ar
		case sys.overflow:
			bits *= 2
		default:
			ar.Outcome = Infeasible
			return ar
		}
	}
}

// userBytes is the memory budget of the whole check.
func userBytes(opt Options) int64 {
	if opt.BudgetBytes > 0 {
		return opt.BudgetBytes
	}
	if opt.MaxBytes > 0 {
		return opt.MaxBytes
	}
	return defaultMaxBytes
}

// Format names the attack for people.
func (a Attack) Format(p *prog.Program) string {
	th := p.Threads[a.Thread]
	st, l := th.Trans[a.Store], th.Trans[a.Last]
	return fmt.Sprintf("(%s, %s->%s %s, %s->%s %s)", th.Name,
		th.Labels[st.From], th.Labels[st.To], st.Text, th.Labels[l.From], th.Labels[l.To], l.Text)
}

// FeasibleAttacks lists the attacks found feasible, in enumeration order.
func (r *Result) FeasibleAttacks() []Attack {
	var out []Attack
	for _, ar := range r.Attacks {
		if ar.Outcome == Feasible {
			out = append(out, ar.Attack)
		}
	}
	return out
}

// reachSC explores the program's own SC state space on the search engine:
// accept, if not nil, is tested on every state's labels (one per thread)
// and the search stops at the first state it accepts.
func reachSC(p *prog.Program, accept func(labels []int) bool, opt Options) automata.Result {
	bits := opt.ValueBits
	if bits <= 0 {
		bits = 8
	}
	sys := &reachSystem{scSystem: newSCSystem(p, plainThreads(p), AttackerTSO, false, bits), accept: accept}
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = defaultMaxBytes
	}
	return automata.Search(sys, automata.Options{Budget: automata.Budget{MaxStates: opt.MaxStates, MaxBytes: maxBytes, Timeout: opt.Timeout}, Context: opt.Context})
}

type reachSystem struct {
	*scSystem
	accept func([]int) bool
	labels []int
}

func (r *reachSystem) Accepting(st automata.State) bool {
	if r.accept == nil {
		return false
	}
	r.labels = r.labels[:0]
	for _, f := range r.pc {
		r.labels = append(r.labels, int(f.Get(st)))
	}
	return r.accept(r.labels)
}

// helpDelay is how long a check runs on one goroutine before the other
// workers join it (a variable for tests).
var helpDelay = time.Millisecond
