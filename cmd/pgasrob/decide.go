package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

func init() {
	register(subcommand{name: "decide", summary: "decide robustness of a .pgas program for N ranks (Theorem 16)", run: runDecide})
}

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
	explore    *cycles.Exploration
	shard      *shardFlags
}

func addBudgetFlags(fs *pflag.FlagSet) *budgetFlags {
	b := &budgetFlags{
		n:          fs.StringP("n", "n", "", "number of ranks `N`, or a range LO..HI to decide each N in it (required)"),
		maxStates:  fs.Int64("max-states", 0, "bound on the states of each cycle type's search (0: none)"),
		timeout:    fs.Duration("timeout", 0, "bound on the time spent on each N, e.g. 30s or 5m (0: none)"),
		jobs:       fs.Int("jobs", runtime.NumCPU(), "cycle types searched in parallel"),
		maxMemory:  fs.Int64("max-memory", defaultMemoryMiB(), memoryFlagHelp),
		noSymmetry: fs.Bool("no-symmetry", false, "search every cycle type, even those a renaming of ranks maps onto one already searched, and each without the renamings that keep it"),
		depthFirst: fs.Bool("depth-first", false, "search each cycle type depth-first, stopping at its first violation (decide without --all; the witness is shortened and certified as usual)"),
		explore:    ptr(cycles.Shared),
		shard:      addShardFlags(fs, true),
	}
	fs.Var(b.explore, "exploration", "how the cycle types are searched: shared (one search carrying them all, helped by per-type searches in order, beside it with --jobs > 1 and by turns with one job; --max-states then bounds that one search) or per-type (one search per cycle type)")
	return b
}

func (b *budgetFlags) options() cycles.Options {
	return cycles.Options{Jobs: *b.jobs, MaxStates: *b.maxStates, Timeout: *b.timeout, NoSymmetry: *b.noSymmetry, DepthFirst: *b.depthFirst, Exploration: *b.explore,
		MaxBytes: searchBytes(*b.maxMemory), BudgetBytes: *b.maxMemory << 20}
}

// job is a checked request: the program and the Ns to decide.
type job struct {
	cmd    string
	file   string
	prog   *pgas.Program
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
}

// inputError is an error in the user's input, with positions when the
// compiler gave them.
type inputError struct {
	err  error
	list pgas.ErrorList
}

// prepare validates flags and arguments, loads the program and checks it
// for every N, so that nothing long starts on input that will fail later.
// On failure it prints the message and returns the exit code.
func prepare(cmd string, fs *pflag.FlagSet, b *budgetFlags, args []string, stderr io.Writer) (*job, *inputError, int) {
	if done, code := parseFlags(fs, args); done {
		return nil, nil, code
	}
	usageErr := func(format string, a ...any) (*job, *inputError, int) {
		fmt.Fprintf(stderr, "pgasrob %s: %s\nRun \"pgasrob %s --help\" for usage.\n", cmd, fmt.Sprintf(format, a...), cmd)
		return nil, nil, exitUsage
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
	}
	lo, hi, err := parseRange(*b.n)
	if err != nil {
		return usageErr("%v", err)
	}
	j := &job{cmd: cmd, file: fs.Arg(0), lo: lo, hi: hi, opt: b.options()}
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
		if j.shard.Count == 0 {
			return usageErr("--shard-costs needs --shard")
		}
		if j.costs, j.costsHash, err = readShardCosts(*b.shard.costs); err != nil {
			return usageErr("%v", err)
		}
	}
	if j.shard.Count > 0 {
		if d := fs.Lookup("dot"); d != nil && d.Changed {
			return usageErr("--dot is for the merged result: give it to pgasrob merge")
		}
		j.settings = settingsOf(fs, "shard-costs")
	}
	if j.src, err = pgas.ReadSource(j.file); err == nil {
		j.prog, err = pgas.Compile(j.file, j.src)
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "pgasrob %s: %v\n", cmd, err)
			return j, &inputError{err: err}, exitUsage
		}
		return fail(err)
	}
	if hi > maxDecideRanks {
		// Before the program is checked for N: one limit, one message.
		return usageErr("-n %s: %s supports at most N = %d (the limit of the state encoding)", *b.n, cmd, maxDecideRanks)
	}
	for n := lo; n <= hi; n++ {
		if err := pgas.CheckN(j.prog, n); err != nil {
			return fail(err)
		}
		if _, err := normalform.New(j.prog, n); err != nil {
			return fail(fmt.Errorf("N = %d: %w", n, err))
		}
	}
	return j, nil, 0
}

// decideEach runs cycles.Decide for every N of the job, calling done after
// each. It stops after an internal error: the procedure is then not to be
// trusted for the other N either. SIGINT/SIGTERM stop the running search,
// which then reports UNKNOWN, and the Ns after it are not started.
func (j *job) decideEach(stderr io.Writer, done func(outcome)) []outcome {
	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, j.opt.BudgetBytes>>20)
	defer unguard()
	var all []outcome
	for n := j.lo; n <= j.hi; n++ {
		opt := j.opt
		opt.Context = ctx
		if j.onlyFor != nil {
			opt.Only = j.onlyFor(n)
		}
		opt.Shard, opt.Costs = j.shard, costsFor(j.costs, n)
		prog := newProgress(stderr)
		opt.Progress = func(p cycles.Progress) {
			// cycles.Decide serialises its calls.
			if p.RuntimeCheck {
				prog.show("pgasrob %s: N = %d: run-time error check (sequentially consistent runs): %d states, %s states/s",
					j.cmd, n, p.States, human(p.StatesPerSecond()))
				return
			}
			prog.show("pgasrob %s: N = %d: %d states, %s states/s, cycle types %d/%d done",
				j.cmd, n, p.States, human(p.StatesPerSecond()), p.TypesDone, p.TypesTotal)
		}
		res, err := safeDecide(j.prog, n, opt)
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

const decideDescription = `Decide whether the .pgas program in FILE is robust for N ranks: whether
every computation under the PGAS memory model (asynchronous remote reads
and writes through FIFO queues, Table 1 of pgas-theory-full.md) has the
happens-before relation of a sequentially consistent one. The procedure is
Theorem 16 of the paper: for each cycle type, search the product of the
marked normal-form automaton Y^M(P,N) and the cycle automaton Z^cyc.

ROBUST prints one line per N with statistics. NOT ROBUST prints the cycle
type, the violating computation in normal form τ1·τ2·τ3·τ4 event by event
(kind, rank, cell, source line, enter/leave mark) and its happens-before
cycle edge by edge; every such witness has been replayed in the plain
semantics and its cycle recomputed from the definitions before it is shown.
UNKNOWN says which budget ran out and what was explored. A reachable
run-time error (a value, address, rank or queue out of range) is reported
with a sequentially consistent computation that reaches it.

With a range -n LO..HI each N is decided in turn. The exit code is the
most severe over all N: 4 internal error, then 2 run-time error, then 1
not robust, then 3 unknown, then 0 robust. See docs/cli.md.`

// decideCmd is the flag set of decide; merge parses a shard's settings
// with it again.
type decideCmd struct {
	fs     *pflag.FlagSet
	b      *budgetFlags
	all    *bool
	asJSON *bool
	dot    *string
	proc   *string
	after  *time.Duration
	via    *string
}

func newDecideCmd(stderr io.Writer) *decideCmd {
	fs := newFlags("decide", "decide FILE -n N|LO..HI [flags]", decideDescription, exitsVerdict, stderr)
	c := &decideCmd{fs: fs, b: addBudgetFlags(fs)}
	c.all = fs.Bool("all", false, "search every cycle type instead of stopping at the first violation")
	c.asJSON = fs.Bool("json", false, "print one JSON object (schema "+decideSchema+", docs/cli.md) instead of text")
	c.dot = fs.String("dot", "", "write the happens-before cycle of a violation as a Graphviz graph to `FILE` (with a range: FILE-N.ext per N)")
	c.proc = fs.String("procedure", "auto", "who decides: automata (the cycle-type search), oracle (direct exploration of X(P,N)), or auto (the search, joined after a second by the oracle; the first exact answer wins)")
	c.after = fs.Duration("oracle-after", cycles.DefaultOracleDelay, "with --procedure auto: the search's head start before the oracle joins it (0s: at once; programs heavy in waits and queues often suit the oracle)")
	c.via = fs.String("via", "exact", "route: exact (the procedure of Theorem 16) or instrumentation (pgasrob translate, then tso --model pso: it finds violations only, docs/translate.md)")
	return c
}

func runDecide(args []string, stdout, stderr io.Writer) int {
	c := newDecideCmd(stderr)
	j, ie, code := prepare("decide", c.fs, c.b, args, stderr)
	if j == nil {
		return code
	}
	pr := &decidePrinter{stdout: stdout, stderr: stderr, file: j.file, prog: j.prog, asJSON: *c.asJSON, dot: *c.dot, isRange: j.lo < j.hi,
		out: decideJSON{Schema: decideSchema, File: j.file, NArg: *c.b.n, Results: []nResultJSON{}}}
	if ie != nil {
		if *c.asJSON {
			pr.out.Verdict, pr.out.ExitCode, pr.out.Errors = "input error", exitUsage, errorsToJSON(j.file, ie)
			writeJSON(stdout, pr.out)
		}
		return exitUsage
	}
	if *c.via != "exact" {
		return runDecideVia(j, c, stdout, stderr)
	}
	j.opt.All = *c.all
	proc, err := cycles.ParseProcedure(*c.proc)
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob decide: --procedure: %v\nRun \"pgasrob decide --help\" for usage.\n", err)
		return exitUsage
	}
	j.opt.Procedure = proc
	if *c.after < 0 {
		fmt.Fprintf(stderr, "pgasrob decide: --oracle-after must not be negative\nRun \"pgasrob decide --help\" for usage.\n")
		return exitUsage
	}
	j.opt.OracleDelay = max(*c.after, time.Nanosecond)
	if j.shard.Count > 0 {
		return j.runShard(stdout, stderr)
	}
	pr.out.Program = j.prog.Name
	j.decideEach(stderr, pr.add)
	return pr.finish()
}

// decidePrinter prints decide's outcomes as they come, for a live run
// and for a merge of shards alike.
type decidePrinter struct {
	stdout, stderr io.Writer
	file           string
	prog           *pgas.Program
	asJSON         bool
	dot            string
	isRange        bool
	out            decideJSON
	dotFailed      bool
	codes          []int
}

func (pr *decidePrinter) add(o outcome) {
	pr.codes = append(pr.codes, o.Code)
	if o.Err != nil {
		fmt.Fprintf(pr.stderr, "pgasrob decide: N = %d: %v\n", o.N, o.Err)
	}
	dotFile := ""
	if pr.dot != "" && o.Res != nil && o.Res.Witness != nil {
		dotFile = dotPath(pr.dot, o.N, pr.isRange)
		if err := os.WriteFile(dotFile, []byte(witnessDot(pr.prog, pr.file, o.N, o.Res.Witness)), 0o644); err != nil {
			fmt.Fprintf(pr.stderr, "pgasrob decide: %v\n", err)
			pr.dotFailed, dotFile = true, ""
		}
	}
	if pr.asJSON {
		r := resultToJSON(pr.prog, o)
		r.DotFile = dotFile
		pr.out.Results = append(pr.out.Results, r)
		return
	}
	writeText(pr.stdout, pr.file, pr.prog, o)
	if dotFile != "" {
		fmt.Fprintf(pr.stdout, "  Graphviz graph of the cycle written to %s\n", dotFile)
	}
}

func (pr *decidePrinter) finish() int {
	code := overallCode(pr.codes)
	if pr.dotFailed && code != exitInternal {
		code = exitUsage
	}
	if pr.asJSON {
		pr.out.Program = pr.prog.Name
		pr.out.Verdict, pr.out.ExitCode = overallVerdict(overallCode(pr.codes)), code
		writeJSON(pr.stdout, pr.out)
	}
	return code
}

// decideJSON is the --json output of "pgasrob decide" (docs/cli.md).
type decideJSON struct {
	Schema   string        `json:"schema"`
	File     string        `json:"file"`
	Program  string        `json:"program"`
	NArg     string        `json:"n"`
	Results  []nResultJSON `json:"results"`
	Verdict  string        `json:"verdict"`
	ExitCode int           `json:"exit_code"`
	Errors   []checkError  `json:"errors,omitempty"`
}

// errorsToJSON lists input errors with their positions (0 when unknown).
func errorsToJSON(file string, ie *inputError) []checkError {
	if len(ie.list) == 0 {
		return []checkError{{File: file, Msg: ie.err.Error()}}
	}
	var out []checkError
	for _, e := range ie.list {
		out = append(out, checkError{e.Pos.File, e.Pos.Line, e.Pos.Col, e.Msg})
	}
	return out
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
