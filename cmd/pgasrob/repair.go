package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

func init() {
	register(subcommand{name: "repair", summary: "find the cheapest waits, fences or synchronous operations that make a .pgas program robust", run: runRepair})
}

const repairDescription = `Find a cheapest set of synchronisation insertions that makes the .pgas
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

Exit codes: 0 repaired (or already robust: nothing to insert), 3 no repair
within the budgets or the vocabulary (the reason says which), 2 usage or
input error or a reachable run-time error, 4 internal error (the repaired
program failed its re-decision or the oracle). See docs/cli.md.`

const exitsRepair = "exit codes: 0 repaired or already robust, 2 usage or input error (also a reachable run-time error),\n" +
	"3 no repair found (budget or vocabulary), 4 internal error (the repaired program failed its checks)"

// repairSchema versions the --json output of repair (docs/cli.md).
const repairSchema = "pgasrob/repair/v1"

type repairJSON struct {
	Schema     string            `json:"schema"`
	File       string            `json:"file"`
	NArg       string            `json:"n"`
	Verdict    string            `json:"verdict"` // repaired, already robust, no repair, run-time error, input error
	Reason     string            `json:"reason,omitempty"`
	Before     []repairNJSON     `json:"before"`
	Insertions []insertionJSON   `json:"insertions"`
	Cost       int64             `json:"cost"`
	Minimality *minimalityJSON   `json:"minimality,omitempty"`
	Rounds     int               `json:"rounds"`
	Candidates int               `json:"candidates"`
	Diff       string            `json:"diff,omitempty"`
	Source     string            `json:"source,omitempty"`
	Written    string            `json:"written,omitempty"`
	After      []repairNJSON     `json:"after"`
	Oracle     []oracleCheckJSON `json:"oracle"`
	ElapsedMS  int64             `json:"elapsed_ms"`
	Errors     []checkError      `json:"errors,omitempty"`
	ExitCode   int               `json:"exit_code"`
}

type repairNJSON struct {
	N         int    `json:"n"`
	Verdict   string `json:"verdict"`
	CycleType []int  `json:"cycle_type,omitempty"` // of the witness, when not robust
	States    int64  `json:"states"`
}

type insertionJSON struct {
	Kind   string `json:"kind"` // wait, waitq, sync, fence, quiet, blocking, atomic
	Line   int    `json:"line"` // the statement an insertion goes before, or the operation changed
	OpLine int    `json:"op_line,omitempty"`
	Queue  string `json:"queue,omitempty"`
	Cost   int64  `json:"cost"`
	Text   string `json:"text"`
}

type minimalityJSON struct {
	Proven  bool   `json:"proven"`
	Checked int    `json:"checked"`
	Total   int    `json:"total"` // -1: more than --proof-sets
	Reason  string `json:"reason,omitempty"`
}

type oracleCheckJSON struct {
	N         int    `json:"n"`
	Complete  bool   `json:"complete"`
	Truncated string `json:"truncated,omitempty"`
	States    int64  `json:"states"`
}

// repairModes: repair has one mode. It decides many programs in turn,
// so the shard flags it shares with decide are refused (and hidden).
var repairModes = modeTable{
	cmd:     "repair",
	needs:   map[string]string{"shard-costs": "shard"},
	choices: []string{"exploration"},
	modes: []mode{{key: "repair", name: "repair", uses: flagList("depth-first write cost proof-sets oracle-nodes", budgetFlagNames, cFlagNames),
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
	c.oracleNodes = fs.Int64("oracle-nodes", oracle.DefaultMaxNodes, "states the oracle may explore per N in the final check")
	return c
}

func runRepair(args []string, stdout, stderr io.Writer) int {
	c := newRepairCmd(stderr)
	fs, b, asJSON, write, costFile, proofSets, oracleNodes := c.fs, c.b, c.asJSON, c.write, c.costFile, c.proofSets, c.oracleNodes
	j, ie, code := prepare("repair", fs, b, repairModes, args, stderr)
	if j == nil {
		return code
	}
	out := repairJSON{Schema: repairSchema, File: j.file, NArg: *b.n, Before: []repairNJSON{}, Insertions: []insertionJSON{}, After: []repairNJSON{}, Oracle: []oracleCheckJSON{}}
	if ie != nil {
		if *asJSON {
			out.Verdict, out.ExitCode, out.Errors = "input error", exitUsage, errorsToJSON(j.file, ie)
			writeJSON(stdout, out)
		}
		return exitUsage
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
		Oracle:   oracle.Bounds{MaxQueue: 4, MaxNodes: *oracleNodes, Timeout: j.opt.Timeout},
		Progress: func(msg string) { stage.Store(msg) }}
	opt.Decide.Progress = func(p cycles.Progress) {
		prog.step(progressStep{cmd: "repair", context: stage.Load().(string), what: "cycle types", done: p.TypesDone, total: p.TypesTotal, states: p.States, elapsed: p.Elapsed})
	}
	opt.Decide.Jobs = *b.jobs
	var res *repair.Result
	var err error
	if cfront.IsC(j.file) {
		res, err = repairC(j.file, j.src, ns, opt)
	} else {
		res, err = repair.Repair(j.file, j.src, ns, opt)
	}
	prog.clear()
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
	if *asJSON {
		fillRepairJSON(&out, j, res, err)
		out.ExitCode = code
		writeJSON(stdout, out)
		return code
	}
	writeRepairText(stdout, j, res, err, out.Written)
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

func nResults(rs []*cycles.Result) []repairNJSON {
	out := []repairNJSON{}
	for _, r := range rs {
		nj := repairNJSON{N: r.N, Verdict: verdictWord(outcome{N: r.N, Res: r}), States: r.Stats.States}
		if r.Witness != nil {
			nj.CycleType = append([]int{}, r.Witness.Cycle...)
		}
		out = append(out, nj)
	}
	return out
}

func fillRepairJSON(out *repairJSON, j *job, res *repair.Result, err error) {
	if err != nil {
		out.Verdict, out.Reason = "internal error", err.Error()
	}
	if res == nil {
		return
	}
	if err == nil {
		out.Verdict, out.Reason = res.Verdict.String(), res.Reason
	}
	out.Before, out.After = nResults(res.Before), nResults(res.After)
	out.Cost, out.Rounds, out.Candidates, out.ElapsedMS = res.Cost, res.Rounds, res.Candidates, res.Elapsed.Milliseconds()
	for _, in := range res.Insertions {
		ij := insertionJSON{Kind: in.Kind.String(), Line: in.At.Line, Queue: in.Queue, Cost: in.Cost, Text: in.Text}
		switch in.Kind {
		case repair.Wait:
			ij.OpLine = in.Op.Line
		case repair.Sync, repair.Blocking, repair.Atomic:
			ij.Line, ij.OpLine = in.Op.Line, in.Op.Line
		}
		out.Insertions = append(out.Insertions, ij)
	}
	if res.Verdict == repair.Repaired || res.Verdict == repair.AlreadyRobust {
		m := res.Minimality
		out.Minimality = &minimalityJSON{Proven: m.Proven, Checked: m.Checked, Total: m.Total, Reason: m.Reason}
		out.Source = string(res.Source)
		out.Diff = repair.Diff(j.file, j.src, res.Source)
	}
	for _, o := range res.Oracle {
		out.Oracle = append(out.Oracle, oracleCheckJSON{N: o.N, Complete: o.Complete, Truncated: o.Truncated, States: o.Explored})
	}
}

func writeRepairText(w io.Writer, j *job, res *repair.Result, err error, written string) {
	if res == nil {
		fmt.Fprintf(w, "%s: INTERNAL ERROR (no repair shown)\n", j.file)
		return
	}
	for _, b := range res.Before {
		fmt.Fprintf(w, "%s, N = %d: %s", j.file, b.N, verdictWord(outcome{N: b.N, Res: b}))
		if b.Witness != nil {
			fmt.Fprintf(w, " (cycle type %v)", b.Witness.Cycle)
		}
		fmt.Fprintln(w)
	}
	switch res.Verdict {
	case repair.AlreadyRobust:
		fmt.Fprintln(w, "nothing to repair")
		return
	case repair.RunError:
		fmt.Fprintf(w, "RUN-TIME ERROR: %s (run \"pgasrob decide\" for the computation that reaches it)\n", res.Reason)
		return
	case repair.NoRepair:
		fmt.Fprintf(w, "NO REPAIR: %s\n", res.Reason)
		return
	}
	if err != nil {
		fmt.Fprintf(w, "INTERNAL ERROR: %v\n", err)
		return
	}
	fmt.Fprintf(w, "REPAIRED at cost %d (%d insertion", res.Cost, len(res.Insertions))
	if len(res.Insertions) != 1 {
		fmt.Fprint(w, "s")
	}
	fmt.Fprintf(w, ", %d rounds, %d candidate insertions, %v):\n", res.Rounds, res.Candidates, res.Elapsed.Round(time.Millisecond))
	for _, in := range res.Insertions {
		fmt.Fprintf(w, "  %s  [%s, cost %d]\n", in.Text, in.Kind, in.Cost)
	}
	m := res.Minimality
	switch {
	case m.Proven:
		fmt.Fprintf(w, "minimal: every cheaper set of insertions (%d) was decided and leaves a violation\n", m.Checked)
	default:
		fmt.Fprintf(w, "minimality not proven: %s (%d cheaper sets decided, all with a violation)\n", m.Reason, m.Checked)
	}
	fmt.Fprint(w, indentDiff(repair.Diff(j.file, j.src, res.Source)))
	var ns, states []string
	for _, a := range res.After {
		ns = append(ns, fmt.Sprint(a.N))
		states = append(states, fmt.Sprint(a.Stats.States))
	}
	fmt.Fprintf(w, "repaired program: ROBUST for N = %s (decided again from its text: %s states)\n", strings.Join(ns, ", "), strings.Join(states, ", "))
	for _, o := range res.Oracle {
		if o.Complete {
			fmt.Fprintf(w, "oracle, N = %d: no violation in the whole state space (%d states)\n", o.N, o.Explored)
		} else {
			fmt.Fprintf(w, "oracle, N = %d: no violation within its bound (%s; %d states)\n", o.N, o.Truncated, o.Explored)
		}
	}
	if written != "" {
		fmt.Fprintf(w, "written to %s\n", written)
	}
}

func indentDiff(d string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}
