package main

import (
	"strings"

	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// The --json output of tso (schema pgasrob/tso/v1, docs/cli.md): its
// types, and how a check, a fence search and their witnesses fill them.
// The parameterized and flattening parts are beside their modes
// (tso_param.go, tso_flatten.go), the table's in tso_criteria.go.

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

	// WitnessWithheld: NOT ROBUST without a witness, which would not fit
	// the memory budget; it names the attack and says why.
	WitnessWithheld string `json:"witness_withheld,omitempty"`
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
	out.WitnessWithheld = r.WitnessWithheld
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
