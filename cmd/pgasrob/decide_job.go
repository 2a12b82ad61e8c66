package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// The decision of a .pgas program for each N asked, shared by decide,
// cycles and repair: the budget flags they share, the checked request (a
// job: flags, program, Ns), the run of cycles.Decide for each N, and the
// exit code of each N and of a range.

// maxDecideRanks bounds N for decide and cycles: the state encoding's
// limit (pgas.MaxRanks). The cycle types are not what bounds it: beyond
// cycles.MaxListedTypes they are streamed, not listed (docs/design.md).
const maxDecideRanks = pgas.MaxRanks

// decideFunc is cycles.Decide; tests replace it to reach the paths that
// the real procedure only takes when it is broken (internal errors).
var decideFunc = cycles.Decide

// budgetFlags are the flags decide and cycles share.
type budgetFlags struct {
	n          *string
	maxStates  *int64
	timeout    *time.Duration
	jobs       *int
	maxMemory  *int64
	noSymmetry *bool
	depthFirst *bool
	stateCache *bool
	strict     *bool
	commuting  *bool // the no-op alias --commuting-atomics
	explore    *cycles.Exploration
	shard      *shardFlags
	lang       *string
	c          *cFlags // -I, -D, --compile-commands, --args (cflags.go)
}

func addBudgetFlags(fs *pflag.FlagSet) *budgetFlags {
	b := &budgetFlags{
		n:          stringOnceP(fs, "n", "n", "number of ranks `N`, or a range LO..HI to decide each N in it (required)"),
		maxStates:  fs.Int64("max-states", 0, "bound on the states of each cycle type's search (0: none)"),
		timeout:    fs.Duration("timeout", 0, "bound on the time spent on each N, e.g. 30s or 5m (0: none)"),
		jobs:       fs.Int("jobs", runtime.NumCPU(), "cycle types searched in parallel"),
		maxMemory:  fs.Int64("max-memory", defaultMemoryMiB(), memoryFlagHelp),
		noSymmetry: fs.Bool("no-symmetry", false, "search every cycle type, even those a renaming of ranks maps onto one already searched, and each without the renamings that keep it"),
		depthFirst: fs.Bool("depth-first", false, "search each cycle type depth-first, stopping at its first violation (decide without --all; the witness is shortened and certified as usual)"),
		stateCache: fs.Bool("state-cache", true, "when a search's visited states would pass its part of --max-memory, or the process nears the budget, go on depth-first with the states of its path kept and the others in a bounded cache, explored again when evicted: an answer instead of UNKNOWN, at the cost of time (docs/design.md, \"Searching beyond the memory budget\"); --state-cache=false: UNKNOWN there"),
		strict:     fs.Bool("strict-conflicts", false, strictFlagHelp),
		commuting:  fs.Bool("commuting-atomics", false, commutingAliasHelp),
		explore:    ptr(cycles.Shared),
		shard:      addShardFlags(fs, true),
		lang:       fs.String("lang", "", langFlagHelp),
		c:          addCFlags(fs),
	}
	fs.Var(b.explore, "exploration", "how the cycle types are searched: shared (one search carrying them all, helped by per-type searches in order, beside it with --jobs > 1 and by turns with one job; --max-states then bounds that one search) or per-type (one search per cycle type)")
	return b
}

func (b *budgetFlags) options() cycles.Options {
	return cycles.Options{Jobs: *b.jobs, MaxStates: *b.maxStates, Timeout: *b.timeout, NoSymmetry: *b.noSymmetry, DepthFirst: *b.depthFirst, Exploration: *b.explore,
		StateCache: *b.stateCache, Commuting: !*b.strict, MaxBytes: searchBytes(*b.maxMemory), BudgetBytes: *b.maxMemory << 20}
}

// The flags decide, cycles and repair share, which each of their modes
// reads unless the table says otherwise.
const budgetFlagNames = "n max-states timeout jobs max-memory no-symmetry exploration state-cache strict-conflicts commuting-atomics json lang"

// strictFlagHelp is the help of --strict-conflicts (decide, cycles,
// repair, merge, difftest); commutingAliasHelp that of the alias kept
// from when the commuting relation was opt-in.
const (
	strictFlagHelp     = "the paper's conflict relation: every two accesses to one cell, one a write, conflict, two non-fetching atomic adds to a counter included; without it, robustness is taken modulo commuting updates: non-fetching atomics of one kind on one cell (adds and incs of one sign, signal adds; ands; ors; xors) do not conflict (docs/deviations.md, entry 14)"
	commutingAliasHelp = "the default (robustness modulo commuting updates); accepted and without effect, kept from when it was not the default; an error with --strict-conflicts"
)

// conflictFlagsError is the usage error of --strict-conflicts given with
// --commuting-atomics, which asks for the other relation; nil otherwise.
func conflictFlagsError(strict, commuting bool) error {
	if strict && commuting {
		return fmt.Errorf("--strict-conflicts and --commuting-atomics ask for two conflict relations: give one (--commuting-atomics is the default)")
	}
	return nil
}

// job is a checked request: the program and the Ns to decide.
type job struct {
	copt cfront.Options // the C front end's flags (cflags.go)
	cmd  string
	mode string // the key of the command's mode (modes.go)
	file string
	prog *pgas.Program
	// perN, for a C program whose memory depends on N, is its
	// translation for each N of lo..hi (pern.go); prog is then lo's.
	perN   map[int]*pgas.Program
	src    []byte
	lo, hi int
	opt    cycles.Options
	// onlyFor, when set, gives the cycle types to search for each N.
	onlyFor func(n int) []cycles.CycleType
	// With --shard: the part, the costs to balance by and the settings
	// every shard of the run must share.
	shard     shard.Shard
	costs     map[string]int64
	costsHash string
	settings  []string
	stopped   string // why decideEach stopped early (a signal, the memory guard)
	// frontTime is what the C front end took: the first N's --timeout
	// is charged with it, so that --timeout bounds the whole command for
	// one N (0 for a .pgas program, whose compiler is not timed).
	frontTime time.Duration
}

// inputError is an error in the user's input, with positions when the
// compiler gave them.
type inputError struct {
	err  error
	list pgas.ErrorList
	code int // exitUsage, or exitUnknown (a budget stopped the front end), or exitInternal
}

// verdict is the --json verdict and exit code of an input that could not
// be decided.
func (ie *inputError) verdict() (string, int) {
	switch ie.code {
	case exitUnknown:
		return "unknown", exitUnknown
	case exitInternal:
		return "internal error", exitInternal
	}
	return "input error", exitUsage
}

// prepare validates flags and arguments, loads the program and checks it
// for every N, so that nothing long starts on input that will fail later.
// On failure it prints the message and returns the exit code.
func prepare(cmd string, fs *pflag.FlagSet, b *budgetFlags, modes modeTable, args []string, stderr io.Writer) (*job, *inputError, int) {
	if done, code := parseFlags(fs, args); done {
		return nil, nil, code
	}
	usageErr := func(format string, a ...any) (*job, *inputError, int) {
		return nil, nil, usageError(stderr, cmd, fmt.Errorf(format, a...))
	}
	switch {
	case fs.NArg() == 0:
		return usageErr("missing FILE")
	case fs.NArg() > 1:
		return usageErr("want exactly one FILE, got %d arguments", fs.NArg())
	case *b.n == "":
		return usageErr("missing -n N (the number of ranks, or a range like 2..4)")
	case *b.jobs < 1 || *b.jobs > 1024:
		return usageErr("--jobs must be in 1..1024")
	case *b.maxMemory < 1 || *b.maxMemory > 1<<20:
		return usageErr("--max-memory must be in 1..1048576 (MiB)")
	case *b.maxStates < 0 || *b.timeout < 0:
		return usageErr("--max-states and --timeout must not be negative")
	case *b.strict && *b.commuting:
		return usageErr("%v", conflictFlagsError(true, true))
	}
	m, err := modes.resolve(fs)
	if err != nil {
		return usageErr("%v", err)
	}
	copt, err := b.c.options(fs.Arg(0))
	if err != nil {
		return usageErr("%v", err)
	}
	lo, hi, err := parseRange(*b.n)
	if err != nil {
		return usageErr("%v", err)
	}
	j := &job{cmd: cmd, mode: m.key, file: inputName(fs.Arg(0)), lo: lo, hi: hi, opt: b.options(), copt: copt}
	fail := func(err error) (*job, *inputError, int) {
		ie := &inputError{err: err}
		if !errors.As(err, &ie.list) {
			// No position to give: say which file it is about.
			ie.err = fmt.Errorf("%s: %w", j.file, err)
		}
		fmt.Fprintln(stderr, ie.err)
		return j, ie, exitUsage
	}
	if j.shard, err = b.shard.parse(os.Getenv); err != nil {
		return usageErr("%v", err)
	}
	if *b.shard.costs != "" {
		if j.costs, j.costsHash, err = readShardCosts(*b.shard.costs); err != nil {
			return usageErr("%v", err)
		}
	}
	if j.shard.Count > 0 {
		j.settings = settingsOf(fs, "shard-costs")
	}
	// The budgets cover reading and compiling (issues 29 and 34); the
	// searches start their own guards.
	start := time.Now()
	fb := frontBudget{timeout: *b.timeout, maxMemory: *b.maxMemory, lang: *b.lang, n: singleN(lo, hi), c: copt}
	j.prog, j.src, err = loadGuarded(fs.Arg(0), fb)
	if (needsPerN(err, lo, hi) || err == nil && lo < hi && cfront.BuffersPerN(j.prog)) && hi <= maxDecideRanks && (cmd == "decide" || cmd == "cycles") && j.shard.Count == 0 {
		// (repair reads one program; merge recompiles the shards' one
		// program: both keep the refusal that asks for one N)
		if j.perN, err = translatePerN(j.file, j.src, fb, lo, hi); err == nil {
			j.prog = j.perN[lo]
		}
	}
	if err != nil {
		return j, frontError(cmd, j.file, err, stderr), frontCode(err)
	}
	if j.prog.Dialect == "c" {
		j.frontTime = time.Since(start)
	}
	if hi > maxDecideRanks {
		// Before the program is checked for N: one limit, one message.
		return usageErr("-n %s: %s supports at most N = %d (the limit of the state encoding)", *b.n, cmd, maxDecideRanks)
	}
	compiled := compileGuard(*b.maxMemory)
	defer compiled()
	for n := lo; n <= hi; n++ {
		p := j.progFor(n)
		if err := pgas.CheckN(p, n); err != nil {
			return fail(err)
		}
		if _, err := normalform.New(p, n); err != nil {
			return fail(fmt.Errorf("N = %d: %w", n, err))
		}
		if p.Dialect == "c" {
			p.Warnings = append(p.Warnings, cfront.PEWarnings(p, n)...)
		}
	}
	if over := compiled(); over != nil {
		fmt.Fprintf(stderr, "pgasrob %s: %s: UNKNOWN: %v while checking the program for N\n", cmd, j.file, over)
		return nil, nil, exitUnknown
	}
	return j, nil, 0
}

// frontError prints why the program could not be read or compiled and
// returns it as an inputError: a budget's end is UNKNOWN (exit 3), a fault
// of the front end an internal error (exit 4), anything else an input
// error (exit 2) with its positions.
func frontError(cmd, file string, err error, stderr io.Writer) *inputError {
	ie := &inputError{err: err, code: frontCode(err)}
	var pe *os.PathError
	switch {
	case ie.code == exitUnknown:
		fmt.Fprintf(stderr, "pgasrob %s: %s: %v\n", cmd, file, err)
	case errors.As(err, &pe):
		fmt.Fprintf(stderr, "pgasrob %s: %v\n", cmd, err)
	case errors.As(err, &ie.list):
		fmt.Fprintln(stderr, err)
	default:
		if !strings.HasPrefix(err.Error(), file+":") {
			ie.err = fmt.Errorf("%s: %w", file, err)
		}
		fmt.Fprintln(stderr, ie.err)
	}
	return ie
}

// frontCode is the exit code of an error of the front end.
func frontCode(err error) int {
	var bs *budgetStop
	var ie *cfront.InternalError
	switch {
	case errors.As(err, &bs):
		return exitUnknown
	case errors.As(err, &ie):
		return exitInternal
	}
	return exitUsage
}

// decideEach runs cycles.Decide for every N of the job, calling done after
// each. It stops after an internal error: the procedure is then not to be
// trusted for the other N either. SIGINT/SIGTERM stop the running search,
// which then reports UNKNOWN, and the Ns after it are not started.
func (j *job) decideEach(stderr io.Writer, done func(outcome)) []outcome {
	ctx, stop := interruptContext()
	defer stop()
	pressure := new(automata.Pressure)
	ctx, unguard := pressureGuard(ctx, j.opt.BudgetBytes>>20, pressure)
	defer unguard()
	var all []outcome
	for n := j.lo; n <= j.hi; n++ {
		opt := j.opt
		opt.Context, opt.Pressure = ctx, pressure
		if n == j.lo && opt.Timeout > 0 && j.frontTime > 0 {
			opt.Timeout = max(time.Nanosecond, opt.Timeout-j.frontTime)
		}
		if j.onlyFor != nil {
			opt.Only = j.onlyFor(n)
		}
		opt.Shard, opt.Costs = j.shard, costsFor(j.costs, n)
		prog := newProgress(stderr)
		var sc int64 // the run-time error check's states, which the final count includes
		opt.Progress = func(p cycles.Progress) {
			// cycles.Decide serialises its calls.
			s := progressStep{cmd: j.cmd, context: fmt.Sprintf("N = %d", n), what: "cycle types", done: p.TypesDone, total: p.TypesTotal, states: sc + p.States, elapsed: p.Elapsed}
			if p.RuntimeCheck {
				sc = p.States
				s.what, s.total, s.states = "run-time error check (sequentially consistent runs)", 0, p.States
			}
			prog.step(s)
		}
		var res *cycles.Result
		var err error
		var p *pgas.Program
		p, res, err = decideWidened(j.progFor(n), n, opt)
		j.setProg(n, p)
		prog.clear()
		o := outcomeOf(n, res, err)
		all = append(all, o)
		done(o)
		if o.Code == exitInternal || ctx.Err() != nil {
			break
		}
	}
	if ctx.Err() != nil {
		j.stopped = automata.StopReason(ctx)
	}
	return all
}

// outcomeOf checks a decision's result: an error or an incoherent result
// is an internal error (exit 4), the procedure's fault, not the input's.
func outcomeOf(n int, res *cycles.Result, err error) outcome {
	if err == nil {
		err = incoherent(res)
	}
	o := outcome{N: n, Res: res, Err: err}
	if err != nil {
		o.Res = nil
		if !errors.Is(err, cycles.ErrInternal) {
			o.Err = fmt.Errorf("%w: %v", cycles.ErrInternal, err)
		}
		o.Code = exitInternal
	} else {
		o.Code = codeOf(res.Verdict)
	}
	return o
}

// safeDecide turns a panic of the procedure (in the calling goroutine)
// into an internal error, so that the user gets exit 4 and a message to
// report instead of a crash.
func safeDecide(p *pgas.Program, n int, opt cycles.Options) (res *cycles.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("%w: panic: %v\n%s", cycles.ErrInternal, v, debug.Stack())
		}
	}()
	return decideFunc(p, n, opt)
}

// incoherent catches a result that contradicts itself, which the renderers
// could not show without guessing: a verdict without the evidence it needs.
func incoherent(r *cycles.Result) error {
	switch {
	case r == nil:
		return fmt.Errorf("%w: no result", cycles.ErrInternal)
	case r.Verdict == cycles.NotRobust && (r.Witness == nil || len(r.Witness.HB) == 0):
		return fmt.Errorf("%w: NOT ROBUST without a certified witness", cycles.ErrInternal)
	case r.Verdict == cycles.RunError && (r.RunError == nil || r.RunError.Err == nil):
		return fmt.Errorf("%w: run-time error without its description", cycles.ErrInternal)
	case r.Verdict < cycles.Robust || r.Verdict > cycles.RunError:
		return fmt.Errorf("%w: unknown verdict %d", cycles.ErrInternal, int(r.Verdict))
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// codeOf maps a verdict to the exit code of one N.
func codeOf(v cycles.Verdict) int {
	switch v {
	case cycles.NotRobust:
		return exitNotRobust
	case cycles.Unknown:
		return exitUnknown
	case cycles.RunError:
		return exitUsage
	}
	return exitRobust
}

// overallCode combines the codes of several N. A failure of the tool
// dominates; then a program error (a reachable run-time error is a bug in
// the input, whatever other N say); then a violation, which is definite
// even if other N are unknown; then unknown.
func overallCode(codes []int) int {
	best := exitRobust
	rank := map[int]int{exitRobust: 0, exitUnknown: 1, exitNotRobust: 2, exitUsage: 3, exitInternal: 4}
	for _, c := range codes {
		if rank[c] > rank[best] {
			best = c
		}
	}
	return best
}

func overallVerdict(code int) string {
	switch code {
	case exitNotRobust:
		return "not robust"
	case exitUnknown:
		return "unknown"
	case exitUsage:
		return "run-time error"
	case exitInternal:
		return "internal error"
	}
	return "robust"
}
