package main

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

func init() {
	register(subcommand{name: "repair", summary: "find the cheapest waits, fences or synchronous operations that make a program (.pgas, or C with OpenSHMEM) robust", run: runRepair})
}

const repairDescription = `FILE is a .pgas program, or a C program with OpenSHMEM (docs/shmem.md): a
.c file, or any file with --lang c; "-" reads standard input.

Find a cheapest set of synchronisation insertions that makes the
program in FILE robust for every N asked, in the language's own words so
that it can be pasted back: "wait h" on a remote operation's handle before
a later statement (giving the operation a handle "-> hK" if it has none),
"waitq q" before a statement, or a read/write turned into get/put; on
OpenSHMEM contexts, "fence c" or "quiet c" before a statement, a
non-blocking operation made blocking (putmem_nbi becomes putmem), or a
putval or amo_set made a fetching atomic ("t <- amo_swap"). Default costs: wait 1,
waitq 2, get/put 3, fence 1, quiet 2, blocking 3, atomic 3; --cost FILE
overrides them per kind or per source line (lines "KIND COST" or "KIND
LINE COST").

The search is guided by the certified happens-before cycles of decide's
witnesses; minimality is then proved by deciding every cheaper set of
insertions (up to --proof-sets of them; the output says how far the proof
went). The repaired program is decided again from its text and explored by
the brute-force oracle before it is shown. It is printed as a diff against
the input; --write F writes it.

--criterion race asks instead for the cheapest set of the same insertions
after which the program is race-free (docs/criteria.md): the sets are
decided cheapest first (up to --proof-sets of them), and the result is
decided again and enumerated by the race oracle before it is shown.

Exit codes: 0 repaired (or already robust: nothing to insert), 3 no repair
within the budgets or the vocabulary (the reason says which), 2 usage or
input error or a reachable run-time error, 4 internal error (the repaired
program failed its re-decision or the oracle). See docs/cli.md.`

const exitsRepair = "exit codes: 0 repaired or already robust, 2 usage or input error (also a reachable run-time error),\n" +
	"3 no repair found (budget or vocabulary), 4 internal error (the repaired program failed its checks)"

// The renderers of repair (text and --json) are in cycles/report.
const repairSchema = report.RepairSchema

type repairJSON = report.RepairJSON

// repairModes: repair has one mode. It decides many programs in turn,
// so the shard flags it shares with decide are refused (and hidden).
var repairModes = modeTable{
	cmd:     "repair",
	needs:   map[string]string{"shard-costs": "shard"},
	choices: []string{"exploration"},
	modes: []mode{{key: "repair", name: "repair", uses: flagList("criterion depth-first write cost proof-sets oracle-nodes", formatFlagNames, budgetFlagNames, cFlagNames),
		hints: map[string]string{"shard": "it decides many programs in turn: there are no parts to shard"}}},
}

// repairCmd is the flag set of repair.
type repairCmd struct {
	fs              *pflag.FlagSet
	b               *budgetFlags
	asJSON          *bool
	write, costFile *string
	proofSets       *int
	oracleNodes     *int64
	criterion       *string
	out             *outputFlags // --format, --sarif (report_flags.go)
}

func newRepairCmd(stderr io.Writer) *repairCmd {
	fs := newFlags("repair", "repair FILE -n N|LO..HI [flags]", repairDescription, exitsRepair, stderr)
	c := &repairCmd{fs: fs, b: addBudgetFlags(fs)}
	// Repair decides many programs in turn; it has no parts to shard.
	_ = fs.MarkHidden("shard")
	_ = fs.MarkHidden("shard-costs")
	c.asJSON = fs.Bool("json", false, "print one JSON object (schema "+repairSchema+", docs/cli.md) instead of text")
	c.write = fs.String("write", "", "write the repaired program to `FILE`")
	c.costFile = fs.String("cost", "", "costs per kind or per source line from `FILE` (lines KIND COST or KIND LINE COST)")
	c.proofSets = fs.Int("proof-sets", 500, "cheaper sets of insertions to decide for the minimality proof")
	c.out = addFormatFlags(fs, "repair")
	c.oracleNodes = fs.Int64("oracle-nodes", oracle.DefaultMaxNodes, "states the oracle may explore per N in the final check")
	c.criterion = fs.String("criterion", "robustness", "what the repair must achieve: robustness, or race (no data race, docs/criteria.md: the cheapest set of the same insertions after which decide --criterion race answers RACE-FREE, found by deciding the sets cheapest first)")
	return c
}

func runRepair(args []string, stdout, stderr io.Writer) int {
	c := newRepairCmd(stderr)
	fs, b, asJSON, write, costFile, proofSets, oracleNodes := c.fs, c.b, c.asJSON, c.write, c.costFile, c.proofSets, c.oracleNodes
	j, ie, code := prepare("repair", fs, b, repairModes, args, stderr)
	if j == nil {
		return code
	}
	out := report.NewRepairJSON(j.file, *b.n)
	if err := c.out.check(*asJSON, j.file); err != nil {
		return usageError(stderr, "repair", err)
	}
	if ie != nil {
		c.out.inputError(j.file, ie, stdout, stderr)
		if *asJSON {
			out.Verdict, out.ExitCode = ie.verdict()
			out.Errors = errorsToJSON(j.file, ie)
			writeJSON(stdout, out)
		}
		_, code := ie.verdict()
		return code
	}
	if *write != "" {
		// Before the search: a long run must not end in this refusal.
		if err := notAnInput(*write, []string{j.file, *costFile}); err != nil {
			fmt.Fprintf(stderr, "pgasrob repair: --write: %v\n", err)
			return exitUsage
		}
	}
	if *proofSets < 0 || *oracleNodes < 1 {
		return usageError(stderr, "repair", fmt.Errorf("--proof-sets must not be negative, --oracle-nodes positive"))
	}
	races := *c.criterion == "race"
	if !races && *c.criterion != "robustness" {
		return usageError(stderr, "repair", fmt.Errorf("--criterion %q: want robustness or race", *c.criterion))
	}
	costs := repair.DefaultCosts()
	if *costFile != "" {
		src, err := pgas.ReadSource(*costFile)
		if err == nil {
			costs, err = repair.ParseCosts(*costFile, src)
		}
		if err != nil {
			fmt.Fprintf(stderr, "pgasrob repair: --cost: %v\n", err)
			return exitUsage
		}
	}
	var ns []int
	for n := j.lo; n <= j.hi; n++ {
		ns = append(ns, n)
	}
	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, j.opt.BudgetBytes>>20)
	defer unguard()
	// One line in the format of decide's: the repair's step, and the
	// states of the decision it is making (repair decides one at a time).
	prog := newProgress(stderr)
	var stage atomic.Value // of string: set by the repair, read by the search's progress
	stage.Store("")
	opt := repair.Options{Decide: j.opt, Costs: costs, ProofSets: *proofSets, Context: ctx,
		Oracle:   oracle.Bounds{MaxQueue: 4, MaxNodes: *oracleNodes, Timeout: j.opt.Timeout, Commuting: j.opt.Commuting},
		Progress: func(msg string) { stage.Store(msg) }}
	opt.Decide.Progress = func(p cycles.Progress) {
		prog.step(progressStep{cmd: "repair", context: stage.Load().(string), what: "cycle types", done: p.TypesDone, total: p.TypesTotal, states: p.States, elapsed: p.Elapsed})
	}
	opt.Decide.Jobs = *b.jobs
	var res *repair.Result
	var err error
	switch {
	case j.prog.Dialect == "c": // a .c file, --lang c, or C on standard input
		res, err = repairC(j.file, j.src, ns, j.copt, opt, races)
	case races:
		res, err = repair.RepairRace(j.file, j.src, ns, opt)
	default:
		res, err = repair.Repair(j.file, j.src, ns, opt)
	}
	prog.clear()
	guardedRunError(res)
	code = repairCode(res, err)
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob repair: %v\n", err)
	}
	if res != nil && res.Verdict == repair.Repaired && code == exitRobust && *write != "" {
		if werr := writeOutput(*write, res.Source, stdout, j.file, *costFile); werr != nil {
			fmt.Fprintf(stderr, "pgasrob repair: %v\n", werr)
			code = exitUsage
		} else {
			out.Written = *write
		}
	}
	if res != nil && !c.out.writeSARIF([]report.File{{Path: j.file, Src: j.src, Repair: res}}, stdout, stderr, j.file, *costFile) && code != exitInternal {
		code = exitUsage
	}
	switch {
	case *asJSON:
		report.FillRepairJSON(&out, j.file, j.src, res, err)
		out.ExitCode = code
		writeJSON(stdout, out)
	case c.out.gcc():
		report.WriteRepairGCC(stdout, j.file, res, err)
	case !c.out.sarifStdout():
		report.WriteRepairText(stdout, j.file, j.src, res, err, out.Written)
	}
	return code
}

func repairCode(res *repair.Result, err error) int {
	switch {
	case err != nil && (errors.Is(err, repair.ErrInternal) || errors.Is(err, cycles.ErrInternal)):
		return exitInternal
	case err != nil:
		return exitInternal
	case res.Verdict == repair.RunError:
		return exitUsage
	case res.Verdict == repair.NoRepair:
		return exitUnknown
	}
	return exitRobust
}

// guardedRunError names a run-time error that one of the C translation's
// guards raised (cfront.GuardError) instead of showing the guard's raw
// value against the declared domain; a guard that stands for the
// checker's limit leaves the input undecided (NoRepair, exit 3), as
// decide answers UNKNOWN for it.
func guardedRunError(res *repair.Result) {
	if res == nil || res.Verdict != repair.RunError {
		return
	}
	for _, b := range res.Before {
		var re *pgas.RangeError
		if b.Verdict != cycles.RunError || b.RunError == nil || !errors.As(b.RunError.Err, &re) || !guard(re.Val) {
			continue
		}
		msg, _ := cfront.GuardError(re.Val)
		if cfront.GuardIsLimit(re.Val) {
			res.Verdict, res.Reason = repair.NoRepair, fmt.Sprintf("the input for N = %d: %v: %s", b.N, re.Pos, msg)
			b.Verdict, b.RunError, b.Reason = cycles.Unknown, nil, fmt.Sprintf("%v: %s", re.Pos, msg)
		} else {
			res.Reason = fmt.Sprintf("N = %d: %v: %s", b.N, re.Pos, msg)
		}
		return
	}
}
