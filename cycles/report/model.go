package report

import (
	"errors"
	"fmt"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The witness model every format reads: events, cells and processes in
// the user's terms, built once from a certified witness.

// Outcome is what one N produced: a result, or an error that stopped the
// decision (an internal error of the procedure), with its exit code.
type Outcome struct {
	N    int
	Res  *cycles.Result
	Err  error
	Code int
}

// IsC says the program was translated from C: its processes are PEs
// from 0 and its cells name@PEp (OpenSHMEM's terms).
func IsC(p *pgas.Program) bool { return p != nil && p.Dialect == "c" }

// Cell is a memory cell: the semantics' (rank, address) and its name in
// the user's terms.
type Cell struct {
	Rank, Addr int
	Name       string // the address's name
	Proc       int    // the process that owns it: rank, or PE for C
	Text       string // "(2,x)" or "x@PE1"
}

// Event is one event of a computation in the user's terms.
type Event struct {
	Index  int
	Part   int    // 1..4 in a normal-form witness, 0 otherwise
	Kind   string // load, store, write, popb, …
	Rank   int    // the semantics' rank, from 1
	Proc   int    // the process in the user's terms: rank, or PE (rank-1) for C
	Who    string // "rank 2" or "PE 1"
	Cell   *Cell  // nil when the event accesses no cell
	Queue  string // the queue's or the context's name
	Pos    pgas.Pos
	HasPos bool   // the event comes from a transition with a source position
	Text   string // the source text of the command (for C: the C call)
	Sugar  string // the sugar the transition was expanded from (.pgas)
	Mark   string // enter, leave, enter+leave or ""
	IsBar  bool
	C      bool // the program is C
}

// Edge is one step of a happens-before cycle, with why it holds.
type Edge struct {
	From, To int
	Rel      string // "po", "cf" or "↔"
	Why      string
}

// Witness is a certified violation in the user's terms.
type Witness struct {
	N          int
	Direct     bool  // found by the oracle: one part, no marks, no cycle type
	CycleType  []int // ranks, as the procedure names them
	CycleProcs []int // the same in the user's terms (PEs for C)
	Parts      [][]Event
	Events     []Event // all parts in order; Events[i].Index == i
	Cycle      []Edge
	Class      []int // the ↔-class of each event (pgas.HappensBefore)
}

// ProcName names process number proc (user's terms) of p.
func ProcName(p *pgas.Program, proc int) string {
	if IsC(p) {
		return fmt.Sprintf("PE %d", proc)
	}
	return fmt.Sprintf("rank %d", proc)
}

// procOf is rank r in the user's terms.
func procOf(p *pgas.Program, r int) int {
	if IsC(p) {
		return r - 1
	}
	return r
}

// RankText names a rank in the user's terms: "rank r" in .pgas, "PE r-1"
// for a C program (OpenSHMEM counts PEs from 0).
func RankText(p *pgas.Program, r int) string { return ProcName(p, procOf(p, r)) }

func addrName(p *pgas.Program, a int) string {
	if a >= 0 && a < len(p.Addrs) {
		return p.Addrs[a]
	}
	return fmt.Sprint(a)
}

func queueName(p *pgas.Program, q int) string {
	if q >= 0 && q < len(p.Queues) {
		return p.Queues[q]
	}
	return ""
}

func cellOf(p *pgas.Program, e pgas.Event) *Cell {
	if !e.HasCell {
		return nil
	}
	c := &Cell{Rank: e.Cell.Rank, Addr: e.Cell.Addr, Name: addrName(p, e.Cell.Addr), Proc: procOf(p, e.Cell.Rank)}
	c.Text = fmt.Sprintf("(%d,%s)", c.Rank, c.Name)
	if IsC(p) {
		c.Text = fmt.Sprintf("%s@PE%d", c.Name, c.Proc)
	}
	return c
}

// CellText is the cell of e in the user's terms, "-" when it has none.
func CellText(p *pgas.Program, e pgas.Event) string {
	if c := cellOf(p, e); c != nil {
		return c.Text
	}
	return "-"
}

func transOf(p *pgas.Program, e pgas.Event) (pgas.Trans, bool) {
	if e.Trans >= 0 && e.Trans < len(p.Trans) {
		return p.Trans[e.Trans], true
	}
	return pgas.Trans{}, false
}

// NewEvent is event e of p, number i of its computation, in part part.
func NewEvent(p *pgas.Program, i, part int, e pgas.Event, mark normalform.Mark) Event {
	ev := Event{Index: i, Part: part, Kind: e.Kind.String(), Rank: e.Rank, Proc: procOf(p, e.Rank), Who: RankText(p, e.Rank),
		Cell: cellOf(p, e), Queue: queueName(p, e.Queue), Mark: mark.String(), IsBar: e.Kind == pgas.KBar, C: IsC(p)}
	if t, ok := transOf(p, e); ok {
		ev.Pos, ev.HasPos, ev.Text, ev.Sugar = t.Pos, true, t.Text, t.Sugar
		if ev.Pos.File == "" {
			ev.Pos.File = p.File
		}
	}
	return ev
}

// NewPath is a computation without parts or marks (a run-time error's
// path, a direct witness).
func NewPath(p *pgas.Program, path []pgas.Event) []Event {
	out := make([]Event, len(path))
	for i, e := range path {
		out[i] = NewEvent(p, i, 0, e, 0)
	}
	return out
}

// NewWitness is w in the user's terms.
func NewWitness(p *pgas.Program, n int, w *cycles.Witness) *Witness {
	m := &Witness{N: n, Direct: w.Direct, CycleType: append([]int{}, w.Cycle...)}
	for _, r := range w.Cycle {
		m.CycleProcs = append(m.CycleProcs, procOf(p, r))
	}
	i := 0
	for k, part := range w.Parts {
		evs := []Event{}
		for _, l := range part {
			ev := NewEvent(p, i, k+1, l.Event, l.Mark)
			evs = append(evs, ev)
			m.Events = append(m.Events, ev)
			i++
		}
		m.Parts = append(m.Parts, evs)
	}
	if len(m.Events) != len(w.Computation) {
		// The parts are the computation; a witness built otherwise is
		// listed as it ran.
		m.Events = NewPath(p, w.Computation)
	}
	for _, e := range w.HB {
		m.Cycle = append(m.Cycle, Edge{From: e.From, To: e.To, Rel: e.Rel.String(), Why: edgeNote(p, w.Computation, e)})
	}
	m.Class = pgas.HappensBefore(w.Computation).Class
	return m
}

// edgeNote says in words why an edge holds.
func edgeNote(p *pgas.Program, comp []pgas.Event, e pgas.HBEdge) string {
	if e.From < 0 || e.To < 0 || e.From >= len(comp) || e.To >= len(comp) {
		return ""
	}
	a, b := comp[e.From], comp[e.To]
	switch e.Rel {
	case pgas.RelPO:
		return fmt.Sprintf("%s then %s, both by %s", a.Kind, b.Kind, RankText(p, a.Rank))
	case pgas.RelCF:
		return fmt.Sprintf("%s then %s of cell %s", a.Kind, b.Kind, CellText(p, a))
	}
	if a.Kind == pgas.KBar || b.Kind == pgas.KBar {
		return "the same barrier"
	}
	return fmt.Sprintf("%s and %s of the same remote access by %s", a.Kind, b.Kind, RankText(p, a.Rank))
}

// RunErrText is a run-time error in the user's terms: for a C program a
// rank out of range is a PE number out of range.
func RunErrText(p *pgas.Program, err error) string {
	var re *pgas.RangeError
	if IsC(p) && errors.As(err, &re) && re.What == "rank" {
		return fmt.Sprintf("%v: PE %d outside 0..%d", re.Pos, re.Val-1, re.Max-1)
	}
	return err.Error()
}

// RunErrPos is where a run-time error happens, when it says.
func RunErrPos(p *pgas.Program, err error) (pgas.Pos, bool) {
	var re *pgas.RangeError
	if errors.As(err, &re) && re.Pos.Line > 0 {
		pos := re.Pos
		if pos.File == "" && p != nil {
			pos.File = p.File
		}
		return pos, true
	}
	return pgas.Pos{}, false
}

// Diag is a front-end warning at line:col, for tests and front ends.
func Diag(line, col int, msg string) pgas.Diag {
	return pgas.Diag{Pos: pgas.Pos{Line: line, Col: col}, Msg: msg}
}
