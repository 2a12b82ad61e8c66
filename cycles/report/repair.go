package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
)

// The output of "pgasrob repair": text and --json (docs/cli.md).

// RepairSchema versions the --json output of repair (docs/cli.md).
const RepairSchema = "pgasrob/repair/v1"

// RepairJSON is part of the --json output of repair.
type RepairJSON struct {
	Schema     string            `json:"schema"`
	File       string            `json:"file"`
	NArg       string            `json:"n"`
	Criterion  string            `json:"criterion,omitempty"` // "race" for repair --criterion race; absent for robustness
	Verdict    string            `json:"verdict"`             // repaired, already robust (already race-free), no repair, run-time error, input error
	Reason     string            `json:"reason,omitempty"`
	Before     []RepairNJSON     `json:"before"`
	Insertions []InsertionJSON   `json:"insertions"`
	Cost       int64             `json:"cost"`
	Minimality *MinimalityJSON   `json:"minimality,omitempty"`
	Rounds     int               `json:"rounds"`
	Candidates int               `json:"candidates"`
	Diff       string            `json:"diff,omitempty"`
	Source     string            `json:"source,omitempty"`
	Written    string            `json:"written,omitempty"`
	After      []RepairNJSON     `json:"after"`
	Oracle     []OracleCheckJSON `json:"oracle"`
	ElapsedMS  int64             `json:"elapsed_ms"`
	Errors     []ErrorJSON       `json:"errors,omitempty"`
	ExitCode   int               `json:"exit_code"`
}

// RepairNJSON is part of the --json output of repair.
type RepairNJSON struct {
	N         int    `json:"n"`
	Verdict   string `json:"verdict"`
	CycleType []int  `json:"cycle_type,omitempty"` // of the witness, when not robust
	States    int64  `json:"states"`
}

// InsertionJSON is part of the --json output of repair.
type InsertionJSON struct {
	Kind   string `json:"kind"` // wait, waitq, sync, fence, quiet, blocking, atomic
	Line   int    `json:"line"` // the statement an insertion goes before, or the operation changed
	OpLine int    `json:"op_line,omitempty"`
	Queue  string `json:"queue,omitempty"`
	Cost   int64  `json:"cost"`
	Text   string `json:"text"`
}

// MinimalityJSON is part of the --json output of repair.
type MinimalityJSON struct {
	Proven  bool   `json:"proven"`
	Checked int    `json:"checked"`
	Total   int    `json:"total"` // -1: more than --proof-sets
	Reason  string `json:"reason,omitempty"`
}

// OracleCheckJSON is part of the --json output of repair.
type OracleCheckJSON struct {
	N         int    `json:"n"`
	Complete  bool   `json:"complete"`
	Truncated string `json:"truncated,omitempty"`
	States    int64  `json:"states"`
}

// NewRepairJSON is the --json output of a repair of file for -n narg,
// its lists empty.
func NewRepairJSON(file, narg string) RepairJSON {
	return RepairJSON{Schema: RepairSchema, File: file, NArg: narg, Before: []RepairNJSON{}, Insertions: []InsertionJSON{}, After: []RepairNJSON{}, Oracle: []OracleCheckJSON{}}
}

func nResults(rs []*cycles.Result) []RepairNJSON {
	out := []RepairNJSON{}
	for _, r := range rs {
		nj := RepairNJSON{N: r.N, Verdict: VerdictWord(Outcome{N: r.N, Res: r}), States: r.Stats.States}
		if r.Witness != nil {
			nj.CycleType = append([]int{}, r.Witness.Cycle...)
		}
		out = append(out, nj)
	}
	return out
}

// FillRepairJSON fills the --json output of a repair of file (source src).
func FillRepairJSON(out *RepairJSON, file string, src []byte, res *repair.Result, err error) {
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
	if res.Criterion == repair.CriterionRace {
		out.Criterion, out.Before, out.After = res.Criterion, raceNResults(res.RaceBefore), raceNResults(res.RaceAfter)
		if err == nil && res.Verdict == repair.AlreadyRobust {
			out.Verdict = "already race-free"
		}
	}
	out.Cost, out.Rounds, out.Candidates, out.ElapsedMS = res.Cost, res.Rounds, res.Candidates, res.Elapsed.Milliseconds()
	for _, in := range res.Insertions {
		ij := InsertionJSON{Kind: in.Kind.String(), Line: in.At.Line, Queue: in.Queue, Cost: in.Cost, Text: in.Text}
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
		out.Minimality = &MinimalityJSON{Proven: m.Proven, Checked: m.Checked, Total: m.Total, Reason: m.Reason}
		out.Source = string(res.Source)
		out.Diff = repair.Diff(file, src, res.Source)
	}
	for _, o := range res.Oracle {
		out.Oracle = append(out.Oracle, OracleCheckJSON{N: o.N, Complete: o.Complete, Truncated: o.Truncated, States: o.Explored})
	}
}

// WriteRepairText prints a repair of file (source src) for a person.
func WriteRepairText(w io.Writer, file string, src []byte, res *repair.Result, err error, written string) {
	if res == nil {
		fmt.Fprintf(w, "%s: INTERNAL ERROR (no repair shown)\n", file)
		return
	}
	for _, b := range res.Before {
		fmt.Fprintf(w, "%s, N = %d: %s", file, b.N, VerdictWord(Outcome{N: b.N, Res: b}))
		if b.Witness != nil {
			fmt.Fprintf(w, " (cycle type %v)", b.Witness.Cycle)
		}
		fmt.Fprintln(w)
	}
	races := res.Criterion == repair.CriterionRace
	for _, b := range res.RaceBefore {
		fmt.Fprintf(w, "%s, N = %d: %s\n", file, b.N, RaceVerdictWord(RaceOutcome{N: b.N, Res: b.Res}))
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
	rounds := "rounds"
	if races {
		rounds = "sets decided"
	}
	fmt.Fprintf(w, ", %d %s, %d candidate insertions, %v):\n", res.Rounds, rounds, res.Candidates, res.Elapsed.Round(time.Millisecond))
	for _, in := range res.Insertions {
		fmt.Fprintf(w, "  %s  [%s, cost %d]\n", in.Text, in.Kind, in.Cost)
	}
	m := res.Minimality
	bad := "a violation"
	if races {
		bad = "a race"
	}
	switch {
	case m.Proven:
		fmt.Fprintf(w, "minimal: every cheaper set of insertions (%d) was decided and leaves %s\n", m.Checked, bad)
	default:
		fmt.Fprintf(w, "minimality not proven: %s (%d cheaper sets decided, all with %s)\n", m.Reason, m.Checked, bad)
	}
	fmt.Fprint(w, indentDiff(repair.Diff(file, src, res.Source)))
	if races {
		writeRaceAfter(w, res)
		if written != "" {
			fmt.Fprintf(w, "written to %s\n", written)
		}
		return
	}
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

func raceNResults(rs []repair.RaceN) []RepairNJSON {
	out := []RepairNJSON{}
	for _, r := range rs {
		out = append(out, RepairNJSON{N: r.N, Verdict: RaceVerdictWord(RaceOutcome{N: r.N, Res: r.Res}), States: r.Res.Stats.States})
	}
	return out
}

// writeRaceAfter prints the checks of a race repair: the re-decision of
// the repaired program and the race oracle's enumeration.
func writeRaceAfter(w io.Writer, res *repair.Result) {
	var ns, states []string
	for _, a := range res.RaceAfter {
		ns = append(ns, fmt.Sprint(a.N))
		states = append(states, fmt.Sprint(a.Res.Stats.States))
	}
	fmt.Fprintf(w, "repaired program: RACE-FREE for N = %s (decided again from its text: %s states)\n", strings.Join(ns, ", "), strings.Join(states, ", "))
	for _, o := range res.Oracle {
		if o.Complete {
			fmt.Fprintf(w, "race oracle, N = %d: no race in any computation (%d steps)\n", o.N, o.Explored)
		} else {
			fmt.Fprintf(w, "race oracle, N = %d: no race within its bound (%s; %d steps)\n", o.N, o.Truncated, o.Explored)
		}
	}
}
