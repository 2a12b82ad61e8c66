package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

func init() {
	register(subcommand{name: "tso", summary: "decide robustness of a Trencher-format program against TSO or PSO", run: runTSO})
}

const tsoDescription = `Decides whether the program in FILE (Trencher's input format, see
docs/tso.md) is robust against the TSO or PSO memory model: whether every
relaxed computation has the happens-before relation of some sequentially
consistent one. Each attack (attacker thread, delayed store, last action)
is either refuted by a syntactic check or decided by SC reachability in the
program instrumented for it; attacks run in parallel.

For NOT ROBUST it prints the feasible attack and a relaxed computation of
the program (issue and store actions, the delayed store marked) with its
happens-before cycle, after replaying it in the relaxed semantics.

With --fences it also computes a minimum set of mfence positions (Section 7
of the TSO paper: a fence at a control location runs before every
instruction leaving it) that makes the program robust, and prints it only
after re-checking the fenced program and finding it robust. --timeout then
bounds the check and the fence search each. The exit code is that of the
program as given.

With --parameterized, threads marked "thread NAME *" stand for any number
of copies, and the answer holds for every instance (Section 6 of the TSO
paper: per attack, coverability in a counter abstraction). NOT ROBUST comes
with the copies needed and a replayed computation of that instance; ROBUST
with the plain checker's verdicts on the instances with 1..--instances
copies as cut-off evidence.

--criterion persistence or trf decides another criterion on the same
pipeline (docs/criteria.md): persistence (every TSO run has the program
order and store order of an SC run) or triangular-race freedom (no SC run
has a triangular data race). --fences then makes the program satisfy that
criterion. --criterion all takes files and directories and prints one
table of every criterion on every file.`

// tsoCmd is the flag set of tso; merge parses a shard's settings with it
// again.
type tsoCmd struct {
	fs                 *pflag.FlagSet
	model, dot         *string
	cost, write        *string
	asJSON, all, fence *bool
	param              *bool
	flatten            *bool
	criterion          *string
	instances          *int
	maxStates, maxMem  *int64
	combined           *int64
	timeout            *time.Duration
	jobs               *int
	shard              *shardFlags
}

func newTSOCmd(stderr io.Writer) *tsoCmd {
	fs := newFlags("tso", "tso FILE [flags]", tsoDescription, exitsTSO, stderr)
	return &tsoCmd{fs: fs,
		model:     fs.String("model", "tso", "memory model: tso or pso"),
		asJSON:    fs.Bool("json", false, "print the result as JSON"),
		dot:       fs.String("dot", "", "write the program (and the witness's attack) as a Graphviz graph to this file"),
		maxStates: fs.Int64("max-states", 0, "bound on the states of each attack's search (0: none)"),
		combined:  fs.Int64("combined-states", 0, "states of the combined first search of all attacks at once (0: the default, 131072; -1: none, attacks searched in order only); docs/tso.md"),
		timeout:   fs.Duration("timeout", 0, "bound on the whole check, e.g. 30s (0: none)"),
		maxMem:    fs.Int64("max-memory", defaultMemoryMiB(), memoryFlagHelp),
		jobs:      fs.Int("jobs", runtime.NumCPU(), "attacks checked in parallel"),
		all:       fs.Bool("all", false, "decide every attack instead of stopping at the first feasible one"),
		fence:     fs.Bool("fences", false, "also compute a minimum certified set of mfence positions making the program robust"),
		cost:      fs.String("cost", "uniform", "with --fences: minimise the total cost of the fences, from `FILE` (lines THREAD LABEL COST, * for any; docs/tso.md), instead of their number"),
		write:     fs.String("write", "", "with --fences: write the fenced program in the input format to `FILE` (comments kept), re-checked before it is written"),
		param:     fs.Bool("parameterized", false, "decide robustness of every instance: threads marked \"thread NAME *\" run in any number of copies (TSO only)"),
		criterion: fs.String("criterion", "robustness", "what to decide: robustness, persistence or trf (triangular-race freedom); all: every criterion on every FILE (a directory: its *.txt files), as one table; docs/criteria.md"),
		flatten:   fs.Bool("flatten", false, "with --criterion persistence: decide through the flattening abstraction (Section 10 of the persistence paper); threads marked \"thread NAME *\" then stand for any number of copies; docs/criteria.md"),
		instances: fs.Int("instances", 3, "with --parameterized: cut-off evidence, the plain check of the instances with 1..`K` copies of each marked thread (0: none)"),
		shard:     addShardFlags(fs, false),
	}
}

// The modes of tso, by precedence. Every mode reads the budgets and
// --json; what else each reads is listed here and nowhere else.
const (
	tsoTable   = "table"   // --criterion all: every criterion on every file (tso_criteria.go)
	tsoParam   = "param"   // --parameterized: every number of copies (tso_param.go)
	tsoFlatten = "flatten" // --flatten: persistence by the flattening abstraction (tso_flatten.go)
	tsoShard   = "shard"   // --shard: part of the attacks, as a shard file
	tsoFences  = "fences"  // --fences: the check, then a minimum certified fence set (tso_fences.go)
	tsoCheck   = "check"   // the check of one criterion
)

// --combined-states is a budget of the check's search; the modes that run
// no robustness check accept it without effect.
const tsoBudgets = "json max-states timeout max-memory jobs combined-states"

var tsoModes = modeTable{
	cmd:     "tso",
	needs:   map[string]string{"cost": "fences", "write": "fences", "instances": "parameterized"},
	choices: []string{"model", "criterion"},
	modes: []mode{
		{key: tsoTable, when: "criterion=all", name: "--criterion all", uses: flagList("criterion model fences", tsoBudgets)},
		{key: tsoParam, when: "parameterized", name: "--parameterized", uses: flagList("parameterized instances", tsoBudgets)},
		{key: tsoFlatten, when: "flatten", name: "--flatten", uses: flagList("flatten criterion all", tsoBudgets)},
		{key: tsoShard, when: "shard", name: "--shard", uses: flagList("shard model all", tsoBudgets),
			hints: map[string]string{"dot": "give --dot to pgasrob merge"}},
		{key: tsoFences, when: "fences", name: "--fences", uses: flagList("fences cost write model criterion all dot", tsoBudgets)},
		{key: tsoCheck, name: "the check", uses: flagList("model criterion all dot", tsoBudgets)},
	},
}

// tsoRequest is a tso command line once its mode is resolved and its
// values are checked.
type tsoRequest struct {
	mode  string
	files []string // the table's files and directories; one FILE otherwise
	model tsoprog.Model
	crit  tso.Criterion // not for the table, which decides them all
	opt   tso.Options   // without its context
}

// resolve checks the flags against the mode they select and reads their
// values; an error is a usage error.
func (c *tsoCmd) resolve(getenv func(string) string) (*tsoRequest, error) {
	m, err := tsoModes.resolve(c.fs)
	if err != nil {
		return nil, err
	}
	r := &tsoRequest{mode: m.key, files: c.fs.Args()}
	switch {
	case m.key == tsoTable && len(r.files) == 0:
		return nil, fmt.Errorf("--criterion all wants FILE or DIR arguments, got none")
	case m.key != tsoTable && len(r.files) != 1:
		return nil, fmt.Errorf("want exactly one FILE, got %d arguments", len(r.files))
	}
	if r.model, err = tsoprog.ParseModel(*c.model); err != nil {
		return nil, err
	}
	if *c.jobs < 1 || *c.maxMem < 1 || *c.maxStates < 0 || *c.timeout < 0 {
		return nil, fmt.Errorf("--jobs and --max-memory must be positive, --max-states and --timeout not negative")
	}
	r.opt = tso.Options{MaxStates: *c.maxStates, MaxBytes: searchBytes(*c.maxMem), BudgetBytes: *c.maxMem << 20,
		Timeout: *c.timeout, Jobs: *c.jobs, All: *c.all, CombinedStates: *c.combined}
	if r.opt.Shard, err = c.shard.parse(getenv); err != nil {
		return nil, err
	}
	if m.key != tsoTable {
		if r.crit, err = tso.ParseCriterion(*c.criterion); err != nil {
			return nil, err
		}
	}
	r.opt.Criterion = r.crit
	switch {
	case m.key == tsoFlatten && r.crit != tso.Persistence:
		return nil, fmt.Errorf("--flatten wants --criterion persistence")
	case r.crit != tso.Robustness && r.model != tsoprog.TSO:
		return nil, fmt.Errorf("--criterion %s is defined for TSO only (not with --model %s)", r.crit, strings.ToLower(r.model.String()))
	case *c.instances < 0:
		return nil, fmt.Errorf("--instances wants a number of copies >= 0")
	}
	return r, nil
}

func runTSO(args []string, stdout, stderr io.Writer) int {
	c := newTSOCmd(stderr)
	if done, code := parseFlags(c.fs, args); done {
		return code
	}
	r, err := c.resolve(os.Getenv)
	if err != nil {
		return usageError(stderr, "tso", err)
	}
	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, *c.maxMem)
	defer unguard()
	r.opt.Context = ctx
	// The budgets hold from here on: reading and compiling a large file
	// take time and memory too (issue 29).
	begun := time.Now()
	if r.mode == tsoTable {
		return runTSOCriteria(stdout, stderr, r, *c.fence, *c.asJSON)
	}
	file := inputName(r.files[0])
	src, prog, code := readTSOProgram(r.files[0], stderr)
	if prog == nil {
		return code
	}
	if r.opt.Timeout > 0 {
		// The check's time counts from the start, reading included.
		r.opt.Timeout = max(r.opt.Timeout-time.Since(begun), time.Nanosecond)
	}
	switch r.mode {
	case tsoFlatten:
		return runTSOFlatten(stdout, stderr, file, prog, r.opt, *c.asJSON)
	case tsoParam:
		return runTSOParam(stdout, stderr, file, prog, r.opt, *c.instances, *c.asJSON)
	}
	start := time.Now()
	progress := newProgress(stderr)
	opt := r.opt
	opt.Progress = func(done, total int, states int64) {
		progress.step(progressStep{cmd: "tso", what: "attacks searched", done: done, total: total, states: states})
	}
	res, err := tso.Check(prog, r.model, opt)
	progress.clear()
	if err != nil {
		// The flags were checked in resolve; this is a request the
		// checker knows it cannot take.
		fmt.Fprintln(stderr, "pgasrob tso:", err)
		return exitUsage
	}
	var fo *fenceOutput
	switch r.mode {
	case tsoShard:
		return writeTSOShard(stdout, stderr, c, r, file, src, res, start)
	case tsoFences:
		fo = &fenceOutput{costFile: *c.cost}
		if code := fo.search(prog, src, r.model, res, opt, *c.write, progress, stderr); code != 0 {
			return code
		}
	}
	return printTSO(stdout, stderr, file, prog, r.model, res, fo, *c.asJSON, *c.dot)
}

// readTSOProgram reads and parses FILE; on failure it prints the error,
// with a position, and returns the exit code.
func readTSOProgram(arg string, stderr io.Writer) ([]byte, *tsoprog.Program, int) {
	file := inputName(arg)
	src, err := readSource(arg)
	if err != nil {
		fmt.Fprintln(stderr, "pgasrob tso:", err)
		return nil, nil, exitUsage
	}
	prog, err := tsoprog.ParseProgram(file, src)
	if err != nil {
		var pe *tsoprog.Error
		if !errors.As(err, &pe) {
			fmt.Fprintf(stderr, "%s:1:1: %v\n", file, err)
		} else {
			fmt.Fprintln(stderr, err)
		}
		return nil, nil, exitUsage
	}
	return src, prog, 0
}

// writeTSOShard writes the shard file of a check of part of the attacks.
func writeTSOShard(stdout, stderr io.Writer, c *tsoCmd, r *tsoRequest, file string, src []byte, res *tso.Result, start time.Time) int {
	s := newShardJSON("tso", r.opt.Shard, file, src, settingsOf(c.fs))
	s.TSO = encodeTSO(res)
	stopped := ""
	if r.opt.Context.Err() != nil {
		stopped = automata.StopReason(r.opt.Context)
	}
	if res.WitnessErr != nil {
		fmt.Fprintf(stderr, "pgasrob tso: internal error: %v\n", res.WitnessErr)
	}
	return s.finish(stdout, start, stopped, res.WitnessErr != nil)
}

// printTSO prints a check (and fence search) and returns the exit code,
// for a live run and for a merge of shards alike.
func printTSO(stdout, stderr io.Writer, file string, prog *tsoprog.Program, m tsoprog.Model, res *tso.Result, fo *fenceOutput, asJSON bool, dot string) int {
	var fr *tso.FenceResult
	if fo != nil {
		fr = fo.fr
	}
	dotFailed := false
	if dot != "" {
		// As in decide: the verdict is still printed, the exit code says
		// the graph is missing.
		if err := writeOutput(dot, []byte(tsoDot(prog, res)), stdout, file); err != nil {
			fmt.Fprintln(stderr, "pgasrob tso:", err)
			dotFailed = true
		}
	}
	code := exitRobust
	switch res.Verdict {
	case tsoprog.NotRobust:
		code = exitNotRobust
		if res.WitnessErr != nil {
			code = exitInternal
		}
	case tsoprog.Unknown:
		code = exitUnknown
	}
	if fr != nil && fr.Verdict != tsoprog.Robust && code != exitInternal {
		code = exitUnknown
	}
	if dotFailed && code != exitInternal {
		code = exitUsage
	}
	if asJSON {
		out := tsoResultJSON(prog, res)
		out.Schema = tsoSchema
		out.ExitCode = &code
		if fr != nil {
			out.Fences = tsoFencesJSON(prog, fr)
			out.Fences.CostFile, out.Fences.Written = fo.costName(), fo.written
		}
		writeJSON(stdout, out)
		return code
	}
	fmt.Fprintf(stdout, "%s: %s under %s\n", file, res.Criterion.VerdictString(res.Verdict), m)
	if res.Verdict == tsoprog.Unknown {
		fmt.Fprintf(stdout, "reason: %s\n", res.Reason)
	}
	if res.Criterion == tso.Robustness {
		fmt.Fprintf(stdout, "attacker: %s; ", res.Attacker)
	}
	fmt.Fprintf(stdout, "%s: %d generated, %d refuted syntactically, %d refuted by search, %d feasible",
		patternNoun(res.Criterion), res.Generated, res.RefutedSyntactic, res.RefutedSearch, res.Found)
	if res.Undecided+res.Skipped > 0 {
		fmt.Fprintf(stdout, ", %d undecided, %d not started", res.Undecided, res.Skipped)
	}
	fmt.Fprintf(stdout, "\nsearch: %d states, %.0f states/s, %.1f bytes/state, %v wall\n",
		res.Stats.States, res.Stats.StatesPerSecond(), res.Stats.BytesPerState(), res.Elapsed.Round(time.Millisecond))
	if res.WitnessErr != nil {
		fmt.Fprintf(stderr, "pgasrob tso: internal error: %v\n", res.WitnessErr)
	}
	if res.Witness != nil {
		fmt.Fprint(stdout, res.Witness.Format(prog))
	}
	if res.WitnessWithheld != "" {
		fmt.Fprintf(stdout, "witness withheld: %s\n", res.WitnessWithheld)
	}
	if fr != nil {
		printFences(stdout, prog, m, fr, fo.costs)
		if fo.written != "" {
			fmt.Fprintf(stdout, "fenced program written to %s (re-checked: %s under %s)\n", fo.written, fr.Certificate.Criterion.VerdictString(fr.Certificate.Verdict), m)
		}
	}
	return code
}

func printFences(w io.Writer, p *tsoprog.Program, m tsoprog.Model, fr *tso.FenceResult, costs *tso.Costs) {
	if fr.Verdict != tsoprog.Robust {
		fmt.Fprintf(w, "fences: UNKNOWN after %d rounds: %s\n", fr.Rounds, fr.Reason)
		return
	}
	c := fr.Certificate
	if costs == nil {
		fmt.Fprintf(w, "fences: %d (minimum), found in %d rounds\n", len(fr.Fences), fr.Rounds)
	} else {
		fmt.Fprintf(w, "fences: %d of total cost %d (minimum cost), found in %d rounds\n", len(fr.Fences), fr.Cost, fr.Rounds)
	}
	for _, f := range tsoFencesJSON(p, fr).Fences {
		fmt.Fprintf(w, "  mfence in %s at %s", f.Thread, f.Location)
		if costs != nil {
			fmt.Fprintf(w, " [cost %d]", costs.Of(p, tso.Fence{Thread: f.thread, Label: f.label}))
		}
		if f.Line > 0 {
			fmt.Fprintf(w, " (%s:%d: before %s)", p.File, f.Line, f.Before)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "certified: the fenced program is %s under %s (%d %s: %d refuted syntactically, %d by search; %d states)\n",
		c.Criterion.VerdictString(c.Verdict), m, c.Generated, patternNoun(c.Criterion), c.RefutedSyntactic, c.RefutedSearch, c.Stats.States)
}

// tsoDot renders each thread as a cluster of its control states; the
// attack of a witness, if any, is drawn in red.
func tsoDot(p *tsoprog.Program, r *tso.Result) string {
	var b strings.Builder
	b.WriteString("digraph program {\n  rankdir=TB;\n  node [shape=circle, fontsize=10];\n  edge [fontsize=9];\n")
	for ti, th := range p.Threads {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%q;\n", ti, th.Name)
		for qi, q := range th.Labels {
			shape := ""
			if qi == th.Init {
				shape = ", shape=doublecircle"
			}
			fmt.Fprintf(&b, "    n%d_%d [label=%q%s];\n", ti, qi, q, shape)
		}
		for ki, t := range th.Trans {
			attr := ""
			if w := r.Witness; w != nil && w.Attack.Thread == ti && (w.Attack.Store == ki || w.Attack.Last == ki) {
				attr = ", color=red, fontcolor=red, penwidth=2"
			}
			fmt.Fprintf(&b, "    n%d_%d -> n%d_%d [label=%q%s];\n", ti, t.From, ti, t.To, t.Text, attr)
		}
		b.WriteString("  }\n")
	}
	if w := r.Witness; w != nil && len(w.Cycle) > 0 {
		// The happens-before cycle: one box per event it passes through,
		// tied (dotted) to the control state its instruction leaves, and
		// the cycle's edges dashed in blue.
		seen := map[int]bool{}
		for _, e := range w.Cycle {
			for _, i := range []int{e.From, e.To} {
				if seen[i] {
					continue
				}
				seen[i] = true
				ev := w.Events[i]
				fmt.Fprintf(&b, "  ev%d [shape=box, color=blue, fontcolor=blue, label=%q];\n", i, p.DescribeEvent(ev))
				if ev.Thread >= 0 && ev.Thread < len(p.Threads) && ev.Trans >= 0 && ev.Trans < len(p.Threads[ev.Thread].Trans) {
					fmt.Fprintf(&b, "  ev%d -> n%d_%d [style=dotted, arrowhead=none, color=blue];\n", i, ev.Thread, p.Threads[ev.Thread].Trans[ev.Trans].From)
				}
			}
			fmt.Fprintf(&b, "  ev%d -> ev%d [style=dashed, color=blue, fontcolor=blue, penwidth=2, label=%q];\n", e.From, e.To, e.Kind.String())
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// patternNoun names a criterion's patterns in the text output: attacks for
// robustness (the papers' word), patterns otherwise.
func patternNoun(c tso.Criterion) string {
	if c == tso.Robustness {
		return "attacks"
	}
	return "patterns"
}
