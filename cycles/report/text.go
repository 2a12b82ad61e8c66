package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

// The text output of decide (docs/cli.md): a line per N, the witness
// event by event, and the statistics.

// VerdictWord is the verdict of an outcome in lower case, as --json
// writes it.
func VerdictWord(o Outcome) string {
	if o.Res == nil {
		return "internal error"
	}
	return strings.ToLower(o.Res.Verdict.String())
}

// TypeWord is the verdict on one cycle type: feasible (a violation of this
// type exists), infeasible, unknown, or skipped.
func TypeWord(t cycles.TypeResult) string {
	if !t.Checked {
		return "skipped"
	}
	switch t.Outcome {
	case automata.Empty:
		return "infeasible"
	case automata.NonEmpty:
		return "feasible"
	}
	return "unknown"
}

// EventLine is one row of an event listing: number, kind, process, cell,
// queue, source line and text, and the mark of Y^M.
func EventLine(ev Event) string {
	q := ""
	if ev.Queue != "" {
		q = "q=" + ev.Queue
		if ev.C {
			q = "ctx=" + ev.Queue
		}
	}
	src := ""
	if ev.HasPos {
		src = fmt.Sprintf("line %d: %s", ev.Pos.Line, ev.Text)
		if ev.Sugar != "" && !ev.C {
			// a C program's sugar is the translation's, not the user's
			src += fmt.Sprintf("  [%s]", ev.Sugar)
		}
	}
	m := ""
	if ev.Mark != "" {
		m = "  <" + ev.Mark + ">"
	}
	cell := "-"
	if ev.Cell != nil {
		cell = ev.Cell.Text
	}
	if ev.C {
		return fmt.Sprintf("#%-3d %-6s PE %-2d %-12s %-6s %s%s", ev.Index, ev.Kind, ev.Proc, cell, q, src, m)
	}
	return fmt.Sprintf("#%-3d %-6s rank %-2d %-12s %-6s %s%s", ev.Index, ev.Kind, ev.Proc, cell, q, src, m)
}

// partNames say what each part of a normal-form computation holds
// (Definition 4): τ1 runs the program; τ2..τ4 only hold delayed pops, in
// the order of their requests.
var partNames = []string{
	"the program runs; pops that are not delayed",
	"delayed pops, first phase",
	"delayed pops, second phase",
	"delayed pops, third phase",
}

// StatsLine is the statistics of a result in one line.
func StatsLine(r *cycles.Result) string {
	st := r.Stats
	el := r.Elapsed
	rate := 0.0
	if el > 0 {
		rate = float64(st.States) / el.Seconds()
	}
	if r.Procedure == "oracle" {
		who := "decided by the oracle, a direct exploration of X(P,N)"
		if r.Verdict == cycles.Unknown {
			who = "explored by the oracle, a direct exploration of X(P,N)"
		}
		return fmt.Sprintf("%d states, %s, %s states/s; %s", st.States, RoundDur(el), Human(rate), who)
	}
	c := CountTypes(r)
	sym := 0 // settled without a search of their own
	for _, t := range r.Types {
		if w := TypeWord(t); t.SymmetricTo != nil && (w == "feasible" || w == "infeasible") {
			sym++
		}
	}
	s := fmt.Sprintf("%d states, %d transitions, %s, %s states/s, %.1f bytes/state; cycle types %d of %d settled",
		st.States, st.Transitions, RoundDur(el), Human(rate), bytesPerState(st), c.Feasible+c.Infeasible, c.Total)
	if r.Partial {
		// Too many types to list: the settled ones are the searched
		// representatives; their images are counted apart.
		s = fmt.Sprintf("%d states, %d transitions, %s, %s states/s, %.1f bytes/state; cycle types: %d searched (%d settled), %d passed over by symmetry, of %d",
			st.States, st.Transitions, RoundDur(el), Human(rate), bytesPerState(st), c.Checked, c.Feasible+c.Infeasible, c.BySymmetry, c.Total)
		sym = 0
	}
	if sym > 0 {
		s += fmt.Sprintf(" (%d by symmetry)", sym)
	}
	if st.Beyond > 0 {
		s += fmt.Sprintf("; %d states beyond the memory budget, in the state cache", st.Beyond)
	}
	if c.Skipped > 0 && r.Verdict == cycles.NotRobust {
		s += " (stopped at the first violation; --all searches the rest)"
	}
	if c.Unknown > 0 {
		// A NOT ROBUST verdict stands on its witness, but the user asked
		// about every type: say which ones the budgets left open, and why.
		s += fmt.Sprintf("; %d unknown (%s)", c.Unknown, firstUnknownReason(r))
	}
	if h, m := r.CacheHits, r.CacheMiss; h+m > 0 {
		s += fmt.Sprintf("; move cache hit rate %.0f%%", 100*float64(h)/float64(h+m))
	}
	return s
}

func bytesPerState(st automata.Stats) float64 {
	if st.States == 0 {
		return 0
	}
	return float64(st.Bytes) / float64(st.States)
}

// RoundDur rounds d to the digits a person reads.
func RoundDur(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d
}

// Human writes a rate with k or M.
func Human(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// WriteText prints the result of one N for a person.
func WriteText(w io.Writer, file string, p *pgas.Program, o Outcome) {
	head := fmt.Sprintf("%s, N = %d", file, o.N)
	if o.Res == nil {
		fmt.Fprintf(w, "%s: INTERNAL ERROR (no verdict)\n", head)
		return
	}
	r := o.Res
	switch r.Verdict {
	case cycles.Robust:
		fmt.Fprintf(w, "%s: ROBUST (%s)\n", head, StatsLine(r))
		writeNote(w, r)
		writeAssumptions(w, p)
	case cycles.Unknown:
		fmt.Fprintf(w, "%s: UNKNOWN: %s\n", head, r.Reason)
		fmt.Fprintf(w, "  explored before stopping: %s\n", StatsLine(r))
		writeNote(w, r)
		if r.Procedure == "oracle" {
			fmt.Fprintf(w, "  no violation found so far\n")
			break
		}
		c := CountTypes(r)
		fmt.Fprintf(w, "  no violation found so far; %d cycle types infeasible, %d undecided\n", c.Infeasible, c.Unknown+c.Skipped)
	case cycles.RunError:
		fmt.Fprintf(w, "%s: RUN-TIME ERROR: %v\n", head, RunErrText(p, r.RunError.Err))
		WritePath(w, NewPath(p, r.RunError.Path))
		fmt.Fprintf(w, "  %s\n", StatsLine(r))
	case cycles.NotRobust:
		fmt.Fprintf(w, "%s: NOT ROBUST\n", head)
		writeWitness(w, p, NewWitness(p, o.N, r.Witness))
		fmt.Fprintf(w, "\n  %s\n", StatsLine(r))
		writeNote(w, r)
	}
}

// WritePath prints the sequentially consistent computation that reaches
// a run-time error.
func WritePath(w io.Writer, path []Event) {
	fmt.Fprintf(w, "  reached by this sequentially consistent computation (%d events):\n", len(path))
	for _, ev := range path {
		fmt.Fprintf(w, "    %s\n", EventLine(ev))
	}
	fmt.Fprintf(w, "  (robustness is not decided for a program that can fail; fix the error first)\n")
}

// writeNote says where the decision departed from its options.
func writeNote(w io.Writer, r *cycles.Result) {
	if r.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", r.Note)
	}
}

// AssumptionsSection is where docs/shmem.md lists what a ROBUST answer
// for a C program assumes.
const AssumptionsSection = `docs/shmem.md, "What you are assuming when the answer is ROBUST"`

// writeAssumptions points a ROBUST answer to the modelling choices it
// rests on; --json lists them.
func writeAssumptions(w io.Writer, p *pgas.Program) {
	if p == nil || len(p.Assumptions) == 0 {
		return
	}
	ids := make([]string, len(p.Assumptions))
	for i, a := range p.Assumptions {
		ids[i] = a.ID
	}
	fmt.Fprintf(w, "  assuming %s: see %s\n", strings.Join(ids, ", "), AssumptionsSection)
}

// WriteWarnings prints the front end's warnings about the program in the
// compiler convention, once per program.
func WriteWarnings(w io.Writer, p *pgas.Program) {
	if p == nil {
		return
	}
	for _, d := range p.Warnings {
		fmt.Fprintf(w, "%s: warning: %s\n", diagPos(p, d.Pos), d.Msg)
	}
}

// diagPos is pos as file:line:col, with the program's file when the
// position has none.
func diagPos(p *pgas.Program, pos pgas.Pos) string {
	if pos.File == "" && p != nil {
		pos.File = p.File
	}
	if pos.Line == 0 {
		return pos.File
	}
	return pos.String()
}

const hbLegend = "happens-before cycle (po: program order, cf: conflict, ↔: same remote access or barrier)"

func writeWitness(w io.Writer, p *pgas.Program, m *Witness) {
	if m.Direct {
		fmt.Fprintf(w, "\n  relaxed computation found by the oracle's direct exploration of X(P,%d) (%d events, in the order they ran)\n", m.N, len(m.Events))
		for _, ev := range m.Events {
			fmt.Fprintf(w, "    %s\n", EventLine(ev))
		}
		writeCycle(w, m)
		return
	}
	ranks := make([]string, len(m.CycleType))
	for i, r := range m.CycleType {
		ranks[i] = fmt.Sprint(r)
		if IsC(p) {
			ranks[i] = RankText(p, r)
		}
	}
	who := "rank " + strings.Join(ranks, ", then ")
	if IsC(p) {
		who = strings.Join(ranks, ", then ")
	}
	fmt.Fprintf(w, "\n  cycle type %v: the happens-before cycle enters and leaves %s, in this order\n", cycles.CycleType(m.CycleType), who)
	fmt.Fprintf(w, "\n  relaxed computation in normal form τ1·τ2·τ3·τ4 (%d events; <enter>/<leave> mark where the cycle enters and leaves a rank)\n", len(m.Events))
	for k, part := range m.Parts {
		if len(part) == 0 {
			fmt.Fprintf(w, "  τ%d  (empty)\n", k+1)
			continue
		}
		fmt.Fprintf(w, "  τ%d  %s\n", k+1, partNames[k])
		for _, ev := range part {
			fmt.Fprintf(w, "    %s\n", EventLine(ev))
		}
	}
	writeCycle(w, m)
}

func writeCycle(w io.Writer, m *Witness) {
	fmt.Fprintf(w, "\n  %s\n", hbLegend)
	for _, e := range m.Cycle {
		fmt.Fprintf(w, "    #%-3d -%s-> #%-3d  %s\n", e.From, e.Rel, e.To, e.Why)
	}
	fmt.Fprintf(w, "\n  certified: the computation was replayed in X(P,%d) (Table 1) and happens-before was\n", m.N)
	fmt.Fprintf(w, "  recomputed from its definition (Section 3); the cycle above comes from that recomputation.\n")
}

// firstUnknownReason is the reason of the first cycle type a budget left
// undecided.
func firstUnknownReason(r *cycles.Result) string {
	for _, t := range r.Types {
		if TypeWord(t) == "unknown" && t.Reason != "" {
			return fmt.Sprintf("cycle type %v: %s", t.Cycle, t.Reason)
		}
	}
	return "a budget ran out"
}
