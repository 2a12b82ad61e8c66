package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

// Diagnostics in the compiler convention (--format gcc):
//
//	FILE:LINE:COL: error: not robust for N = 2: ... [not-robust]
//	FILE:LINE:COL: note: ...
//
// one error per violation, at the C (or .pgas) line of the first event
// of its happens-before cycle, and one note per step of the cycle, each at
// the line of the event it leaves from, so that editors, grep and CI
// tooling pick them up as they pick up a compiler's. A robust N says
// nothing (compilers are silent on success); UNKNOWN is a warning.

// maxPathNotes bounds the notes of a run-time error's path: its last
// events, which lead to the error; the text format lists them all.
const maxPathNotes = 20

// WriteGCC prints the outcomes of one file as compiler diagnostics.
func WriteGCC(w io.Writer, file string, p *pgas.Program, outs []Outcome) {
	WriteWarnings(w, p)
	for _, o := range outs {
		writeGCCOne(w, file, p, o)
	}
}

func writeGCCOne(w io.Writer, file string, p *pgas.Program, o Outcome) {
	if o.Res == nil {
		msg := "no verdict"
		if o.Err != nil {
			msg = firstLine(o.Err.Error())
		}
		fmt.Fprintf(w, "%s: error: N = %d: %s [%s]\n", file, o.N, msg, RuleInternal)
		return
	}
	r := o.Res
	switch r.Verdict {
	case cycles.NotRobust:
		m := NewWitness(p, o.N, r.Witness)
		at := m.Events[m.Cycle[m.Primary()].From]
		fmt.Fprintf(w, "%s: error: not robust for N = %d: %s [%s]\n", evPos(file, at), o.N, violationSummary(m), RuleNotRobust)
		for i, e := range m.Cycle {
			fmt.Fprintf(w, "%s: note: %s\n", evPos(file, m.Events[e.From]), stepText(m, i))
		}
	case cycles.RunError:
		at := file
		if pos, ok := RunErrPos(p, r.RunError.Err); ok {
			at = pos.String()
		}
		fmt.Fprintf(w, "%s: error: run-time error for N = %d: %s [%s]\n", at, o.N, runErrMessage(p, r.RunError.Err), RuleRunError)
		path := NewPath(p, r.RunError.Path)
		if skip := len(path) - maxPathNotes; skip > 0 {
			fmt.Fprintf(w, "%s: note: reached by a sequentially consistent computation of %d events; its last %d follow (--format text lists them all)\n", at, len(path), maxPathNotes)
			path = path[skip:]
		} else if len(path) > 0 {
			fmt.Fprintf(w, "%s: note: reached by a sequentially consistent computation of %d events\n", at, len(path))
		}
		for _, ev := range path {
			fmt.Fprintf(w, "%s: note: %s\n", evPos(file, ev), evShort(ev))
		}
	case cycles.Unknown:
		fmt.Fprintf(w, "%s: warning: robustness unknown for N = %d: %s [%s]\n", file, o.N, r.Reason, RuleUnknown)
	}
}

// Primary is the step of the cycle a diagnostic is placed at: the first
// program-order step a -po-> b whose a completes after b (an event of a's
// ↔-class, its remote part, comes later in the computation than b) — the
// reordering the relaxed model allowed; else the first program-order
// step; else the first.
func (m *Witness) Primary() int {
	if i := m.delayed(); i >= 0 {
		return i
	}
	for i, e := range m.Cycle {
		if e.Rel == "po" {
			return i
		}
	}
	return 0
}

// delayed is the first po step whose source completes after its target,
// or -1.
func (m *Witness) delayed() int {
	for i, e := range m.Cycle {
		if e.Rel != "po" || e.From >= len(m.Class) {
			continue
		}
		for x := e.To + 1; x < len(m.Events); x++ {
			if m.Class[x] == m.Class[e.From] {
				return i
			}
		}
	}
	return -1
}

// violationSummary says in one line what went wrong: which operation may
// complete after a later one of its process, and the cycle that follows.
func violationSummary(m *Witness) string {
	var procs []string
	seen := map[string]bool{}
	for _, e := range m.Cycle {
		if who := m.Events[e.From].Who; !seen[who] {
			seen[who] = true
			procs = append(procs, who)
		}
	}
	cycle := fmt.Sprintf("a happens-before cycle of %d steps through %s, which no sequentially consistent run has", len(m.Cycle), strings.Join(procs, " and "))
	if i := m.delayed(); i >= 0 {
		a, b := m.Events[m.Cycle[i].From], m.Events[m.Cycle[i].To]
		return fmt.Sprintf("%s may complete after %s%s, which follows it on %s: %s", quoted(a), quoted(b), lineOf(b), a.Who, cycle)
	}
	a := m.Events[m.Cycle[m.Primary()].From]
	return fmt.Sprintf("%s by %s is on %s", quoted(a), a.Who, cycle)
}

// stepText is step i of the cycle for a note placed at its source event.
func stepText(m *Witness, i int) string {
	e := m.Cycle[i]
	a, b := m.Events[e.From], m.Events[e.To]
	return fmt.Sprintf("step %d/%d: %s -%s-> %s: %s", i+1, len(m.Cycle), evBrief(a), e.Rel, evBrief(b)+lineOf(b), e.Why)
}

// evBrief is "#2 load flag1@PE0 (PE 0)".
func evBrief(ev Event) string {
	s := fmt.Sprintf("#%d %s", ev.Index, ev.Kind)
	if ev.Cell != nil {
		s += " " + ev.Cell.Text
	}
	return s + " (" + ev.Who + ")"
}

// lineOf is " (line L)" when the event has a position.
func lineOf(ev Event) string {
	if !ev.HasPos {
		return ""
	}
	return fmt.Sprintf(" (line %d)", ev.Pos.Line)
}

// evShort is an event in a few words: "#2 load flag1@PE0 by PE 0 (line 23: if (flag1 == 0))".
func evShort(ev Event) string {
	s := fmt.Sprintf("#%d %s", ev.Index, ev.Kind)
	if ev.Cell != nil {
		s += " " + ev.Cell.Text
	}
	s += " by " + ev.Who
	if ev.HasPos {
		s += fmt.Sprintf(" (line %d: %s)", ev.Pos.Line, ev.Text)
	}
	return s
}

// quoted is the source text of an event, or its kind when it has none.
func quoted(ev Event) string {
	if ev.HasPos && ev.Text != "" {
		return "'" + ev.Text + "'"
	}
	return ev.Kind
}

// evPos is where an event is written, file:line:col (the file alone when
// the event has no position).
func evPos(file string, ev Event) string {
	if !ev.HasPos || ev.Pos.Line == 0 {
		return file
	}
	pos := ev.Pos
	if pos.File == "" {
		pos.File = file
	}
	if pos.Col == 0 {
		return fmt.Sprintf("%s:%d", pos.File, pos.Line)
	}
	return pos.String()
}

// runErrMessage is a run-time error without its position, which the
// diagnostic gives in front.
func runErrMessage(p *pgas.Program, err error) string {
	msg := RunErrText(p, err)
	if pos, ok := RunErrPos(p, err); ok {
		msg = strings.Replace(msg, pos.String()+": ", "", 1)
	}
	return msg
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
