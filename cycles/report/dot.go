package report

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

// Graphviz output of decide --dot: the happens-before cycle of a witness.

// dotQuote makes s a Graphviz double-quoted string.
func dotQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "\n", `\n`)
	return `"` + s + `"`
}

// Dot draws the happens-before cycle of a witness: one node per event on
// the cycle, one edge per step, ↔ steps dashed. Events of one ↔-class
// sit in one cluster so the classes the cycle passes through are visible.
func Dot(p *pgas.Program, file string, n int, w *cycles.Witness) string {
	m := NewWitness(p, n, w)
	var b strings.Builder
	fmt.Fprintf(&b, "digraph witness {\n")
	title := fmt.Sprintf("%s, N = %d: happens-before cycle of type %v", file, n, w.Cycle)
	if m.Direct {
		title = fmt.Sprintf("%s, N = %d: happens-before cycle found by the oracle", file, n)
	}
	fmt.Fprintf(&b, "  label=%s;\n", dotQuote(title))
	fmt.Fprintf(&b, "  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n")
	order := m.OnCycle()
	byClass := map[int][]int{}
	var classes []int
	for _, x := range order {
		c := m.Class[x]
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
			ev := m.Events[x]
			label := fmt.Sprintf("#%d %s %s", x, ev.Kind, ev.Who)
			if ev.Cell != nil {
				label += " " + ev.Cell.Text
			}
			label += fmt.Sprintf("\nτ%d", ev.Part)
			if ev.HasPos {
				label += fmt.Sprintf(", line %d: %s", ev.Pos.Line, ev.Text)
			}
			fmt.Fprintf(&b, "%se%d [label=%s];\n", indent, x, dotQuote(label))
		}
		if len(xs) > 1 {
			fmt.Fprintf(&b, "  }\n")
		}
	}
	for _, e := range m.Cycle {
		style := ""
		if e.Rel == pgas.RelID.String() {
			style = ", style=dashed, arrowhead=none"
		}
		fmt.Fprintf(&b, "  e%d -> e%d [label=%s%s];\n", e.From, e.To, dotQuote(e.Rel), style)
	}
	b.WriteString("}\n")
	return b.String()
}

// OnCycle lists the events on the cycle, each once, in the order the
// cycle first meets them.
func (m *Witness) OnCycle() []int {
	seen := map[int]bool{}
	var order []int
	for _, e := range m.Cycle {
		for _, x := range []int{e.From, e.To} {
			if !seen[x] && x >= 0 && x < len(m.Events) {
				seen[x] = true
				order = append(order, x)
			}
		}
	}
	return order
}

// DotPath is where the graph for N goes: FILE itself for a single N, FILE
// with "-N" before its extension for a range ("cyc.dot" -> "cyc-3.dot").
func DotPath(file string, n int, isRange bool) string {
	if !isRange || file == "-" { // "-": standard output, every graph
		return file
	}
	slash := strings.LastIndexAny(file, `/\`)
	dot := strings.LastIndex(file, ".")
	if dot <= slash+1 { // no extension, or a dot file such as ".x"
		return fmt.Sprintf("%s-%d", file, n)
	}
	return fmt.Sprintf("%s-%d%s", file[:dot], n, file[dot:])
}
