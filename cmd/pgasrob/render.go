package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// This file turns results of cycles.Decide into what people and scripts
// read: text, the JSON objects documented in docs/cli.md, and Graphviz.
// Nothing here decides anything; every verdict comes from cycles.Decide.

// Schema names of the JSON outputs. A change that removes or renames a
// field, or changes its meaning, must bump the version.
const (
	decideSchema  = "pgasrob/decide/v1"
	cyclesSchema  = "pgasrob/cycles/v1"
	versionSchema = "pgasrob/version/v1"
)

// outcome is what one N produced: a result, or an error that stopped the
// decision (an internal error of the procedure).
type outcome struct {
	N    int
	Res  *cycles.Result
	Err  error
	Code int
}

func verdictWord(o outcome) string {
	if o.Res == nil {
		return "internal error"
	}
	return strings.ToLower(o.Res.Verdict.String())
}

// codeOf maps a verdict to the exit code of one N.
func codeOf(v cycles.Verdict) int {
	switch v {
	case cycles.NotRobust:
		return exitNotRobust
	case cycles.Unknown:
		return exitUnknown
	case cycles.RunError:
		return exitUsage
	}
	return exitRobust
}

// overallCode combines the codes of several N. A failure of the tool
// dominates; then a program error (a reachable run-time error is a bug in
// the input, whatever other N say); then a violation, which is definite
// even if other N are unknown; then unknown.
func overallCode(codes []int) int {
	best := exitRobust
	rank := map[int]int{exitRobust: 0, exitUnknown: 1, exitNotRobust: 2, exitUsage: 3, exitInternal: 4}
	for _, c := range codes {
		if rank[c] > rank[best] {
			best = c
		}
	}
	return best
}

func overallVerdict(code int) string {
	switch code {
	case exitNotRobust:
		return "not robust"
	case exitUnknown:
		return "unknown"
	case exitUsage:
		return "run-time error"
	case exitInternal:
		return "internal error"
	}
	return "robust"
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

// ---- events ----

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
	return fmt.Sprintf("(%d,%s)", e.Cell.Rank, addrName(p, e.Cell.Addr))
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
	}
	src := ""
	if t, ok := transOf(p, e); ok {
		src = fmt.Sprintf("line %d: %s", t.Pos.Line, t.Text)
		if t.Sugar != "" {
			src += fmt.Sprintf("  [%s]", t.Sugar)
		}
	}
	m := ""
	if mark != 0 {
		m = "  <" + mark.String() + ">"
	}
	return fmt.Sprintf("#%-3d %-6s rank %-2d %-12s %-6s %s%s", i, e.Kind, e.Rank, cellText(p, e), q, src, m)
}

type cellJSON struct {
	Rank int    `json:"rank"`
	Addr int    `json:"addr"`
	Name string `json:"name"`
}

type eventJSON struct {
	Index int       `json:"index"` // position in the listed computation, from 0
	Part  int       `json:"part,omitempty"`
	Kind  string    `json:"kind"`
	Rank  int       `json:"rank"`
	Cell  *cellJSON `json:"cell"` // null when the event accesses no cell
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
		j.Cell = &cellJSON{e.Cell.Rank, e.Cell.Addr, addrName(p, e.Cell.Addr)}
	}
	if t, ok := transOf(p, e); ok {
		j.Line, j.Col, j.Text, j.Sugar = t.Pos.Line, t.Pos.Col, t.Text, t.Sugar
	}
	return j
}

// ---- text ----

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
		fmt.Fprintf(w, "%s: RUN-TIME ERROR: %v\n", head, r.RunError.Err)
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
	}
	fmt.Fprintf(w, "\n  cycle type %v: the happens-before cycle enters and leaves rank %s, in this order\n", wit.Cycle, strings.Join(ranks, ", then "))
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
		return fmt.Sprintf("%s then %s, both by rank %d", a.Kind, b.Kind, a.Rank)
	case pgas.RelCF:
		return fmt.Sprintf("%s then %s of cell %s", a.Kind, b.Kind, cellText(p, a))
	}
	if a.Kind == pgas.KBar || b.Kind == pgas.KBar {
		return "the same barrier"
	}
	return fmt.Sprintf("%s and %s of the same remote access by rank %d", a.Kind, b.Kind, a.Rank)
}

// ---- JSON ----

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
	Parts     [][]eventJSON `json:"parts"` // τ1..τ4; index counts through all parts
	Cycle     []edgeJSON    `json:"cycle"` // indices into the parts' events
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
		for _, e := range w.HB {
			wj.Cycle = append(wj.Cycle, edgeJSON{e.From, e.To, e.Rel.String()})
		}
		j.Witness = wj
	}
	if re := r.RunError; re != nil {
		rj := &runtimeErrorJSON{Message: re.Err.Error(), Path: []eventJSON{}}
		for i, e := range re.Path {
			rj.Path = append(rj.Path, eventToJSON(p, i, 0, e, 0))
		}
		j.RuntimeError = rj
	}
	return j
}

// ---- Graphviz ----

// dotQuote makes s a Graphviz double-quoted string.
func dotQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "\n", `\n`)
	return `"` + s + `"`
}

// witnessDot draws the happens-before cycle of a witness: one node per
// event on the cycle, one edge per step, ↔ steps dashed. Events of one
// ↔-class sit in one cluster so the classes the cycle passes through are
// visible.
func witnessDot(p *pgas.Program, file string, n int, w *cycles.Witness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph witness {\n")
	title := fmt.Sprintf("%s, N = %d: happens-before cycle of type %v", file, n, w.Cycle)
	if w.Direct {
		title = fmt.Sprintf("%s, N = %d: happens-before cycle found by the oracle", file, n)
	}
	fmt.Fprintf(&b, "  label=%s;\n", dotQuote(title))
	fmt.Fprintf(&b, "  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n")
	hb := pgas.HappensBefore(w.Computation)
	onCycle := map[int]bool{}
	var order []int
	for _, e := range w.HB {
		for _, x := range []int{e.From, e.To} {
			if !onCycle[x] && x >= 0 && x < len(w.Computation) {
				onCycle[x] = true
				order = append(order, x)
			}
		}
	}
	part := make([]int, len(w.Computation))
	i := 0
	for k, ls := range w.Parts {
		for range ls {
			if i < len(part) {
				part[i] = k + 1
			}
			i++
		}
	}
	byClass := map[int][]int{}
	var classes []int
	for _, x := range order {
		c := hb.Class[x]
		if _, ok := byClass[c]; !ok {
			classes = append(classes, c)
		}
		byClass[c] = append(byClass[c], x)
	}
	for _, c := range classes {
		xs := byClass[c]
		indent := "  "
		if len(xs) > 1 {
			fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=\"↔\";\n    style=dashed;\n", c)
			indent = "    "
		}
		for _, x := range xs {
			e := w.Computation[x]
			label := fmt.Sprintf("#%d %s rank %d", x, e.Kind, e.Rank)
			if e.HasCell {
				label += " " + cellText(p, e)
			}
			label += fmt.Sprintf("\nτ%d", part[x])
			if t, ok := transOf(p, e); ok {
				label += fmt.Sprintf(", line %d: %s", t.Pos.Line, t.Text)
			}
			fmt.Fprintf(&b, "%se%d [label=%s];\n", indent, x, dotQuote(label))
		}
		if len(xs) > 1 {
			fmt.Fprintf(&b, "  }\n")
		}
	}
	for _, e := range w.HB {
		style := ""
		if e.Rel == pgas.RelID {
			style = ", style=dashed, arrowhead=none"
		}
		fmt.Fprintf(&b, "  e%d -> e%d [label=%s%s];\n", e.From, e.To, dotQuote(e.Rel.String()), style)
	}
	b.WriteString("}\n")
	return b.String()
}

// dotPath is where the graph for N goes: FILE itself for a single N, FILE
// with "-N" before its extension for a range ("cyc.dot" -> "cyc-3.dot").
func dotPath(file string, n int, isRange bool) string {
	if !isRange {
		return file
	}
	slash := strings.LastIndexAny(file, `/\`)
	dot := strings.LastIndex(file, ".")
	if dot <= slash+1 { // no extension, or a dot file such as ".x"
		return fmt.Sprintf("%s-%d", file, n)
	}
	return fmt.Sprintf("%s-%d%s", file[:dot], n, file[dot:])
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
