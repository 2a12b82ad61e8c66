package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas"
)

func init() {
	register(subcommand{name: "decide", summary: "decide robustness of a program (.pgas, or C with OpenSHMEM) for N ranks (Theorem 16)", run: runDecide})
}

const decideDescription = `FILE is a .pgas program, or a C program with OpenSHMEM (docs/shmem.md): a
.c file, or any file with --lang c; "-" reads standard input (as C when it
is unmistakably C).

Decide whether the program in FILE is robust for N ranks: whether
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
not robust, then 3 unknown, then 0 robust. See docs/cli.md.

Several FILEs, or a directory with -r, make a project: the files are
decided in parallel within --jobs, each file's result is printed as for
one file (in the order of the files), then a summary table; the exit
code is the most severe over every file and N, --json prints one object
(schema pgasrob/decide-project/v1) and --sarif covers every file.`

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
	out    *outputFlags
	// recursive: directories among the arguments are searched for
	// programs (decide_project.go).
	recursive *bool
	crit      *string
}

func newDecideCmd(stderr io.Writer) *decideCmd {
	fs := newFlags("decide", "decide FILE... -n N|LO..HI [flags]", decideDescription, exitsVerdict, stderr)
	c := &decideCmd{fs: fs, b: addBudgetFlags(fs)}
	c.all = fs.Bool("all", false, "search every cycle type instead of stopping at the first violation")
	c.asJSON = fs.Bool("json", false, "print one JSON object (schema "+decideSchema+", docs/cli.md) instead of text")
	c.dot = fs.String("dot", "", "write the happens-before cycle of a violation as a Graphviz graph to `FILE` (with a range: FILE-N.ext per N; \"-\": the graph alone on standard output, the verdict on standard error)")
	c.proc = fs.String("procedure", "auto", "who decides: automata (the cycle-type search), oracle (direct exploration of X(P,N)), or auto (the search, joined after a second by the oracle; the first exact answer wins)")
	c.after = fs.Duration("oracle-after", cycles.DefaultOracleDelay, "with --procedure auto: the search's head start before the oracle joins it (0s: at once; programs heavy in waits and queues often suit the oracle)")
	c.out = addOutputFlags(fs)
	c.recursive = fs.BoolP("recursive", "r", false, "decide every .c and .pgas file under the directories given (a project: files in parallel within --jobs, then a summary table)")
	c.crit = fs.String("criterion", "robustness", "what to decide: robustness, race (data-race freedom under the API's happens-before, docs/criteria.md) or all (both, in one report)")
	c.via = fs.String("via", "exact", "route: exact (the procedure of Theorem 16) or instrumentation (pgasrob translate, then tso --model pso: it finds violations only, docs/translate.md)")
	return c
}

// decideModes: --via instrumentation runs the translation through the
// framework's checker, which takes only the budgets; a shard writes its
// part for merge, which draws the graph; otherwise the exact procedure.
var decideModes = modeTable{
	cmd:     "decide",
	needs:   map[string]string{"shard-costs": "shard"},
	choices: []string{"via", "procedure", "exploration", "criterion"},
	modes: []mode{
		{key: "race", when: "criterion=race", name: "--criterion race", uses: flagList("criterion n max-states timeout max-memory json format sarif"),
			ignores: flagList("jobs no-symmetry exploration")},
		{key: "all", when: "criterion=all", name: "--criterion all", uses: flagList("criterion procedure oracle-after depth-first", budgetFlagNames)},
		// any other value: runDecide names the choices
		{key: "badcriterion", when: "criterion", name: "--criterion", uses: flagList("criterion all dot procedure oracle-after depth-first via shard shard-costs", budgetFlagNames)},
		{key: "via", when: "via=instrumentation", name: "--via instrumentation",
			uses: flagList("via n max-states timeout jobs max-memory json lang", cFlagNames), ignores: flagList("procedure oracle-after exploration no-symmetry depth-first")},
		{key: "shard", when: "shard", name: "--shard", uses: flagList("shard shard-costs all depth-first via", budgetFlagNames),
			// A shard searches its part of the cycle types: the oracle
			// answers for the whole program only.
			ignores: flagList("procedure oracle-after"),
			hints:   cShardHints(map[string]string{"dot": "the graph is of the merged result: give --dot to pgasrob merge"})},
		{key: "exact", name: "decide", uses: flagList("all dot procedure oracle-after depth-first via recursive", outputFlagNames, budgetFlagNames, cFlagNames)},
	},
}

func runDecide(args []string, stdout, stderr io.Writer) int {
	if files, ok := projectFiles(args); ok {
		return runDecideProject(args, files, stdout, stderr)
	}
	c := newDecideCmd(stderr)
	j, ie, code := prepare("decide", c.fs, c.b, decideModes, args, stderr)
	if j == nil {
		return code
	}
	dotOut := stdout
	if *c.dot == "-" {
		// only the graph on standard output, so that it can be piped to
		// dot; the verdict goes to standard error
		stdout = stderr
	}
	pr := &decidePrinter{stdout: stdout, stderr: stderr, dotOut: dotOut, file: j.file, prog: j.prog, progFor: j.progFor, src: j.src, asJSON: *c.asJSON, dot: *c.dot, isRange: j.lo < j.hi, outFlags: c.out,
		out: decideJSON{Schema: decideSchema, File: j.file, NArg: *c.b.n, Results: []nResultJSON{}}}
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
	switch {
	case j.mode == "race":
		return runDecideRace(j, c, stdout, stderr)
	case j.mode == "badcriterion":
		return usageError(stderr, "decide", fmt.Errorf("--criterion must be robustness, race or all, not %q", *c.crit))
	case j.mode == "via":
		return runDecideVia(j, c, stdout, stderr)
	case *c.via != "exact":
		return usageError(stderr, "decide", fmt.Errorf("--via must be exact or instrumentation, not %q", *c.via))
	}
	if code := c.exactOptions(j, stderr); code != 0 {
		return code
	}
	if err := c.out.check(*c.asJSON, j.file); err != nil {
		return usageError(stderr, "decide", err)
	}
	if j.mode == "shard" {
		return j.runShard(stdout, stderr)
	}
	pr.out.Program = j.prog.Name
	if j.mode == "all" {
		return runDecideAll(j, pr, *c.asJSON, stdout, stderr)
	}
	pr.fixer = c.out.fixer(j)
	j.decideEach(stderr, pr.add)
	return pr.finish()
}

// exactOptions sets the options of the exact route from the flags; a
// non-zero result is the exit code of a usage error (printed).
func (c *decideCmd) exactOptions(j *job, stderr io.Writer) int {
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
	return 0
}

// decidePrinter prints decide's outcomes as they come, for a live run
// and for a merge of shards alike.
type decidePrinter struct {
	stdout, stderr io.Writer
	dotOut         io.Writer // where --dot - writes (stdout; nil: stdout)
	file           string
	prog           *pgas.Program
	progFor        func(n int) *pgas.Program // nil: prog for every N; else N's own translation (pern.go)
	src            []byte
	outFlags       *outputFlags // nil: text or JSON only (merge)
	outs           []outcome
	fixer          func([]outcome) *repair.Result // --sarif-fixes
	asJSON         bool
	dot            string
	isRange        bool
	out            decideJSON
	dotFailed      bool
	codes          []int
	warned         bool
}

func (pr *decidePrinter) add(o outcome) {
	if pr.progFor != nil {
		pr.prog = pr.progFor(o.N)
	}
	pr.codes = append(pr.codes, o.Code)
	pr.outs = append(pr.outs, o)
	if pr.outFlags.gcc() || pr.outFlags.sarifStdout() {
		// gcc: all at the end, the warnings first, once; "--sarif -":
		// the log is the output.
		return
	}
	if !pr.asJSON && !pr.warned {
		// Once, above the first N: they hold for every N.
		report.WriteWarnings(pr.stdout, pr.prog)
		pr.warned = true
	}
	if o.Err != nil {
		fmt.Fprintf(pr.stderr, "pgasrob decide: N = %d: %v\n", o.N, o.Err)
	}
	dotFile := ""
	if pr.dot != "" && o.Res != nil && o.Res.Witness != nil {
		dotFile = report.DotPath(pr.dot, o.N, pr.isRange)
		out := pr.dotOut
		if out == nil {
			out = pr.stdout
		}
		if err := writeOutput(dotFile, []byte(report.Dot(pr.prog, pr.file, o.N, o.Res.Witness)), out, pr.file); err != nil {
			fmt.Fprintf(pr.stderr, "pgasrob decide: %v\n", err)
			pr.dotFailed, dotFile = true, ""
		}
	}
	if pr.asJSON {
		r := report.ResultToJSON(pr.prog, o)
		r.DotFile = dotFile
		pr.out.Results = append(pr.out.Results, r)
		return
	}
	report.WriteText(pr.stdout, pr.file, pr.prog, o)
	if dotFile != "" && dotFile != "-" {
		fmt.Fprintf(pr.stdout, "  Graphviz graph of the cycle written to %s\n", dotFile)
	}
}

func (pr *decidePrinter) finish() int {
	code := overallCode(pr.codes)
	if pr.dotFailed && code != exitInternal {
		code = exitUsage
	}
	if pr.outFlags.gcc() && pr.progFor != nil {
		for _, o := range pr.outs {
			report.WriteGCC(pr.stdout, pr.file, pr.progFor(o.N), []outcome{o})
		}
	} else if pr.outFlags.gcc() {
		report.WriteGCC(pr.stdout, pr.file, pr.prog, pr.outs)
	}
	f := report.File{Path: pr.file, Prog: pr.prog, Src: pr.src, Outcomes: pr.outs}
	if pr.fixer != nil {
		f.Fix = pr.fixer(pr.outs)
	}
	if !pr.outFlags.write(f, pr.stdout, pr.stderr) && code != exitInternal {
		code = exitUsage
	}
	if pr.asJSON {
		pr.out.Program = pr.prog.Name
		pr.out.Warnings, pr.out.Assumptions = report.Warnings(pr.prog), report.Assumptions(pr.prog)
		pr.out.Verdict, pr.out.ExitCode = overallVerdict(overallCode(pr.codes)), code
		writeJSON(pr.stdout, pr.out)
	}
	return code
}
