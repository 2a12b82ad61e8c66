package report

import (
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

// The --json output of decide (docs/cli.md): its types, and how a result
// of cycles.Decide fills them. cycles and repair embed the per-N parts.

// DecideSchema names the version of decide's --json output: a change that
// removes or renames a field, or changes its meaning, bumps it.
const DecideSchema = "pgasrob/decide/v1"

// DecideJSON is the --json output of "pgasrob decide" (docs/cli.md).
type DecideJSON struct {
	Schema      string           `json:"schema"`
	File        string           `json:"file"`
	Program     string           `json:"program"`
	NArg        string           `json:"n"`
	Results     []NResultJSON    `json:"results"`
	Race        []RaceResultJSON `json:"race,omitempty"` // a project's file under --criterion race or all
	Verdict     string           `json:"verdict"`
	ExitCode    int              `json:"exit_code"`
	Errors      []ErrorJSON      `json:"errors,omitempty"`
	Warnings    []ErrorJSON      `json:"warnings,omitempty"`
	Assumptions []AssumptionJSON `json:"assumptions,omitempty"`
}

// ErrorJSON is a message at a position (line and col 0 when unknown).
type ErrorJSON struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

// AssumptionJSON is a modelling choice a verdict rests on
// (pgas.Assumption; docs/shmem.md).
type AssumptionJSON struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Warnings are p's warnings for --json (nil when none).
func Warnings(p *pgas.Program) []ErrorJSON {
	if p == nil {
		return nil
	}
	var out []ErrorJSON
	for _, d := range p.Warnings {
		f := d.Pos.File
		if f == "" {
			f = p.File
		}
		out = append(out, ErrorJSON{File: f, Line: d.Pos.Line, Col: d.Pos.Col, Msg: d.Msg})
	}
	return out
}

// Assumptions are p's assumptions for --json (nil when none).
func Assumptions(p *pgas.Program) []AssumptionJSON {
	if p == nil {
		return nil
	}
	var out []AssumptionJSON
	for _, a := range p.Assumptions {
		out = append(out, AssumptionJSON{ID: a.ID, Text: a.Text})
	}
	return out
}

// TypeCounts summarises the cycle types of a result.
type TypeCounts struct {
	// Listing is "all" when the result has every cycle type, "searched"
	// when N has more than cycles.MaxListedTypes: then feasible,
	// infeasible and unknown count the searched representatives only,
	// symmetric the types passed over as their images, skipped the rest.
	Listing    string `json:"listing"`
	Total      int    `json:"total"`
	Checked    int    `json:"checked"`    // searched on their own (any outcome)
	BySymmetry int    `json:"symmetric"`  // outcome taken from a searched type by a renaming of ranks
	Feasible   int    `json:"feasible"`   // product non-empty
	Infeasible int    `json:"infeasible"` // product empty
	Unknown    int    `json:"unknown"`    // budget ran out
	Skipped    int    `json:"skipped"`    // not searched: a violation was found first
}

// CountTypes summarises the cycle types of r.
func CountTypes(r *cycles.Result) TypeCounts {
	if r.Partial {
		k := r.Counts
		return TypeCounts{Listing: "searched", Total: int(k.Total), Checked: int(k.Searched), BySymmetry: int(k.BySymmetry),
			Feasible: int(k.Feasible), Infeasible: int(k.Infeasible), Unknown: int(k.Unknown), Skipped: int(k.Skipped)}
	}
	c := TypeCounts{Listing: "all", Total: len(r.Types)}
	for _, t := range r.Types {
		switch TypeWord(t) {
		case "skipped":
			c.Skipped++
			continue
		case "feasible":
			c.Feasible++
		case "infeasible":
			c.Infeasible++
		default:
			c.Unknown++
		}
		if t.SymmetricTo != nil {
			c.BySymmetry++
		} else {
			c.Checked++
		}
	}
	if len(r.Types) == 0 && r.N > 0 {
		// Stopped in the run-time error check, before any cycle type.
		c.Total = int(cycles.TypeCount(r.N))
		c.Skipped = c.Total
	}
	return c
}

// CellJSON is a cell in --json.
type CellJSON struct {
	Rank int    `json:"rank"`
	Addr int    `json:"addr"`
	Name string `json:"name"`
	// A C program's cell in OpenSHMEM terms: the PE (rank - 1) and
	// "name@PEp" as the text output writes it; absent for .pgas.
	PE   *int   `json:"pe,omitempty"`
	Text string `json:"text,omitempty"`
}

// EventJSON is an event in --json.
type EventJSON struct {
	Index int       `json:"index"` // position in the listed computation, from 0
	Part  int       `json:"part,omitempty"`
	Kind  string    `json:"kind"`
	Rank  int       `json:"rank"`
	PE    *int      `json:"pe,omitempty"` // a C program: the PE that issued it (rank - 1)
	Cell  *CellJSON `json:"cell"`         // null when the event accesses no cell
	Queue string    `json:"queue,omitempty"`
	Line  int       `json:"line"`
	Col   int       `json:"col"`
	Text  string    `json:"text"`
	Sugar string    `json:"sugar,omitempty"`
	Mark  string    `json:"mark,omitempty"`
}

// EventToJSON is ev for --json.
func EventToJSON(ev Event) EventJSON {
	j := EventJSON{Index: ev.Index, Part: ev.Part, Kind: ev.Kind, Rank: ev.Rank, Queue: ev.Queue, Mark: ev.Mark}
	if c := ev.Cell; c != nil {
		j.Cell = &CellJSON{Rank: c.Rank, Addr: c.Addr, Name: c.Name}
		if ev.C {
			j.Cell.PE, j.Cell.Text = ptr(c.Proc), c.Text
		}
	}
	if ev.C {
		j.PE = ptr(ev.Proc)
	}
	if ev.HasPos {
		j.Line, j.Col, j.Text, j.Sugar = ev.Pos.Line, ev.Pos.Col, ev.Text, ev.Sugar
	}
	return j
}

func ptr[T any](v T) *T { return &v }

// StatsJSON is the statistics of a search.
type StatsJSON struct {
	States          int64   `json:"states"`
	Transitions     int64   `json:"transitions"`
	Bytes           int64   `json:"bytes"`
	ElapsedMS       float64 `json:"elapsed_ms"`
	StatesPerSecond float64 `json:"states_per_second"`
	BytesPerState   float64 `json:"bytes_per_state"`
	// BeyondBudget: of States, those visited beyond the memory budget,
	// with the state cache (absent when none).
	BeyondBudget int64 `json:"beyond_budget,omitempty"`
}

// CacheJSON is the move cache's hits.
type CacheJSON struct {
	Hits    int64   `json:"hits"`
	Misses  int64   `json:"misses"`
	HitRate float64 `json:"hit_rate"`
}

// EdgeJSON is a step of a happens-before cycle.
type EdgeJSON struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Rel  string `json:"rel"` // "po", "cf" or "↔"
}

// WitnessJSON is a certified violation.
type WitnessJSON struct {
	Direct    bool          `json:"direct,omitempty"` // found by the oracle: one part, no marks, no cycle type
	CycleType []int         `json:"cycle_type"`
	CyclePEs  []int         `json:"cycle_pes,omitempty"` // a C program: cycle_type as PE numbers (rank - 1)
	Parts     [][]EventJSON `json:"parts"`               // τ1..τ4; index counts through all parts
	Cycle     []EdgeJSON    `json:"cycle"`               // indices into the parts' events
	Certified bool          `json:"certified"`
}

// RuntimeErrorJSON is a reachable run-time error and its path.
type RuntimeErrorJSON struct {
	Message string      `json:"message"`
	Path    []EventJSON `json:"path"`
}

// NResultJSON is the result for one N.
type NResultJSON struct {
	N            int               `json:"n"`
	Verdict      string            `json:"verdict"`
	Procedure    string            `json:"procedure,omitempty"` // automata | oracle: who answered
	ExitCode     int               `json:"exit_code"`
	Reason       string            `json:"reason,omitempty"`
	Stats        StatsJSON         `json:"stats"`
	Cache        CacheJSON         `json:"cache"`
	CycleTypes   TypeCounts        `json:"cycle_types"`
	Witness      *WitnessJSON      `json:"witness,omitempty"`
	RuntimeError *RuntimeErrorJSON `json:"runtime_error,omitempty"`
	Error        string            `json:"error,omitempty"`
	DotFile      string            `json:"dot_file,omitempty"`
	Note         string            `json:"note,omitempty"` // where the decision departed from its options
}

// StatsToJSON is st for --json.
func StatsToJSON(st automata.Stats, elapsed time.Duration) StatsJSON {
	s := StatsJSON{States: st.States, Transitions: st.Transitions, Bytes: st.Bytes,
		ElapsedMS: float64(elapsed.Microseconds()) / 1000, BytesPerState: bytesPerState(st), BeyondBudget: st.Beyond}
	if elapsed > 0 {
		s.StatesPerSecond = float64(st.States) / elapsed.Seconds()
	}
	return s
}

// ResultToJSON is the result for one N; p may be nil when neither a
// witness nor a path is to be rendered.
func ResultToJSON(p *pgas.Program, o Outcome) NResultJSON {
	j := NResultJSON{N: o.N, Verdict: VerdictWord(o), ExitCode: o.Code}
	if o.Res == nil {
		if o.Err != nil {
			j.Error = o.Err.Error()
		}
		return j
	}
	r := o.Res
	j.Reason, j.Procedure, j.Note = r.Reason, r.Procedure, r.Note
	j.Stats = StatsToJSON(r.Stats, r.Elapsed)
	j.Cache = CacheJSON{Hits: r.CacheHits, Misses: r.CacheMiss}
	if t := r.CacheHits + r.CacheMiss; t > 0 {
		j.Cache.HitRate = float64(r.CacheHits) / float64(t)
	}
	j.CycleTypes = CountTypes(r)
	if r.Witness != nil {
		j.Witness = WitnessToJSON(NewWitness(p, o.N, r.Witness), IsC(p))
	}
	if re := r.RunError; re != nil {
		j.RuntimeError = RunErrorToJSON(p, re)
	}
	return j
}

// WitnessToJSON is m for --json.
func WitnessToJSON(m *Witness, c bool) *WitnessJSON {
	wj := &WitnessJSON{Direct: m.Direct, CycleType: append([]int{}, m.CycleType...), Parts: make([][]EventJSON, len(m.Parts)), Certified: true}
	for k, part := range m.Parts {
		wj.Parts[k] = []EventJSON{}
		for _, ev := range part {
			wj.Parts[k] = append(wj.Parts[k], EventToJSON(ev))
		}
	}
	if c && len(m.CycleType) > 0 {
		wj.CyclePEs = append([]int{}, m.CycleProcs...)
	}
	for _, e := range m.Cycle {
		wj.Cycle = append(wj.Cycle, EdgeJSON{e.From, e.To, e.Rel})
	}
	return wj
}

// RunErrorToJSON is a run-time error with its path.
func RunErrorToJSON(p *pgas.Program, re *cycles.RuntimeError) *RuntimeErrorJSON {
	rj := &RuntimeErrorJSON{Message: RunErrText(p, re.Err), Path: []EventJSON{}}
	for _, ev := range NewPath(p, re.Path) {
		rj.Path = append(rj.Path, EventToJSON(ev))
	}
	return rj
}
