package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The text output of decide and cycles (docs/cli.md): a line per N, the
// witness event by event, and the statistics. Nothing here decides
// anything; every verdict comes from cycles.Decide. The JSON is in
// decide_json.go, the Graphviz graph in decide_dot.go.

func verdictWord(o outcome) string {
	if o.Res == nil {
		return "internal error"
	}
	return strings.ToLower(o.Res.Verdict.String())
}

// typeWord is the verdict on one cycle type: feasible (a violation of this
// type exists), infeasible, unknown, or skipped.
func typeWord(t cycles.TypeResult) string {
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

func cellText(p *pgas.Program, e pgas.Event) string {
	if !e.HasCell {
		return "-"
	}
	if p.Dialect == "c" {
		return fmt.Sprintf("%s@PE%d", addrName(p, e.Cell.Addr), e.Cell.Rank-1)
	}
	return fmt.Sprintf("(%d,%s)", e.Cell.Rank, addrName(p, e.Cell.Addr))
}

// runErrText is a run-time error in the user's terms: for a C program a
// rank out of range is a PE number out of range.
func runErrText(p *pgas.Program, err error) string {
	var re *pgas.RangeError
	if p.Dialect == "c" && errors.As(err, &re) && re.What == "rank" {
		return fmt.Sprintf("%v: PE %d outside 0..%d", re.Pos, re.Val-1, re.Max-1)
	}
	return err.Error()
}

// rankText names a process in the user's terms: "rank r" in .pgas, "PE
// r-1" for a C program (OpenSHMEM counts PEs from 0).
func rankText(p *pgas.Program, r int) string {
	if p.Dialect == "c" {
		return fmt.Sprintf("PE %d", r-1)
	}
	return fmt.Sprintf("rank %d", r)
}

func transOf(p *pgas.Program, e pgas.Event) (pgas.Trans, bool) {
	if e.Trans >= 0 && e.Trans < len(p.Trans) {
		return p.Trans[e.Trans], true
	}
	return pgas.Trans{}, false
}

// eventLine is one row of an event listing: number, kind, rank, cell,
// queue, source line and text, and the mark of Y^M.
func eventLine(p *pgas.Program, i int, e pgas.Event, mark normalform.Mark) string {
	q := ""
	if name := queueName(p, e.Queue); name != "" {
		q = "q=" + name
		if p.Dialect == "c" {
			q = "ctx=" + name
		}
	}
	src := ""
	if t, ok := transOf(p, e); ok {
		src = fmt.Sprintf("line %d: %s", t.Pos.Line, t.Text)
		if t.Sugar != "" && p.Dialect != "c" {
			// a C program's sugar is the translation's, not the user's
			src += fmt.Sprintf("  [%s]", t.Sugar)
		}
	}
	m := ""
	if mark != 0 {
		m = "  <" + mark.String() + ">"
	}
	if p.Dialect == "c" {
		return fmt.Sprintf("#%-3d %-6s PE %-2d %-12s %-6s %s%s", i, e.Kind, e.Rank-1, cellText(p, e), q, src, m)
	}
	return fmt.Sprintf("#%-3d %-6s rank %-2d %-12s %-6s %s%s", i, e.Kind, e.Rank, cellText(p, e), q, src, m)
}

// partNames say what each part of a normal-form computation holds
// (Definition 4): τ1 runs the program; τ2..τ4 only hold delayed pops, in
// the order of their requests.
var partNames = [normalform.Heads]string{
	"the program runs; pops that are not delayed",
	"delayed pops, first phase",
	"delayed pops, second phase",
	"delayed pops, third phase",
}

func statsLine(r *cycles.Result) string {
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
		return fmt.Sprintf("%d states, %s, %s states/s; %s", st.States, roundDur(el), human(rate), who)
	}
	c := countTypes(r)
	sym := 0 // settled without a search of their own
	for _, t := range r.Types {
		if w := typeWord(t); t.SymmetricTo != nil && (w == "feasible" || w == "infeasible") {
			sym++
		}
	}
	s := fmt.Sprintf("%d states, %d transitions, %s, %s states/s, %.1f bytes/state; cycle types %d of %d settled",
		st.States, st.Transitions, roundDur(el), human(rate), bytesPerState(st), c.Feasible+c.Infeasible, c.Total)
	if r.Partial {
		// Too many types to list: the settled ones are the searched
		// representatives; their images are counted apart.
		s = fmt.Sprintf("%d states, %d transitions, %s, %s states/s, %.1f bytes/state; cycle types: %d searched (%d settled), %d passed over by symmetry, of %d",
			st.States, st.Transitions, roundDur(el), human(rate), bytesPerState(st), c.Checked, c.Feasible+c.Infeasible, c.BySymmetry, c.Total)
		sym = 0
	}
	if sym > 0 {
		s += fmt.Sprintf(" (%d by symmetry)", sym)
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

func roundDur(d time.Duration) time.Duration {
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

func human(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// writeText prints the result of one N for a person.
func writeText(w io.Writer, file string, p *pgas.Program, o outcome) {
	head := fmt.Sprintf("%s, N = %d", file, o.N)
	if o.Res == nil {
		fmt.Fprintf(w, "%s: INTERNAL ERROR (no verdict)\n", head)
		return
	}
	r := o.Res
	switch r.Verdict {
	case cycles.Robust:
		fmt.Fprintf(w, "%s: ROBUST (%s)\n", head, statsLine(r))
		writeNote(w, r)
	case cycles.Unknown:
		fmt.Fprintf(w, "%s: UNKNOWN: %s\n", head, r.Reason)
		fmt.Fprintf(w, "  explored before stopping: %s\n", statsLine(r))
		writeNote(w, r)
		if r.Procedure == "oracle" {
			fmt.Fprintf(w, "  no violation found so far\n")
			break
		}
		c := countTypes(r)
		fmt.Fprintf(w, "  no violation found so far; %d cycle types infeasible, %d undecided\n", c.Infeasible, c.Unknown+c.Skipped)
	case cycles.RunError:
		fmt.Fprintf(w, "%s: RUN-TIME ERROR: %v\n", head, runErrText(p, r.RunError.Err))
		fmt.Fprintf(w, "  reached by this sequentially consistent computation (%d events):\n", len(r.RunError.Path))
		for i, e := range r.RunError.Path {
			fmt.Fprintf(w, "    %s\n", eventLine(p, i, e, 0))
		}
		fmt.Fprintf(w, "  (robustness is not decided for a program that can fail; fix the error first)\n")
		fmt.Fprintf(w, "  %s\n", statsLine(r))
	case cycles.NotRobust:
		fmt.Fprintf(w, "%s: NOT ROBUST\n", head)
		writeWitness(w, p, o.N, r.Witness)
		fmt.Fprintf(w, "\n  %s\n", statsLine(r))
		writeNote(w, r)
	}
}

// writeProgramNotes prints the program's warnings, and for a ROBUST
// answer one line pointing to the modelling choices it rests on.
func writeProgramNotes(w io.Writer, p *pgas.Program, robust bool) {
	for _, d := range p.Warnings {
		fmt.Fprintf(w, "  warning: %v: %s\n", d.Pos, d.Msg)
	}
	if robust && len(p.Assumptions) > 0 {
		ids := make([]string, len(p.Assumptions))
		for i, a := range p.Assumptions {
			ids[i] = a.ID
		}
		fmt.Fprintf(w, "  assuming: %s (docs/shmem.md, \"What you are assuming when the answer is ROBUST\"; --json lists them)\n", strings.Join(ids, ", "))
	}
}

// writeNote says where the decision departed from its options.
func writeNote(w io.Writer, r *cycles.Result) {
	if r.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", r.Note)
	}
}

func writeWitness(w io.Writer, p *pgas.Program, n int, wit *cycles.Witness) {
	if wit.Direct {
		writeDirectWitness(w, p, n, wit)
		return
	}
	ranks := make([]string, len(wit.Cycle))
	for i, r := range wit.Cycle {
		ranks[i] = fmt.Sprint(r)
		if p.Dialect == "c" {
			ranks[i] = rankText(p, r)
		}
	}
	who := "rank " + strings.Join(ranks, ", then ")
	if p.Dialect == "c" {
		who = strings.Join(ranks, ", then ")
	}
	fmt.Fprintf(w, "\n  cycle type %v: the happens-before cycle enters and leaves %s, in this order\n", wit.Cycle, who)
	fmt.Fprintf(w, "\n  relaxed computation in normal form τ1·τ2·τ3·τ4 (%d events; <enter>/<leave> mark where the cycle enters and leaves a rank)\n", len(wit.Computation))
	i := 0
	for k, part := range wit.Parts {
		if len(part) == 0 {
			fmt.Fprintf(w, "  τ%d  (empty)\n", k+1)
			continue
		}
		fmt.Fprintf(w, "  τ%d  %s\n", k+1, partNames[k])
		for _, l := range part {
			fmt.Fprintf(w, "    %s\n", eventLine(p, i, l.Event, l.Mark))
			i++
		}
	}
	fmt.Fprintf(w, "\n  happens-before cycle (po: program order, cf: conflict, ↔: same remote access or barrier)\n")
	for _, e := range wit.HB {
		fmt.Fprintf(w, "    #%-3d -%s-> #%-3d  %s\n", e.From, e.Rel, e.To, edgeNote(p, wit.Computation, e))
	}
	fmt.Fprintf(w, "\n  certified: the computation was replayed in X(P,%d) (Table 1) and happens-before was\n", n)
	fmt.Fprintf(w, "  recomputed from its definition (Section 3); the cycle above comes from that recomputation.\n")
}

// writeDirectWitness prints a violation found by the oracle: a relaxed
// computation of X(P,N) as it ran, not in normal form.
func writeDirectWitness(w io.Writer, p *pgas.Program, n int, wit *cycles.Witness) {
	fmt.Fprintf(w, "\n  relaxed computation found by the oracle's direct exploration of X(P,%d) (%d events, in the order they ran)\n", n, len(wit.Computation))
	for i, e := range wit.Computation {
		fmt.Fprintf(w, "    %s\n", eventLine(p, i, e, 0))
	}
	fmt.Fprintf(w, "\n  happens-before cycle (po: program order, cf: conflict, ↔: same remote access or barrier)\n")
	for _, e := range wit.HB {
		fmt.Fprintf(w, "    #%-3d -%s-> #%-3d  %s\n", e.From, e.Rel, e.To, edgeNote(p, wit.Computation, e))
	}
	fmt.Fprintf(w, "\n  certified: the computation was replayed in X(P,%d) (Table 1) and happens-before was\n", n)
	fmt.Fprintf(w, "  recomputed from its definition (Section 3); the cycle above comes from that recomputation.\n")
}

// edgeNote says in words why an edge holds.
func edgeNote(p *pgas.Program, comp []pgas.Event, e pgas.HBEdge) string {
	if e.From < 0 || e.To < 0 || e.From >= len(comp) || e.To >= len(comp) {
		return ""
	}
	a, b := comp[e.From], comp[e.To]
	switch e.Rel {
	case pgas.RelPO:
		return fmt.Sprintf("%s then %s, both by %s", a.Kind, b.Kind, rankText(p, a.Rank))
	case pgas.RelCF:
		return fmt.Sprintf("%s then %s of cell %s", a.Kind, b.Kind, cellText(p, a))
	}
	if a.Kind == pgas.KBar || b.Kind == pgas.KBar {
		return "the same barrier"
	}
	return fmt.Sprintf("%s and %s of the same remote access by %s", a.Kind, b.Kind, rankText(p, a.Rank))
}

// firstUnknownReason is the reason of the first cycle type a budget left
// undecided.
func firstUnknownReason(r *cycles.Result) string {
	for _, t := range r.Types {
		if typeWord(t) == "unknown" && t.Reason != "" {
			return fmt.Sprintf("cycle type %v: %s", t.Cycle, t.Reason)
		}
	}
	return "a budget ran out"
}
