package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

// The output of "pgasrob cycles": a table of the cycle types of each N,
// in text and --json (docs/cli.md).

// CyclesSchema names the version of cycles' --json output.
const CyclesSchema = "pgasrob/cycles/v1"

// RestrictedRobust is the verdict of --type when none of the given cycle
// types is feasible: robustness needs every cycle type, so a subset only
// answers for itself.
const RestrictedRobust = "no violation of these types"

// CyclesJSON is the --json output of "pgasrob cycles" (docs/cli.md).
type CyclesJSON struct {
	Schema   string        `json:"schema"`
	File     string        `json:"file"`
	Program  string        `json:"program"`
	NArg     string        `json:"n"`
	Results  []CyclesNJSON `json:"results"`
	Verdict  string        `json:"verdict"`
	ExitCode int           `json:"exit_code"`
	Errors   []ErrorJSON   `json:"errors,omitempty"`
	// Restricted is true with --type: then "robust" only means that none
	// of the given cycle types is feasible.
	Restricted  bool             `json:"restricted"`
	Warnings    []ErrorJSON      `json:"warnings,omitempty"`
	Assumptions []AssumptionJSON `json:"assumptions,omitempty"`
}

// CyclesNJSON is the result of cycles for one N.
type CyclesNJSON struct {
	N            int               `json:"n"`
	Verdict      string            `json:"verdict"`
	ExitCode     int               `json:"exit_code"`
	Reason       string            `json:"reason,omitempty"`
	Stats        StatsJSON         `json:"stats"`
	Cache        CacheJSON         `json:"cache"`
	CycleTypes   TypeCounts        `json:"cycle_types"`
	Types        []CycleTypeJSON   `json:"types"`
	Yardsticks   *YardsticksJSON   `json:"yardsticks,omitempty"`
	RuntimeError *RuntimeErrorJSON `json:"runtime_error,omitempty"`
	Error        string            `json:"error,omitempty"`
}

// YardsticksJSON is cycles.Yardsticks with its ratios (--yardsticks).
type YardsticksJSON struct {
	ProductStates      int64   `json:"product_states"`
	ReducedYStates     int64   `json:"reduced_y_states"`
	YMarksStates       int64   `json:"y_marks_states"`
	ProductPerReducedY float64 `json:"product_per_reduced_y"`
	ProductPerYMarks   float64 `json:"product_per_y_marks"`
}

// CycleTypeJSON is the verdict on one cycle type.
type CycleTypeJSON struct {
	CycleType   []int  `json:"cycle_type"`
	Verdict     string `json:"verdict"` // feasible, infeasible, unknown, skipped
	Reason      string `json:"reason,omitempty"`
	SymmetricTo []int  `json:"symmetric_to,omitempty"`
	// A C program: cycle_type and symmetric_to as PE numbers (rank - 1).
	CyclePEs       []int     `json:"cycle_pes,omitempty"`
	SymmetricToPEs []int     `json:"symmetric_to_pes,omitempty"`
	Stats          StatsJSON `json:"stats"`
}

// WriteCyclesText prints the table of one N.
func WriteCyclesText(w io.Writer, file string, o Outcome, restricted bool) {
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
	c := CountTypes(r)
	verdict := r.Verdict.String()
	if restricted {
		// Robustness needs every cycle type; a subset only answers for itself.
		verdict = strings.ToUpper(RestrictedRobust)
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
		word := TypeWord(t)
		if t.SymmetricTo != nil {
			fmt.Fprintf(w, "  %-14v %-11s %12s %12s %10s  same as %v by symmetry\n", t.Cycle, word, "", "", "", t.SymmetricTo)
			continue
		}
		note := ""
		if word == "unknown" && t.Reason != "" {
			note = "  " + t.Reason
		}
		fmt.Fprintf(w, "  %-14v %-11s %12d %12d %10v%s\n", t.Cycle, word, t.Stats.States, t.Stats.Transitions, RoundDur(t.Stats.Elapsed), note)
	}
	fmt.Fprintf(w, "  total: %s\n", StatsLine(r))
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

// CyclesToJSON is the result of cycles for one N; p may be nil (a merge
// of shards that did not keep the program).
func CyclesToJSON(p *pgas.Program, o Outcome) CyclesNJSON {
	d := ResultToJSON(nil, Outcome{N: o.N, Res: withoutWitness(o.Res), Err: o.Err, Code: o.Code})
	j := CyclesNJSON{N: d.N, Verdict: d.Verdict, ExitCode: d.ExitCode, Reason: d.Reason, Stats: d.Stats,
		Cache: d.Cache, CycleTypes: d.CycleTypes, Error: d.Error, Types: []CycleTypeJSON{}}
	if o.Res == nil {
		return j
	}
	if re := o.Res.RunError; re != nil {
		// The path is printed by "pgasrob decide"; here the message is enough.
		j.RuntimeError = &RuntimeErrorJSON{Message: RunErrText(p, re.Err), Path: []EventJSON{}}
	}
	if y := o.Res.Yardsticks; y != nil {
		j.Yardsticks = &YardsticksJSON{y.ProductStates, y.ReducedY, y.YMarks, ratio(y.ProductStates, y.ReducedY), ratio(y.ProductStates, y.YMarks)}
	}
	for _, t := range o.Res.Types {
		tj := CycleTypeJSON{CycleType: append([]int{}, t.Cycle...), Verdict: TypeWord(t), Stats: StatsToJSON(t.Stats, t.Stats.Elapsed)}
		if tj.Verdict == "unknown" {
			tj.Reason = t.Reason
		}
		if t.SymmetricTo != nil {
			tj.SymmetricTo = append([]int{}, t.SymmetricTo...)
		}
		if IsC(p) {
			tj.CyclePEs = pes(t.Cycle)
			if t.SymmetricTo != nil {
				tj.SymmetricToPEs = pes(t.SymmetricTo)
			}
		}
		j.Types = append(j.Types, tj)
	}
	return j
}

// pes renames ranks to PE numbers.
func pes(ranks []int) []int {
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = r - 1
	}
	return out
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
