package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas"
)

func init() {
	register(subcommand{name: "cycles", summary: "list every cycle type of a program (.pgas, or C with OpenSHMEM) with its verdict (research)", run: runCycles})
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

FILE is a .pgas program, or a C program with OpenSHMEM (a .c file, or
--lang c; docs/shmem.md); "-" reads standard input. The exit code is that
of "pgasrob decide --all" (see docs/cli.md).`

// cyclesCmd is the flag set of cycles; merge parses a shard's settings
// with it again.
type cyclesCmd struct {
	fs     *pflag.FlagSet
	b      *budgetFlags
	asJSON *bool
	only   *[]string
	yard   *bool
	out    *outputFlags // --format, --sarif (report_flags.go)
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
	c.out = addFormatFlags(fs, "cycles")
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
		{key: "all", name: "cycles", uses: flagList("type yardsticks", formatFlagNames, budgetFlagNames, cFlagNames), ignores: flagList("depth-first")},
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
	if err := c.out.check(*c.asJSON, j.file); err != nil {
		return usageError(stderr, "cycles", err)
	}
	if ie != nil {
		c.out.inputError(j.file, ie, stdout, stderr)
		if *c.asJSON {
			pr.out.Verdict, pr.out.ExitCode = ie.verdict()
			pr.out.Errors = errorsToJSON(j.file, ie)
			writeJSON(stdout, pr.out)
		}
		_, code := ie.verdict()
		return code
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
	pr.prog, pr.src, pr.outFlags, pr.progFor = j.prog, j.src, c.out, j.progFor
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
	src            []byte
	outFlags       *outputFlags // --format, --sarif; nil for a merge
	outs           []outcome
	progFor        func(n int) *pgas.Program // nil: prog for every N; else N's own translation (pern.go)
	out            cyclesJSON
	codes          []int
	warned         bool
}

func (pr *cyclesPrinter) add(o outcome) {
	if pr.progFor != nil {
		pr.prog = pr.progFor(o.N)
	}
	pr.codes = append(pr.codes, o.Code)
	pr.outs = append(pr.outs, o)
	if o.Err != nil {
		fmt.Fprintf(pr.stderr, "pgasrob cycles: N = %d: %v\n", o.N, o.Err)
	}
	if pr.outFlags.gcc() || pr.outFlags.sarifStdout() {
		return // the diagnostics or the log, at the end
	}
	if !pr.asJSON && !pr.warned {
		report.WriteWarnings(pr.stdout, pr.prog)
		pr.warned = true
	}
	if !pr.asJSON {
		report.WriteCyclesText(pr.stdout, pr.file, o, pr.restricted)
		return
	}
	r := report.CyclesToJSON(pr.prog, o)
	if pr.restricted && r.Verdict == "robust" {
		r.Verdict = restrictedRobust
	}
	pr.out.Results = append(pr.out.Results, r)
}

func (pr *cyclesPrinter) finish() int {
	code := overallCode(pr.codes)
	if pr.outFlags.gcc() {
		report.WriteCyclesGCC(pr.stdout, pr.file, pr.prog, pr.outs)
	}
	if pr.outFlags != nil {
		f := report.File{Path: pr.file, Prog: pr.prog, Src: pr.src, Outcomes: pr.outs}
		if !pr.outFlags.writeSARIF([]report.File{f}, pr.stdout, pr.stderr, pr.file) && code != exitInternal {
			code = exitUsage
		}
	}
	if pr.asJSON {
		pr.out.Verdict, pr.out.ExitCode = overallVerdict(code), code
		pr.out.Warnings, pr.out.Assumptions = report.Warnings(pr.prog), report.Assumptions(pr.prog)
		if pr.restricted && pr.out.Verdict == "robust" {
			pr.out.Verdict = restrictedRobust
		}
		writeJSON(pr.stdout, pr.out)
	}
	return code
}

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
