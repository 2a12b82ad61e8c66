package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

// The HTML witness page (--html FILE): one self-contained file, no
// network and no external script. The lanes (one per PE, the events in
// the order of the computation) and the source are written here, so the
// page reads without script; html.js draws the happens-before cycle over
// the lanes, once the browser has laid them out, and runs the
// step-through.

//go:embed html.css
var htmlCSS string

//go:embed html.js
var htmlJS string

// pageEdge is a step of the cycle as html.js reads it.
type pageEdge struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Rel  string `json:"rel"`
	Why  string `json:"why"`
}

// WriteHTML writes the page of f: the verdict for each N, and the
// evidence of the first N that has some (a violation's witness, a
// run-time error's path).
func WriteHTML(w io.Writer, f File) error {
	var b strings.Builder
	title := f.Path
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n")
	fmt.Fprintf(&b, "<title>pgasrob: %s</title>\n<style>\n%s</style>\n</head>\n<body>\n", esc(title), htmlCSS)
	fmt.Fprintf(&b, "<header>\n<h1>%s</h1>\n", esc(title))
	writeVerdicts(&b, f)
	ev, edges, errAt, caption := evidence(f)
	if edges == nil {
		edges = []pageEdge{} // the script reads a list
	}
	if len(ev) > 0 {
		fmt.Fprintf(&b, "<p id=\"caption\">%s</p>\n", esc(caption))
		b.WriteString(`<nav id="controls"><button id="first" title="first event (Home)">first</button> <button id="prev" title="previous event (←)">◀</button> <button id="next" title="next event (→)">▶</button> <button id="last" title="every event (End)">all</button> <button id="play">play</button> <input id="step" type="range" min="0" value="0" aria-label="step"> <span id="stepinfo"></span>`)
		if len(edges) > 0 {
			b.WriteString(` <label><input id="cycleonly" type="checkbox"> only the cycle's events</label>`)
		}
		b.WriteString("</nav>\n")
	}
	b.WriteString("</header>\n<main>\n")
	if len(ev) > 0 {
		writeLanes(&b, f, ev, edges)
	}
	writeSource(&b, f, ev, errAt)
	b.WriteString("</main>\n")
	if len(ev) > 0 {
		data, err := json.Marshal(edges) // escapes <, > and &: safe inside a script element
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "<script id=\"cycle\" type=\"application/json\">%s</script>\n", data)
		fmt.Fprintf(&b, "<script>\n%s</script>\n", htmlJS)
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func esc(s string) string { return html.EscapeString(s) }

// writeVerdicts lists the verdict of each N, the front end's warnings
// and the assumptions.
func writeVerdicts(b *strings.Builder, f File) {
	b.WriteString("<ul id=\"verdicts\">\n")
	for _, e := range f.Errors {
		fmt.Fprintf(b, "<li class=\"v-error\">input error: %s:%d:%d: %s</li>\n", esc(e.File), e.Line, e.Col, esc(e.Msg))
	}
	for _, o := range f.Outcomes {
		word, class := "INTERNAL ERROR", "v-error"
		if o.Res != nil {
			word = o.Res.Verdict.String()
			class = "v-" + strings.ReplaceAll(strings.ToLower(word), " ", "-")
		}
		extra := ""
		if o.Res != nil && o.Res.Verdict == cycles.Unknown {
			extra = ": " + o.Res.Reason
		}
		if o.Res != nil && o.Res.Verdict == cycles.RunError {
			extra = ": " + runErrMessage(f.Prog, o.Res.RunError.Err)
		}
		fmt.Fprintf(b, "<li class=\"%s\">N = %d: <b>%s</b>%s</li>\n", class, o.N, esc(word), esc(extra))
	}
	b.WriteString("</ul>\n")
	if f.Prog == nil {
		return
	}
	for _, d := range f.Prog.Warnings {
		fmt.Fprintf(b, "<p class=\"warning\">warning: %s: %s</p>\n", esc(diagPos(f.Prog, d.Pos)), esc(d.Msg))
	}
	if len(f.Prog.Assumptions) > 0 {
		b.WriteString("<details class=\"assumptions\"><summary>What a ROBUST answer assumes (" + esc(AssumptionsSection) + ")</summary><ul>\n")
		for _, a := range f.Prog.Assumptions {
			fmt.Fprintf(b, "<li><code>%s</code>: %s</li>\n", esc(a.ID), esc(a.Text))
		}
		b.WriteString("</ul></details>\n")
	}
}

// evidence is what the page draws: the events of the first N that has a
// witness or a run-time error's path, the cycle, the error's position.
func evidence(f File) (ev []Event, edges []pageEdge, errAt pgas.Pos, caption string) {
	for _, o := range f.Outcomes {
		if o.Res == nil {
			continue
		}
		switch {
		case o.Res.Witness != nil:
			m := NewWitness(f.Prog, o.N, o.Res.Witness)
			if m.Direct {
				// as it ran, not in normal form: no parts τ1..τ4
				for i := range m.Events {
					m.Events[i].Part = 0
				}
			}
			for _, e := range m.Cycle {
				edges = append(edges, pageEdge{e.From, e.To, e.Rel, e.Why})
			}
			caption = fmt.Sprintf("N = %d: %s. The relaxed computation of %d events (certified: replayed in X(P,%d) and its happens-before recomputed), a lane per %s; the cycle is drawn over it.",
				o.N, violationSummary(m), len(m.Events), o.N, procWord(f.Prog))
			return m.Events, edges, errAt, caption
		case o.Res.RunError != nil:
			pos, _ := RunErrPos(f.Prog, o.Res.RunError.Err)
			path := NewPath(f.Prog, o.Res.RunError.Path)
			caption = fmt.Sprintf("N = %d: run-time error %s, reached by this sequentially consistent computation of %d events.", o.N, runErrMessage(f.Prog, o.Res.RunError.Err), len(path))
			return path, nil, pos, caption
		}
	}
	return nil, nil, errAt, ""
}

func procWord(p *pgas.Program) string {
	if IsC(p) {
		return "PE"
	}
	return "rank"
}

// writeLanes writes the grid: a header per process, then one row per
// event, the event in its process's column.
func writeLanes(b *strings.Builder, f File, ev []Event, edges []pageEdge) {
	var procs []int
	lane := map[int]int{}
	for _, e := range ev {
		if _, ok := lane[e.Proc]; !ok {
			lane[e.Proc] = 0
			procs = append(procs, e.Proc)
		}
	}
	sortInts(procs)
	for i, pr := range procs {
		lane[pr] = i
	}
	onCycle := map[int]bool{}
	for _, e := range edges {
		onCycle[e.From], onCycle[e.To] = true, true
	}
	fmt.Fprintf(b, "<div id=\"lanes-scroll\"><section id=\"lanes\" style=\"--lanes: %d\">\n<div class=\"gutter head\">#</div>\n", len(procs))
	for i, pr := range procs {
		fmt.Fprintf(b, "<div class=\"lane head\" data-proc=\"%d\" style=\"grid-column: %d\">%s</div>\n", pr, i+2, esc(ProcName(f.Prog, pr)))
	}
	part := -1
	for _, e := range ev {
		row := e.Index + 2
		label := fmt.Sprint(e.Index)
		if e.Part != part && e.Part > 0 {
			label = fmt.Sprintf("τ%d %d", e.Part, e.Index)
			part = e.Part
		}
		fmt.Fprintf(b, "<div class=\"gutter\" style=\"grid-row: %d\">%s</div>\n", row, esc(label))
		class := "event"
		if onCycle[e.Index] {
			class += " on-cycle"
		}
		if e.Mark != "" {
			class += " marked"
		}
		href, line := "", 0
		if e.HasPos {
			line = e.Pos.Line
			href = fmt.Sprintf(" href=\"#L%d\"", line)
		}
		cell := ""
		if e.Cell != nil {
			cell = " " + e.Cell.Text
		}
		fmt.Fprintf(b, "<a class=\"%s\" id=\"e%d\" data-index=\"%d\" data-proc=\"%d\" data-line=\"%d\"%s style=\"grid-row: %d; grid-column: %d\" title=\"%s\"><b>#%d %s</b>%s",
			class, e.Index, e.Index, e.Proc, line, href, row, lane[e.Proc]+2, esc(EventLine(e)), e.Index, esc(e.Kind), esc(cell))
		if e.HasPos {
			fmt.Fprintf(b, " <span class=\"src\">L%d %s</span>", line, esc(e.Text))
		}
		if e.Mark != "" {
			fmt.Fprintf(b, " <span class=\"mark\">%s</span>", esc(e.Mark))
		}
		b.WriteString("</a>\n")
	}
	b.WriteString("<svg id=\"edges\" aria-label=\"happens-before cycle\"></svg>\n</section></div>\n")
}

// writeSource writes the source beside the lanes, each line with an
// anchor the events link to; the lines of events and of the error are
// marked.
func writeSource(b *strings.Builder, f File, ev []Event, errAt pgas.Pos) {
	used := map[int]bool{}
	for _, e := range ev {
		if e.HasPos {
			used[e.Pos.Line] = true
		}
	}
	b.WriteString("<aside id=\"source\"><pre>")
	for i, l := range splitKeep(f.Src) {
		n := i + 1
		class := "line"
		if used[n] {
			class += " used"
		}
		if errAt.Line == n {
			class += " error"
		}
		// Block spans: one line each, without a newline that would
		// double the spacing inside <pre>.
		fmt.Fprintf(b, "<span class=\"%s\" id=\"L%d\"><span class=\"ln\">%4d</span> %s</span>", class, n, n, esc(strings.TrimRight(l, "\r\n")))
	}
	b.WriteString("</pre></aside>\n")
}
