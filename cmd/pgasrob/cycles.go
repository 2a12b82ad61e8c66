package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

func init() {
	register(subcommand{name: "cycles", summary: "list every cycle type of a .pgas program with its verdict (research)", run: runCycles})
}

const cyclesDescription = `For research: decide, for every cycle type of N ranks (a sequence of
distinct ranks up to rotation, Section 5.3 of pgas-theory-full.md), whether
a happens-before cycle of that type exists, that is whether the product of
Y^M(P,N) with Z^cyc is non-empty (Theorem 16). Every cycle type is searched;
there is no stop at the first violation. Each is reported as feasible,
infeasible, unknown (its budget ran out) or, when a renaming of ranks that
leaves the program unchanged maps it onto an already searched one, with
that one's verdict (turn this off with --no-symmetry). --type restricts
the search to some cycle types. Use "pgasrob decide" to see a witness.

The exit code is that of "pgasrob decide --all" (see docs/cli.md).`

// cyclesCmd is the flag set of cycles; merge parses a shard's settings
// with it again.
type cyclesCmd struct {
	fs     *pflag.FlagSet
	b      *budgetFlags
	asJSON *bool
	only   *[]string
	yard   *bool
}

func newCyclesCmd(stderr io.Writer) *cyclesCmd {
	fs := newFlags("cycles", "cycles FILE -n N|LO..HI [flags]", cyclesDescription, exitsVerdict, stderr)
	c := &cyclesCmd{fs: fs, b: addBudgetFlags(fs)}
	// The point of this command is the cost of each cycle type, which
	// only the per-type search measures: it stays the default here.
	*c.b.explore = cycles.PerType
	fs.Lookup("exploration").DefValue = cycles.PerType.String()
	c.asJSON = fs.Bool("json", false, "print one JSON object (schema "+cyclesSchema+", docs/cli.md) instead of text")
	c.only = fs.StringArray("type", nil, "search only this cycle `TYPE`, written like \"1 2 3\" or \"(1,2)\" (repeatable)")
	c.yard = fs.Bool("yardsticks", false, "also measure the search against one pass over Y: the states of Y with the reduction and no marks, and the distinct (Y, marks) pairs expanded (costs memory and one more search)")
	return c
}

// onlyFor gives the cycle types of --type for n ranks (nil: all).
func (c *cyclesCmd) onlyFor(n int) []cycles.CycleType {
	if len(*c.only) == 0 {
		return nil
	}
	types, _ := typesFor(*c.only, n) // checked by checkTypes
	return types
}

// checkTypes checks --type against every N up front, since cycle types
// name ranks.
func (c *cyclesCmd) checkTypes(lo, hi int) error {
	for n := lo; n <= hi && len(*c.only) > 0; n++ {
		if _, err := typesFor(*c.only, n); err != nil {
			return fmt.Errorf("--type: N = %d: %v", n, err)
		}
	}
	return nil
}

// cyclesModes: a shard writes its part for merge; otherwise every cycle
// type is searched (the decision of decide --all, which never goes
// depth-first).
var cyclesModes = modeTable{
	cmd:     "cycles",
	needs:   map[string]string{"shard-costs": "shard"},
	choices: []string{"exploration"},
	modes: []mode{
		{key: "shard", when: "shard", name: "--shard", uses: flagList("shard shard-costs type", budgetFlagNames), ignores: flagList("depth-first"),
			hints: cShardHints(map[string]string{"yardsticks": "it measures one whole run"})},
		{key: "all", name: "cycles", uses: flagList("type yardsticks", budgetFlagNames, cFlagNames), ignores: flagList("depth-first")},
	},
}

func runCycles(args []string, stdout, stderr io.Writer) int {
	c := newCyclesCmd(stderr)
	j, ie, code := prepare("cycles", c.fs, c.b, cyclesModes, args, stderr)
	if j == nil {
		return code
	}
	pr := &cyclesPrinter{stdout: stdout, stderr: stderr, file: j.file, asJSON: *c.asJSON, restricted: len(*c.only) > 0,
		out: cyclesJSON{Schema: cyclesSchema, File: j.file, NArg: *c.b.n, Results: []cyclesNJSON{}, Restricted: len(*c.only) > 0}}
	if ie != nil {
		if *c.asJSON {
			pr.out.Verdict, pr.out.ExitCode, pr.out.Errors = "input error", exitUsage, errorsToJSON(j.file, ie)
			writeJSON(stdout, pr.out)
		}
		return exitUsage
	}
	if err := c.checkTypes(j.lo, j.hi); err != nil {
		fmt.Fprintf(stderr, "pgasrob cycles: %v\n%s\n", err, usageHint("cycles"))
		return exitUsage
	}
	if len(*c.only) > 0 {
		j.onlyFor = c.onlyFor
	}
	j.opt.All = true
	j.opt.Yardsticks = *c.yard
	if j.mode == "shard" {
		return j.runShard(stdout, stderr)
	}
	pr.out.Program = j.prog.Name
	pr.prog = j.prog
	j.decideEach(stderr, pr.add)
	return pr.finish()
}

// cyclesPrinter prints the outcomes of cycles, for a live run and for a
// merge of shards alike.
type cyclesPrinter struct {
	stdout, stderr io.Writer
	file           string
	asJSON         bool
	restricted     bool
	prog           *pgas.Program // for a C program's terms in the JSON; nil when unknown
	out            cyclesJSON
	codes          []int
}

func (pr *cyclesPrinter) add(o outcome) {
	pr.codes = append(pr.codes, o.Code)
	if o.Err != nil {
		fmt.Fprintf(pr.stderr, "pgasrob cycles: N = %d: %v\n", o.N, o.Err)
	}
	if !pr.asJSON {
		writeCyclesText(pr.stdout, pr.file, o, pr.restricted)
		return
	}
	r := cyclesToJSON(pr.prog, o)
	if pr.restricted && r.Verdict == "robust" {
		r.Verdict = restrictedRobust
	}
	pr.out.Results = append(pr.out.Results, r)
}

func (pr *cyclesPrinter) finish() int {
	code := overallCode(pr.codes)
	if pr.asJSON {
		pr.out.Verdict, pr.out.ExitCode = overallVerdict(code), code
		if pr.restricted && pr.out.Verdict == "robust" {
			pr.out.Verdict = restrictedRobust
		}
		writeJSON(pr.stdout, pr.out)
	}
	return code
}

// restrictedRobust is the verdict of --type when none of the given cycle
// types is feasible: robustness needs every cycle type, so a subset only
// answers for itself.
const restrictedRobust = "no violation of these types"

// typesFor parses the --type arguments for n ranks, without duplicates
// (rotations are the same type).
func typesFor(args []string, n int) ([]cycles.CycleType, error) {
	var types []cycles.CycleType
	seen := map[string]bool{}
	for _, s := range args {
		c, err := cycles.ParseCycleType(s, n)
		if err != nil {
			return nil, err
		}
		if !seen[c.String()] {
			seen[c.String()] = true
			types = append(types, c)
		}
	}
	return types, nil
}

func writeCyclesText(w io.Writer, file string, o outcome, restricted bool) {
	fmt.Fprintf(w, "%s, N = %d: ", file, o.N)
	if o.Res == nil {
		fmt.Fprintln(w, "INTERNAL ERROR (no verdict)")
		return
	}
	r := o.Res
	if r.Verdict == cycles.RunError {
		fmt.Fprintf(w, "RUN-TIME ERROR: %v\n  (no cycle type searched; run \"pgasrob decide\" for the computation that reaches it)\n", r.RunError.Err)
		return
	}
	c := countTypes(r)
	verdict := r.Verdict.String()
	if restricted {
		// Robustness needs every cycle type; a subset only answers for itself.
		verdict = strings.ToUpper(restrictedRobust)
		switch r.Verdict {
		case cycles.NotRobust:
			verdict = "NOT ROBUST"
		case cycles.Unknown:
			verdict = "UNKNOWN"
		}
	}
	fmt.Fprintf(w, "%s (%d of %d cycle types feasible, %d infeasible, %d unknown)\n", verdict, c.Feasible, c.Total, c.Infeasible, c.Unknown+c.Skipped)
	if r.Verdict == cycles.Unknown && len(r.Types) == 0 {
		fmt.Fprintf(w, "  stopped before any cycle type: %s\n", r.Reason)
	}
	if r.Partial {
		fmt.Fprintf(w, "  too many cycle types to list (more than %d): below, the %d representatives searched; %d more were passed over as their images by symmetry\n",
			cycles.MaxListedTypes, len(r.Types), c.BySymmetry)
	}
	if r.Partial && r.Verdict == cycles.Unknown && r.Reason != "" {
		fmt.Fprintf(w, "  %s\n", r.Reason)
	}
	fmt.Fprintf(w, "  %-14s %-11s %12s %12s %10s\n", "cycle type", "verdict", "states", "transitions", "time")
	for _, t := range r.Types {
		word := typeWord(t)
		if t.SymmetricTo != nil {
			fmt.Fprintf(w, "  %-14v %-11s %12s %12s %10s  same as %v by symmetry\n", t.Cycle, word, "", "", "", t.SymmetricTo)
			continue
		}
		note := ""
		if word == "unknown" && t.Reason != "" {
			note = "  " + t.Reason
		}
		fmt.Fprintf(w, "  %-14v %-11s %12d %12d %10v%s\n", t.Cycle, word, t.Stats.States, t.Stats.Transitions, roundDur(t.Stats.Elapsed), note)
	}
	fmt.Fprintf(w, "  total: %s\n", statsLine(r))
	if y := r.Yardsticks; y != nil {
		fmt.Fprintf(w, "  yardsticks: %d product states = %.1f × %d states of reduced Y = %.1f × %d distinct (Y, marks) pairs\n",
			y.ProductStates, ratio(y.ProductStates, y.ReducedY), y.ReducedY, ratio(y.ProductStates, y.YMarks), y.YMarks)
	}
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// cyclesSchema names the version of the --json output: a change that
// removes or renames a field, or changes its meaning, bumps it.
const cyclesSchema = "pgasrob/cycles/v1"

// cyclesJSON is the --json output of "pgasrob cycles" (docs/cli.md).
type cyclesJSON struct {
	Schema   string        `json:"schema"`
	File     string        `json:"file"`
	Program  string        `json:"program"`
	NArg     string        `json:"n"`
	Results  []cyclesNJSON `json:"results"`
	Verdict  string        `json:"verdict"`
	ExitCode int           `json:"exit_code"`
	Errors   []checkError  `json:"errors,omitempty"`
	// Restricted is true with --type: then "robust" only means that none
	// of the given cycle types is feasible.
	Restricted bool `json:"restricted"`
}

type cyclesNJSON struct {
	N            int               `json:"n"`
	Verdict      string            `json:"verdict"`
	ExitCode     int               `json:"exit_code"`
	Reason       string            `json:"reason,omitempty"`
	Stats        statsJSON         `json:"stats"`
	Cache        cacheJSON         `json:"cache"`
	CycleTypes   typeCounts        `json:"cycle_types"`
	Types        []cycleTypeJSON   `json:"types"`
	Yardsticks   *yardsticksJSON   `json:"yardsticks,omitempty"`
	RuntimeError *runtimeErrorJSON `json:"runtime_error,omitempty"`
	Error        string            `json:"error,omitempty"`
}

// yardsticksJSON is cycles.Yardsticks with its ratios (--yardsticks).
type yardsticksJSON struct {
	ProductStates      int64   `json:"product_states"`
	ReducedYStates     int64   `json:"reduced_y_states"`
	YMarksStates       int64   `json:"y_marks_states"`
	ProductPerReducedY float64 `json:"product_per_reduced_y"`
	ProductPerYMarks   float64 `json:"product_per_y_marks"`
}

type cycleTypeJSON struct {
	CycleType   []int  `json:"cycle_type"`
	Verdict     string `json:"verdict"` // feasible, infeasible, unknown, skipped
	Reason      string `json:"reason,omitempty"`
	SymmetricTo []int  `json:"symmetric_to,omitempty"`
	// A C program: cycle_type and symmetric_to as PE numbers (rank - 1).
	CyclePEs       []int     `json:"cycle_pes,omitempty"`
	SymmetricToPEs []int     `json:"symmetric_to_pes,omitempty"`
	Stats          statsJSON `json:"stats"`
}

func cyclesToJSON(p *pgas.Program, o outcome) cyclesNJSON {
	d := resultToJSON(nil, outcome{N: o.N, Res: withoutWitness(o.Res), Err: o.Err, Code: o.Code})
	j := cyclesNJSON{N: d.N, Verdict: d.Verdict, ExitCode: d.ExitCode, Reason: d.Reason, Stats: d.Stats,
		Cache: d.Cache, CycleTypes: d.CycleTypes, Error: d.Error, Types: []cycleTypeJSON{}}
	if o.Res == nil {
		return j
	}
	if re := o.Res.RunError; re != nil {
		// The path is printed by "pgasrob decide"; here the message is enough.
		j.RuntimeError = &runtimeErrorJSON{Message: errMessage(p, re.Err), Path: []eventJSON{}}
	}
	if y := o.Res.Yardsticks; y != nil {
		j.Yardsticks = &yardsticksJSON{y.ProductStates, y.ReducedY, y.YMarks, ratio(y.ProductStates, y.ReducedY), ratio(y.ProductStates, y.YMarks)}
	}
	for _, t := range o.Res.Types {
		tj := cycleTypeJSON{CycleType: append([]int{}, t.Cycle...), Verdict: typeWord(t), Stats: statsToJSON(t.Stats, t.Stats.Elapsed)}
		if tj.Verdict == "unknown" {
			tj.Reason = t.Reason
		}
		if t.SymmetricTo != nil {
			tj.SymmetricTo = append([]int{}, t.SymmetricTo...)
		}
		if isC(p) {
			tj.CyclePEs = pes(t.Cycle)
			if t.SymmetricTo != nil {
				tj.SymmetricToPEs = pes(t.SymmetricTo)
			}
		}
		j.Types = append(j.Types, tj)
	}
	return j
}

// withoutWitness hides the witness and run-time error path, which this
// command does not print and which would need the program to render.
func withoutWitness(r *cycles.Result) *cycles.Result {
	if r == nil {
		return nil
	}
	c := *r
	c.Witness, c.RunError = nil, nil
	return &c
}
