package main

import (
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The --json output of decide (docs/cli.md): its types, and how a result
// of cycles.Decide fills them. cycles and repair embed the per-N parts
// (cycles.go, repair.go).

// decideSchema names the version of the --json output: a change that
// removes or renames a field, or changes its meaning, bumps it.
const decideSchema = "pgasrob/decide/v1"

// decideJSON is the --json output of "pgasrob decide" (docs/cli.md).
type decideJSON struct {
	Schema   string        `json:"schema"`
	File     string        `json:"file"`
	Program  string        `json:"program"`
	NArg     string        `json:"n"`
	Results  []nResultJSON `json:"results"`
	Verdict  string        `json:"verdict"`
	ExitCode int           `json:"exit_code"`
	Errors   []checkError  `json:"errors,omitempty"`
	// Warnings and Assumptions are Program.Warnings and
	// Program.Assumptions (issue 34).
	Warnings    []checkError     `json:"warnings,omitempty"`
	Assumptions []assumptionJSON `json:"assumptions,omitempty"`
}

type assumptionJSON struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// programNotes fills the warnings and assumptions of p.
func (d *decideJSON) programNotes(p *pgas.Program) {
	if p == nil {
		return
	}
	for _, w := range p.Warnings {
		d.Warnings = append(d.Warnings, checkError{w.Pos.File, w.Pos.Line, w.Pos.Col, w.Msg})
	}
	for _, a := range p.Assumptions {
		d.Assumptions = append(d.Assumptions, assumptionJSON{a.ID, a.Text})
	}
}

// errorsToJSON lists input errors with their positions (0 when unknown).
func errorsToJSON(file string, ie *inputError) []checkError {
	if len(ie.list) == 0 {
		return []checkError{{File: file, Msg: ie.err.Error()}}
	}
	var out []checkError
	for i, e := range ie.list {
		if i == pgas.MaxErrors {
			// The cap of the text list (pgas.ErrorList.Error).
			out = append(out, checkError{File: file, Msg: "too many errors"})
			break
		}
		out = append(out, checkError{e.Pos.File, e.Pos.Line, e.Pos.Col, e.Msg})
	}
	return out
}

// typeCounts summarises the cycle types of a result.
type typeCounts struct {
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

func countTypes(r *cycles.Result) typeCounts {
	if r.Partial {
		k := r.Counts
		return typeCounts{Listing: "searched", Total: int(k.Total), Checked: int(k.Searched), BySymmetry: int(k.BySymmetry),
			Feasible: int(k.Feasible), Infeasible: int(k.Infeasible), Unknown: int(k.Unknown), Skipped: int(k.Skipped)}
	}
	c := typeCounts{Listing: "all", Total: len(r.Types)}
	for _, t := range r.Types {
		switch typeWord(t) {
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

type cellJSON struct {
	Rank int    `json:"rank"`
	Addr int    `json:"addr"`
	Name string `json:"name"`
	// A C program's cell in OpenSHMEM terms: the PE (rank - 1) and
	// "name@PEp" as the text output writes it; absent for .pgas.
	PE   *int   `json:"pe,omitempty"`
	Text string `json:"text,omitempty"`
}

type eventJSON struct {
	Index int       `json:"index"` // position in the listed computation, from 0
	Part  int       `json:"part,omitempty"`
	Kind  string    `json:"kind"`
	Rank  int       `json:"rank"`
	PE    *int      `json:"pe,omitempty"` // a C program: the PE that issued it (rank - 1)
	Cell  *cellJSON `json:"cell"`         // null when the event accesses no cell
	Queue string    `json:"queue,omitempty"`
	Line  int       `json:"line"`
	Col   int       `json:"col"`
	Text  string    `json:"text"`
	Sugar string    `json:"sugar,omitempty"`
	Mark  string    `json:"mark,omitempty"`
}

func eventToJSON(p *pgas.Program, i, part int, e pgas.Event, mark normalform.Mark) eventJSON {
	j := eventJSON{Index: i, Part: part, Kind: e.Kind.String(), Rank: e.Rank, Queue: queueName(p, e.Queue), Mark: mark.String()}
	if e.HasCell {
		j.Cell = &cellJSON{Rank: e.Cell.Rank, Addr: e.Cell.Addr, Name: addrName(p, e.Cell.Addr)}
		if isC(p) {
			j.Cell.PE, j.Cell.Text = pePtr(e.Cell.Rank), cellText(p, e)
		}
	}
	if isC(p) {
		j.PE = pePtr(e.Rank)
	}
	if t, ok := transOf(p, e); ok {
		j.Line, j.Col, j.Text, j.Sugar = t.Pos.Line, t.Pos.Col, t.Text, t.Sugar
	}
	return j
}

type statsJSON struct {
	States          int64   `json:"states"`
	Transitions     int64   `json:"transitions"`
	Bytes           int64   `json:"bytes"`
	ElapsedMS       float64 `json:"elapsed_ms"`
	StatesPerSecond float64 `json:"states_per_second"`
	BytesPerState   float64 `json:"bytes_per_state"`
}

type cacheJSON struct {
	Hits    int64   `json:"hits"`
	Misses  int64   `json:"misses"`
	HitRate float64 `json:"hit_rate"`
}

type edgeJSON struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Rel  string `json:"rel"` // "po", "cf" or "↔"
}

type witnessJSON struct {
	Direct    bool          `json:"direct,omitempty"` // found by the oracle: one part, no marks, no cycle type
	CycleType []int         `json:"cycle_type"`
	CyclePEs  []int         `json:"cycle_pes,omitempty"` // a C program: cycle_type as PE numbers (rank - 1)
	Parts     [][]eventJSON `json:"parts"`               // τ1..τ4; index counts through all parts
	Cycle     []edgeJSON    `json:"cycle"`               // indices into the parts' events
	Certified bool          `json:"certified"`
}

type runtimeErrorJSON struct {
	Message string      `json:"message"`
	Path    []eventJSON `json:"path"`
}

type nResultJSON struct {
	N            int               `json:"n"`
	Verdict      string            `json:"verdict"`
	Procedure    string            `json:"procedure,omitempty"` // automata | oracle: who answered
	ExitCode     int               `json:"exit_code"`
	Reason       string            `json:"reason,omitempty"`
	Stats        statsJSON         `json:"stats"`
	Cache        cacheJSON         `json:"cache"`
	CycleTypes   typeCounts        `json:"cycle_types"`
	Witness      *witnessJSON      `json:"witness,omitempty"`
	RuntimeError *runtimeErrorJSON `json:"runtime_error,omitempty"`
	Error        string            `json:"error,omitempty"`
	DotFile      string            `json:"dot_file,omitempty"`
	Note         string            `json:"note,omitempty"` // where the decision departed from its options
}

func statsToJSON(st automata.Stats, elapsed time.Duration) statsJSON {
	s := statsJSON{States: st.States, Transitions: st.Transitions, Bytes: st.Bytes,
		ElapsedMS: float64(elapsed.Microseconds()) / 1000, BytesPerState: bytesPerState(st)}
	if elapsed > 0 {
		s.StatesPerSecond = float64(st.States) / elapsed.Seconds()
	}
	return s
}

func resultToJSON(p *pgas.Program, o outcome) nResultJSON {
	j := nResultJSON{N: o.N, Verdict: verdictWord(o), ExitCode: o.Code}
	if o.Res == nil {
		if o.Err != nil {
			j.Error = o.Err.Error()
		}
		return j
	}
	r := o.Res
	j.Reason, j.Procedure, j.Note = r.Reason, r.Procedure, r.Note
	j.Stats = statsToJSON(r.Stats, r.Elapsed)
	j.Cache = cacheJSON{Hits: r.CacheHits, Misses: r.CacheMiss}
	if t := r.CacheHits + r.CacheMiss; t > 0 {
		j.Cache.HitRate = float64(r.CacheHits) / float64(t)
	}
	j.CycleTypes = countTypes(r)
	if w := r.Witness; w != nil {
		wj := &witnessJSON{Direct: w.Direct, CycleType: append([]int{}, w.Cycle...), Parts: make([][]eventJSON, len(w.Parts)), Certified: true}
		i := 0
		for k, part := range w.Parts {
			wj.Parts[k] = []eventJSON{}
			for _, l := range part {
				wj.Parts[k] = append(wj.Parts[k], eventToJSON(p, i, k+1, l.Event, l.Mark))
				i++
			}
		}
		if isC(p) && len(w.Cycle) > 0 {
			wj.CyclePEs = pes(w.Cycle)
		}
		for _, e := range w.HB {
			wj.Cycle = append(wj.Cycle, edgeJSON{e.From, e.To, e.Rel.String()})
		}
		j.Witness = wj
	}
	if re := r.RunError; re != nil {
		rj := &runtimeErrorJSON{Message: errMessage(p, re.Err), Path: []eventJSON{}}
		for i, e := range re.Path {
			rj.Path = append(rj.Path, eventToJSON(p, i, 0, e, 0))
		}
		j.RuntimeError = rj
	}
	return j
}

// isC says the program was translated from C: its JSON adds OpenSHMEM's
// terms (PEs from 0, name@PEp) next to the .pgas ones, which keep their
// meaning.
func isC(p *pgas.Program) bool { return p != nil && p.Dialect == "c" }

func pePtr(rank int) *int {
	pe := rank - 1
	return &pe
}

// pes renames ranks to PE numbers.
func pes(ranks []int) []int {
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = r - 1
	}
	return out
}

// errMessage is a run-time error's message, in the user's terms for C.
func errMessage(p *pgas.Program, err error) string {
	if isC(p) {
		return runErrText(p, err)
	}
	return err.Error()
}
