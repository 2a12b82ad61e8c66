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
	"github.com/pgasrob/pgasrob/pgas"
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

type tsoJSON struct {
	Schema    string         `json:"schema,omitempty"` // set on the top-level object
	File      string         `json:"file"`
	Criterion string         `json:"criterion"`
	Model     string         `json:"model"`
	Attacker  string         `json:"attacker"`
	Verdict   string         `json:"verdict"`
	Reason    string         `json:"reason,omitempty"`
	Attacks   tsoJSONAttacks `json:"attacks"`
	Stats     tsoJSONStats   `json:"stats"`
	Feasible  []string       `json:"feasible_attacks,omitempty"`
	Witness   *tsoJSONWit    `json:"witness,omitempty"`
	Error     string         `json:"error,omitempty"`
	Fences    *tsoJSONFences `json:"fences,omitempty"`
	Param     *tsoJSONParam  `json:"parameterized,omitempty"` // --parameterized
	// Abstraction: --flatten (tso_flatten.go).
	Abstraction *tsoJSONAbstraction `json:"abstraction,omitempty"`
	ExitCode    *int                `json:"exit_code,omitempty"` // set on the top-level object
}

// tsoSchema names the version of the --json output (docs/cli.md).
const tsoSchema = "pgasrob/tso/v1"

// tsoJSONFences is the --fences result; Fences is set only when certified.
type tsoJSONFences struct {
	Verdict     string         `json:"verdict"` // robust: certified; unknown
	Reason      string         `json:"reason,omitempty"`
	Count       int            `json:"count"`
	Cost        int64          `json:"cost"`                // total cost (the count with --cost uniform)
	CostFile    string         `json:"cost_file,omitempty"` // --cost FILE
	Written     string         `json:"written,omitempty"`   // --write FILE`
	Fences      []tsoJSONFence `json:"fences"`
	Rounds      int            `json:"rounds"`
	Certificate *tsoJSON       `json:"certificate,omitempty"` // the check of the fenced program
}

type tsoJSONFence struct {
	thread, label int
	Thread        string `json:"thread"`
	Location      string `json:"location"`
	Line          int    `json:"line,omitempty"` // of the first instruction the fence precedes
	Col           int    `json:"col,omitempty"`
	Before        string `json:"before,omitempty"`
}

type tsoJSONAttacks struct {
	Generated            int `json:"generated"`
	RefutedSyntactically int `json:"refuted_syntactically"`
	RefutedBySearch      int `json:"refuted_by_search"`
	Feasible             int `json:"feasible"`
	Undecided            int `json:"undecided"`
	NotStarted           int `json:"not_started"`
}

type tsoJSONStats struct {
	States        int64   `json:"visited_states"`
	Transitions   int64   `json:"transitions"`
	Bytes         int64   `json:"bytes"`
	CPUMillis     int64   `json:"search_cpu_ms"`
	WallMillis    int64   `json:"wall_ms"`
	StatesPerSec  float64 `json:"states_per_second"`
	BytesPerState float64 `json:"bytes_per_state"`
}

type tsoJSONWit struct {
	Attack  string          `json:"attack"`
	Steps   []tsoJSONStep   `json:"steps"`
	Cycle   []tsoJSONEdge   `json:"cycle"`
	Text    string          `json:"text"`
	Fragile *tsoJSONFragile `json:"fragile,omitempty"` // --criterion persistence
	Race    *tsoJSONRace    `json:"race,omitempty"`    // --criterion trf
}

// tsoJSONRace is the triangular-race part of a witness (tso.TriangularRace):
// steps are then the SC run, and TSO the computation that keeps the
// pending write buffered (absent, with a note, when none has the run's values).
type tsoJSONRace struct {
	PendingWrite string        `json:"pending_write"`
	Read         string        `json:"read"`
	Write        string        `json:"write"`
	TSO          []tsoJSONStep `json:"tso,omitempty"`
	Note         string        `json:"note,omitempty"`
}

// tsoJSONFragile is the persistence part of a witness (tso.FragileRun):
// the pattern's events and the trace of the replayed run.
type tsoJSONFragile struct {
	Pivot        string               `json:"pivot"`
	Y            int64                `json:"y"`
	X            int64                `json:"x"`
	V            int64                `json:"v"`
	V2           int64                `json:"v2"`
	E1           string               `json:"e1"`
	E            string               `json:"e"`
	E2           string               `json:"e2"`
	ProgramOrder []tsoJSONThreadOrder `json:"program_order"`
	StoreOrder   []string             `json:"store_order"`
}

type tsoJSONThreadOrder struct {
	Thread string   `json:"thread"`
	Events []string `json:"events"`
}

type tsoJSONStep struct {
	Thread  string `json:"thread"`
	Action  string `json:"action"` // isu, ld, st, adv, local
	Instr   string `json:"instruction,omitempty"`
	Addr    *int64 `json:"address,omitempty"`
	Value   *int64 `json:"value,omitempty"`
	Delayed bool   `json:"delayed,omitempty"`
	Attack  string `json:"attack_role,omitempty"`
}

type tsoJSONEdge struct {
	From string `json:"from"`
	Kind string `json:"kind"`
	To   string `json:"to"`
}

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

func runTSO(args []string, stdout, stderr io.Writer) int {
	c := newTSOCmd(stderr)
	fs, model, asJSON, dot, maxStates, timeout, maxMem, jobs, all, fences := c.fs, c.model, c.asJSON, c.dot, c.maxStates, c.timeout, c.maxMem, c.jobs, c.all, c.fence
	if done, code := parseFlags(fs, args); done {
		return code
	}
	table := *c.criterion == "all"
	if table && fs.NArg() >= 1 {
		return runTSOCriteriaCmd(c, stdout, stderr)
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "pgasrob tso: want exactly one FILE, got %d arguments\nRun \"pgasrob tso --help\" for usage.\n", fs.NArg())
		return exitUsage
	}
	m, err := tsoprog.ParseModel(*model)
	if err != nil {
		fmt.Fprintln(stderr, "pgasrob tso:", err)
		return exitUsage
	}
	if *jobs < 1 || *maxMem < 1 || *maxStates < 0 || *timeout < 0 {
		fmt.Fprintln(stderr, "pgasrob tso: --jobs and --max-memory must be positive, --max-states and --timeout not negative")
		return exitUsage
	}
	sh, err := c.shard.parse(os.Getenv)
	if err == nil && sh.Count > 0 && (*fences || *dot != "") {
		err = fmt.Errorf("--shard does not go with --fences or --dot (give --dot to pgasrob merge)")
	}
	if err == nil && !*fences && (*c.cost != "uniform" || *c.write != "") {
		err = fmt.Errorf("--cost and --write go with --fences")
	}
	if err == nil && *c.param && (sh.Count > 0 || *fences || m != tsoprog.TSO || *dot != "" || *all) {
		err = fmt.Errorf("--parameterized does not go with --shard, --fences, --dot, --all or --model pso")
	}
	crit, cerr := tso.ParseCriterion(*c.criterion)
	switch {
	case err != nil:
	case cerr != nil:
		err = cerr
	case crit != tso.Robustness && (*c.param || sh.Count > 0):
		err = fmt.Errorf("--criterion %s does not go with --parameterized or --shard", crit)
	case crit != tso.Robustness && m != tsoprog.TSO:
		err = fmt.Errorf("--criterion %s is defined for TSO only (not with --model %s)", crit, strings.ToLower(m.String()))
	}
	if err == nil && *c.flatten && (crit != tso.Persistence || *fences || *c.param || sh.Count > 0 || *dot != "" || m != tsoprog.TSO) {
		err = fmt.Errorf("--flatten wants --criterion persistence, and does not go with --fences, --parameterized, --shard, --dot or --model pso")
	}
	if err == nil && (*c.instances < 0 || !*c.param && fs.Changed("instances")) {
		err = fmt.Errorf("--instances wants --parameterized and a number of copies >= 0")
	}
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob tso: %v\nRun \"pgasrob tso --help\" for usage.\n", err)
		return exitUsage
	}
	file := fs.Arg(0)
	src, err := pgas.ReadSource(file)
	if err != nil {
		fmt.Fprintln(stderr, "pgasrob tso:", err)
		return exitUsage
	}
	prog, err := tsoprog.ParseProgram(file, src)
	if err != nil {
		var pe *tsoprog.Error
		if !errors.As(err, &pe) {
			fmt.Fprintf(stderr, "%s:1:1: %v\n", file, err)
		} else {
			fmt.Fprintln(stderr, err)
		}
		return exitUsage
	}
	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, *maxMem)
	defer unguard()
	opt := tso.Options{MaxStates: *maxStates, MaxBytes: searchBytes(*maxMem), BudgetBytes: *maxMem << 20, Timeout: *timeout, Jobs: *jobs, All: *all, Context: ctx, Shard: sh, Criterion: crit, CombinedStates: *c.combined}
	if *c.flatten {
		return runTSOFlatten(stdout, stderr, file, prog, opt, *asJSON)
	}
	if *c.param {
		return runTSOParam(stdout, stderr, file, prog, opt, *c.instances, *asJSON)
	}
	start := time.Now()
	progress := newProgress(stderr)
	opt.Progress = func(done, total int, states int64) {
		progress.show("attacks searched %d/%d, states %d", done, total, states)
	}
	res, err := tso.Check(prog, m, opt)
	progress.clear()
	if err != nil {
		// The flags were checked above; this is a request the checker
		// knows it cannot take.
		fmt.Fprintln(stderr, "pgasrob tso:", err)
		return exitUsage
	}
	if sh.Count > 0 {
		s := newShardJSON("tso", sh, file, src, settingsOf(fs))
		s.TSO = encodeTSO(res)
		stopped := ""
		if ctx.Err() != nil {
			stopped = automata.StopReason(ctx)
		}
		if res.WitnessErr != nil {
			fmt.Fprintf(stderr, "pgasrob tso: internal error: %v\n", res.WitnessErr)
		}
		return s.finish(stdout, start, stopped, res.WitnessErr != nil)
	}
	var fo *fenceOutput
	if *fences {
		fo = &fenceOutput{costFile: *c.cost}
		if code := fo.search(prog, src, m, res, opt, *c.write, progress, stderr); code != 0 {
			return code
		}
	}
	return printTSO(stdout, stderr, file, prog, m, res, fo, *asJSON, *dot)
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
		if err := os.WriteFile(dot, []byte(tsoDot(prog, res)), 0o644); err != nil {
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

func tsoFencesJSON(p *tsoprog.Program, fr *tso.FenceResult) *tsoJSONFences {
	out := &tsoJSONFences{Verdict: strings.ToLower(fr.Verdict.String()), Reason: fr.Reason, Rounds: fr.Rounds, Fences: []tsoJSONFence{}}
	if fr.Verdict != tsoprog.Robust {
		return out
	}
	out.Count, out.Cost = len(fr.Fences), fr.Cost
	for _, f := range fr.Fences {
		th := p.Threads[f.Thread]
		jf := tsoJSONFence{thread: f.Thread, label: f.Label, Thread: th.Name, Location: th.Labels[f.Label]}
		if outs := th.Out[f.Label]; len(outs) > 0 {
			t := th.Trans[outs[0]]
			jf.Line, jf.Col, jf.Before = t.Pos.Line, t.Pos.Col, t.Text
		}
		out.Fences = append(out.Fences, jf)
	}
	cert := tsoResultJSON(fr.Fenced, fr.Certificate)
	out.Certificate = &cert
	return out
}

func tsoResultJSON(p *tsoprog.Program, r *tso.Result) tsoJSON {
	out := tsoJSON{File: p.File, Criterion: r.Criterion.String(), Model: r.Model.String(), Attacker: r.Attacker.String(), Verdict: strings.ToLower(r.Criterion.VerdictString(r.Verdict)), Reason: r.Reason,
		Attacks: tsoJSONAttacks{Generated: r.Generated, RefutedSyntactically: r.RefutedSyntactic, RefutedBySearch: r.RefutedSearch,
			Feasible: r.Found, Undecided: r.Undecided, NotStarted: r.Skipped},
		Stats: tsoJSONStats{States: r.Stats.States, Transitions: r.Stats.Transitions, Bytes: r.Stats.Bytes,
			CPUMillis: r.Stats.Elapsed.Milliseconds(), WallMillis: r.Elapsed.Milliseconds(),
			StatesPerSec: r.Stats.StatesPerSecond(), BytesPerState: r.Stats.BytesPerState()}}
	for _, a := range r.FeasibleAttacks() {
		out.Feasible = append(out.Feasible, a.Format(p))
	}
	if r.WitnessErr != nil {
		out.Error = "internal error: " + r.WitnessErr.Error()
	}
	if w := r.Witness; w != nil {
		jw := &tsoJSONWit{Attack: w.Attack.Format(p), Text: w.Format(p)}
		for _, s := range w.Steps {
			js := stepJSON(p, s, w.Events)
			if s.Event >= 0 && s.Event < len(w.Events) {
				store, last := "attacking store", "last action"
				if w.Fragile != nil {
					store, last = "e1", "complementary read"
				}
				if w.Race != nil {
					store, last = "pending write", "racing read"
					if s.Event == w.Race.Write && s.Kind == tso.StepExec {
						js.Attack = "racing write"
					}
				}
				if s.Event == w.StoreEvent {
					js.Attack = store
				} else if s.Event == w.LastEvent && s.Kind == tso.StepExec {
					js.Attack = last
				}
			}
			jw.Steps = append(jw.Steps, js)
		}
		for _, e := range w.Cycle {
			jw.Cycle = append(jw.Cycle, tsoJSONEdge{From: p.DescribeEvent(w.Events[e.From]), Kind: e.Kind.String(), To: p.DescribeEvent(w.Events[e.To])})
		}
		jw.Fragile = fragileJSON(p, w)
		jw.Race = raceJSON(p, w)
		out.Witness = jw
	}
	return out
}

func fragileJSON(p *tsoprog.Program, w *tso.Witness) *tsoJSONFragile {
	f := w.Fragile
	if f == nil {
		return nil
	}
	ev := func(i int) string { return p.DescribeEvent(w.Events[i]) }
	out := &tsoJSONFragile{Pivot: p.Threads[f.Pivot].Name, Y: f.Y, X: f.X, V: f.V, V2: f.V2,
		E1: ev(f.E1), E: ev(f.E), E2: ev(f.E2), ProgramOrder: []tsoJSONThreadOrder{}, StoreOrder: []string{}}
	for t, evs := range f.ProgOrder {
		po := tsoJSONThreadOrder{Thread: p.Threads[t].Name, Events: []string{}}
		for _, i := range evs {
			po.Events = append(po.Events, ev(i))
		}
		out.ProgramOrder = append(out.ProgramOrder, po)
	}
	for _, i := range f.StoreOrder {
		out.StoreOrder = append(out.StoreOrder, ev(i))
	}
	return out
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

// raceJSON renders a triangular-race witness's own part.
func raceJSON(p *tsoprog.Program, w *tso.Witness) *tsoJSONRace {
	r := w.Race
	if r == nil {
		return nil
	}
	ev := func(i int) string { return p.DescribeEvent(w.Events[i]) }
	out := &tsoJSONRace{PendingWrite: ev(w.StoreEvent), Read: ev(w.LastEvent), Write: ev(r.Write), Note: r.Note}
	for _, s := range r.TSO {
		out.TSO = append(out.TSO, stepJSON(p, s, r.TSOEvents))
	}
	return out
}

// patternNoun names a criterion's patterns in the text output: attacks for
// robustness (the papers' word), patterns otherwise.
func patternNoun(c tso.Criterion) string {
	if c == tso.Robustness {
		return "attacks"
	}
	return "patterns"
}

// stepJSON is one step of a relaxed computation whose events are evs:
// its thread, action (isu, ld, st, adv, fence or the instruction's
// operation), instruction, and the address and value of its event.
func stepJSON(p *tsoprog.Program, s tso.Step, evs []tsoprog.Event) tsoJSONStep {
	th := p.Threads[s.Thread]
	js := tsoJSONStep{Thread: th.Name, Delayed: s.Delayed}
	if s.Event >= 0 && s.Event < len(evs) {
		e := evs[s.Event]
		a, v := p.Cells[e.Cell], e.Val
		js.Addr, js.Value = &a, &v
	}
	switch s.Kind {
	case tso.StepExec:
		t := th.Trans[s.Trans]
		js.Instr = th.Labels[t.From] + "->" + th.Labels[t.To] + " " + t.Text
		switch t.Op {
		case tsoprog.OpWrite:
			js.Action = "isu"
		case tsoprog.OpRead:
			js.Action = "ld"
		default:
			js.Action = t.Op.String()
		}
	case tso.StepAdvance:
		js.Action = "adv"
		a := p.Cells[s.Cell]
		js.Addr = &a
	case tso.StepFlush:
		js.Action = "st"
		if js.Value == nil {
			js.Action = "fence"
		}
	}
	return js
}
