package main

import (
	"fmt"
	"io"

	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas"
)

// The text and JSON of the race criterion (decide --criterion race|all).

type pgasRaceJSON struct {
	Schema    string           `json:"schema"`
	File      string           `json:"file"`
	Program   string           `json:"program,omitempty"`
	NArg      string           `json:"n"`
	Criterion string           `json:"criterion"`
	Results   []raceResultJSON `json:"results"`
	Verdict   string           `json:"verdict"`
	ExitCode  int              `json:"exit_code"`
}

type raceResultJSON struct {
	N          int              `json:"n"`
	Verdict    string           `json:"verdict"` // race-free, race, unknown, run-time error
	ExitCode   int              `json:"exit_code"`
	Reason     string           `json:"reason,omitempty"`
	Error      string           `json:"error,omitempty"`
	States     int64            `json:"visited_states"`
	WallMillis int64            `json:"wall_ms"`
	Race       *raceWitnessJSON `json:"race,omitempty"`
}

// raceWitnessJSON is a race: the two accesses, and the computation that
// reaches them unordered (indices into Events).
type raceWitnessJSON struct {
	Cell   string          `json:"cell"`
	First  int             `json:"first"`
	Second int             `json:"second"`
	Events []raceEventJSON `json:"events"`
}

type raceEventJSON struct {
	Kind string `json:"kind"`
	Rank int    `json:"rank"` // 1-based rank of the .pgas program (the C PE is rank-1)
	Cell string `json:"cell,omitempty"`
	Line int    `json:"line,omitempty"`
	Call string `json:"call,omitempty"`
}

// allSchema names the version of decide --criterion all's JSON.
const allSchema = "pgasrob/decide-all/v1"

type allJSON struct {
	Schema     string           `json:"schema"`
	File       string           `json:"file"`
	Program    string           `json:"program,omitempty"`
	Criteria   []string         `json:"criteria"`
	Robustness []nResultJSON    `json:"robustness"`
	Race       []raceResultJSON `json:"race"`
	ExitCode   int              `json:"exit_code"`
}

func raceVerdictWord(o raceOutcome) string {
	if o.Err != nil {
		return "internal error"
	}
	switch o.Res.Verdict.String() {
	case "RACE":
		return "race"
	case "RACE-FREE":
		return "race-free"
	case "UNKNOWN":
		return "unknown"
	}
	return "run-time error"
}

func raceEventJSONOf(p *pgas.Program, e pgas.Event) raceEventJSON {
	r := raceEventJSON{Kind: e.Kind.String(), Rank: e.Rank}
	if e.HasCell {
		r.Cell = report.CellText(p, e)
	}
	if e.Trans >= 0 && e.Trans < len(p.Trans) {
		t := p.Trans[e.Trans]
		r.Line, r.Call = t.Pos.Line, callText(t)
	}
	return r
}

// callText is the call an event belongs to, as the user wrote it.
func callText(t pgas.Trans) string {
	if t.Text != "" {
		return t.Text
	}
	return t.Sugar
}

func raceResultToJSON(j *job, o raceOutcome) raceResultJSON {
	r := raceResultJSON{N: o.N, Verdict: raceVerdictWord(o), ExitCode: o.Code, Reason: o.Res.Reason,
		States: o.Res.Stats.States, WallMillis: o.Elapsed.Milliseconds()}
	if o.Err != nil {
		r.Error = o.Err.Error()
	} else if o.Res.RunErr != nil {
		r.Error = report.RunErrText(j.progFor(o.N), o.Res.RunErr)
	}
	if w := o.Res.Witness; w != nil && o.Err == nil {
		rw := &raceWitnessJSON{Cell: report.CellText(j.progFor(o.N), w.Events[w.J]), First: w.I, Second: w.J}
		for _, e := range w.Events {
			rw.Events = append(rw.Events, raceEventJSONOf(j.progFor(o.N), e))
		}
		r.Race = rw
	}
	return r
}

// writeRaceText prints the race decision of one N.
func writeRaceText(w io.Writer, file string, p *pgas.Program, o raceOutcome) {
	res := o.Res
	head := fmt.Sprintf("%s: N = %d: %s", file, o.N, res.Verdict)
	stats := fmt.Sprintf("(%d states, %v)", res.Stats.States, report.RoundDur(o.Elapsed))
	switch {
	case o.Err != nil:
		fmt.Fprintf(w, "%s: N = %d: INTERNAL ERROR: %v\n", file, o.N, o.Err)
	case res.Witness != nil:
		wit := res.Witness
		a, b := wit.Events[wit.I], wit.Events[wit.J]
		fmt.Fprintf(w, "%s on %s %s\n", head, report.CellText(p, b), stats)
		fmt.Fprintf(w, "  first access:  %s\n", raceAccessText(p, a))
		fmt.Fprintf(w, "  second access: %s\n", raceAccessText(p, b))
		fmt.Fprintf(w, "  api_hb orders neither before the other (docs/criteria.md, Data races); an execution that reaches them:\n")
		for i, e := range wit.Events {
			line := report.EventLine(report.NewEvent(p, i, 0, e, 0))
			if i == wit.I || i == wit.J {
				line += "  <race>"
			}
			fmt.Fprintf(w, "    %s\n", line)
		}
	case res.RunErr != nil:
		fmt.Fprintf(w, "%s: %s %s\n", head, report.RunErrText(p, res.RunErr), stats)
	case res.Reason != "":
		fmt.Fprintf(w, "%s: %s %s\n", head, res.Reason, stats)
	default:
		fmt.Fprintf(w, "%s %s\n", head, stats)
	}
}

// raceAccessText names one racing access: what it does, by whom, where.
func raceAccessText(p *pgas.Program, e pgas.Event) string {
	what := map[pgas.Kind]string{pgas.KLoad: "reads", pgas.KStore: "writes", pgas.KPopa: "reads (as the transfer's source)",
		pgas.KPopb: "writes (delivery)", pgas.KAmo: "atomically updates", pgas.KAFetch: "atomically reads"}[e.Kind]
	s := fmt.Sprintf("%s %s %s", report.RankText(p, e.Rank), what, report.CellText(p, e))
	if e.Trans >= 0 && e.Trans < len(p.Trans) {
		t := p.Trans[e.Trans]
		s += fmt.Sprintf(", line %d: %s", t.Pos.Line, callText(t))
	}
	return s
}
