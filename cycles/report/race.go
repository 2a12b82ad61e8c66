package report

import (
	"fmt"
	"io"
	"time"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/pgas"
)

// The race criterion (decide --criterion race|all, cycles/race) in text
// and --json; its diagnostics and SARIF results are in race_diag.go. A
// race is two conflicting accesses that the API's happens-before does not
// order, with a computation of X(P,N) that reaches them, certified by the
// race oracle before it comes here.

// RaceOutcome is the race decision of one N.
type RaceOutcome struct {
	N       int
	Res     *race.Result
	Err     error // a witness that failed its certification (exit 4)
	Code    int
	Elapsed time.Duration
}

// RaceJSON is decide --criterion race's --json output.
type RaceJSON struct {
	Schema    string           `json:"schema"`
	File      string           `json:"file"`
	Program   string           `json:"program,omitempty"`
	NArg      string           `json:"n"`
	Criterion string           `json:"criterion"`
	Results   []RaceResultJSON `json:"results"`
	Verdict   string           `json:"verdict"`
	ExitCode  int              `json:"exit_code"`
}

// RaceResultJSON is the race decision of one N.
type RaceResultJSON struct {
	N          int              `json:"n"`
	Verdict    string           `json:"verdict"` // race-free, race, unknown, run-time error
	ExitCode   int              `json:"exit_code"`
	Reason     string           `json:"reason,omitempty"`
	Error      string           `json:"error,omitempty"`
	States     int64            `json:"visited_states"`
	WallMillis int64            `json:"wall_ms"`
	Race       *RaceWitnessJSON `json:"race,omitempty"`
}

// RaceWitnessJSON is a race: the two accesses, and the computation that
// reaches them unordered (indices into Events).
type RaceWitnessJSON struct {
	Cell   string          `json:"cell"`
	First  int             `json:"first"`
	Second int             `json:"second"`
	Events []RaceEventJSON `json:"events"`
}

// RaceEventJSON is one event of a race's computation.
type RaceEventJSON struct {
	Kind string `json:"kind"`
	Rank int    `json:"rank"` // 1-based rank of the .pgas program (the C PE is rank-1)
	Cell string `json:"cell,omitempty"`
	Line int    `json:"line,omitempty"`
	Call string `json:"call,omitempty"`
}

// AllJSON is decide --criterion all's --json output.
type AllJSON struct {
	Schema     string           `json:"schema"`
	File       string           `json:"file"`
	Program    string           `json:"program,omitempty"`
	Criteria   []string         `json:"criteria"`
	Robustness []NResultJSON    `json:"robustness"`
	Race       []RaceResultJSON `json:"race"`
	ExitCode   int              `json:"exit_code"`
}

// RaceVerdictWord is the verdict of one N in --json's words.
func RaceVerdictWord(o RaceOutcome) string {
	if o.Err != nil {
		return "internal error"
	}
	switch o.Res.Verdict {
	case race.Race:
		return "race"
	case race.RaceFree:
		return "race-free"
	case race.Unknown:
		return "unknown"
	}
	return "run-time error"
}

func raceEventJSON(p *pgas.Program, e pgas.Event) RaceEventJSON {
	r := RaceEventJSON{Kind: e.Kind.String(), Rank: e.Rank}
	if e.HasCell {
		r.Cell = CellText(p, e)
	}
	if t, ok := transOf(p, e); ok {
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

// RaceResultToJSON is the --json form of one N.
func RaceResultToJSON(p *pgas.Program, o RaceOutcome) RaceResultJSON {
	r := RaceResultJSON{N: o.N, Verdict: RaceVerdictWord(o), ExitCode: o.Code, Reason: o.Res.Reason,
		States: o.Res.Stats.States, WallMillis: o.Elapsed.Milliseconds()}
	if o.Err != nil {
		r.Error = o.Err.Error()
	} else if o.Res.RunErr != nil {
		r.Error = RunErrText(p, o.Res.RunErr)
	}
	if w := o.Res.Witness; w != nil && o.Err == nil {
		rw := &RaceWitnessJSON{Cell: CellText(p, w.Events[w.J]), First: w.I, Second: w.J}
		for _, e := range w.Events {
			rw.Events = append(rw.Events, raceEventJSON(p, e))
		}
		r.Race = rw
	}
	return r
}

// WriteRaceText prints the race decision of one N.
func WriteRaceText(w io.Writer, file string, p *pgas.Program, o RaceOutcome) {
	res := o.Res
	head := fmt.Sprintf("%s: N = %d: %s", file, o.N, res.Verdict)
	stats := fmt.Sprintf("(%d states, %v)", res.Stats.States, RoundDur(o.Elapsed))
	switch {
	case o.Err != nil:
		fmt.Fprintf(w, "%s: N = %d: INTERNAL ERROR: %v\n", file, o.N, o.Err)
	case res.Witness != nil:
		wit := res.Witness
		a, b := wit.Events[wit.I], wit.Events[wit.J]
		fmt.Fprintf(w, "%s on %s %s\n", head, CellText(p, b), stats)
		fmt.Fprintf(w, "  first access:  %s\n", raceAccessText(p, a))
		fmt.Fprintf(w, "  second access: %s\n", raceAccessText(p, b))
		fmt.Fprintf(w, "  api_hb orders neither before the other (docs/criteria.md, Data races); an execution that reaches them:\n")
		for i, e := range wit.Events {
			line := EventLine(NewEvent(p, i, 0, e, 0))
			if i == wit.I || i == wit.J {
				line += "  <race>"
			}
			fmt.Fprintf(w, "    %s\n", line)
		}
	case res.RunErr != nil:
		fmt.Fprintf(w, "%s: %s %s\n", head, RunErrText(p, res.RunErr), stats)
	case res.Reason != "":
		fmt.Fprintf(w, "%s: %s %s\n", head, res.Reason, stats)
	default:
		fmt.Fprintf(w, "%s %s\n", head, stats)
	}
}

// raceAccessText names one racing access: what it does, by whom, where.
func raceAccessText(p *pgas.Program, e pgas.Event) string {
	s := fmt.Sprintf("%s %s %s", RankText(p, e.Rank), accessVerb(e.Kind), CellText(p, e))
	if t, ok := transOf(p, e); ok {
		s += fmt.Sprintf(", line %d: %s", t.Pos.Line, callText(t))
	}
	return s
}

func accessVerb(k pgas.Kind) string {
	return map[pgas.Kind]string{pgas.KLoad: "reads", pgas.KStore: "writes", pgas.KPopa: "reads (as the transfer's source)",
		pgas.KPopb: "writes (delivery)", pgas.KAmo: "atomically updates", pgas.KAFetch: "atomically reads"}[k]
}
