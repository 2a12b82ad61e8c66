package pgas

import (
	"fmt"
	"slices"
	"strings"
)

// This file is the happens-before relation of Section 3 of
// pgas-theory-full.md, hb = po ∪ cf ∪ ↔, computed from an event sequence
// exactly as defined, and the violation test on the graph of ↔-classes
// (papers/README.md: a computation is violating iff the graph whose nodes
// are the ↔-classes and whose edges are the po and cf edges between
// different classes has a cycle).

// Rel names the relation an edge belongs to.
type Rel uint8

const (
	RelPO Rel = iota // program order
	RelCF            // conflict
	RelID            // identity ↔ (only in cycles, to join edges inside a class)
)

func (r Rel) String() string {
	switch r {
	case RelPO:
		return "po"
	case RelCF:
		return "cf"
	case RelID:
		return "↔"
	}
	return fmt.Sprintf("Rel(%d)", uint8(r))
}

// HBEdge is an edge From -Rel-> To between events, given by their indices
// in the computation.
type HBEdge struct {
	From, To int
	Rel      Rel
}

// EventID names an event independently of where it sits in a computation,
// so that two computations of the same events can be compared: a non-pop
// event is the Seq-th (from 0) non-pop event of its rank; a pop is named by
// the read or write it belongs to. Pops without a matching request (never
// produced by X) get Seq = -1-k for the k-th such pop of their rank.
type EventID struct {
	Rank int
	Kind Kind
	Seq  int
}

// HB is the happens-before relation of one computation.
type HB struct {
	Events []Event
	// Edges lists the po and cf edges, sorted by (From, To, Rel).
	Edges []HBEdge
	// Class[i] is the ↔-class of event i; classes are numbered in the order
	// of their first event.
	Class   []int
	classes [][]int // events of each class, in order
	ids     []EventID
}

// HappensBefore computes po, cf and ↔ of a computation. It accepts any event
// sequence and never fails; for sequences X does not accept (pops without
// requests, incomplete barriers) the result still follows the definitions
// letter by letter.
func HappensBefore(events []Event) *HB {
	h := &HB{Events: events, Class: make([]int, len(events)), ids: make([]EventID, len(events))}
	for i := range h.Class {
		h.Class[i] = -1
	}

	// po: per rank, successive events that are not pops.
	last := map[int]int{} // rank -> index of its last non-pop event
	seq := map[int]int{}  // rank -> number of its non-pop events so far
	for i, e := range events {
		if e.Kind.IsPop() {
			continue
		}
		if j, ok := last[e.Rank]; ok {
			h.Edges = append(h.Edges, HBEdge{j, i, RelPO})
		}
		last[e.Rank] = i
		h.ids[i] = EventID{e.Rank, e.Kind, seq[e.Rank]}
		seq[e.Rank]++
	}

	// cf: e1 before e2 on the same cell, one of them a write, no write to
	// the cell strictly between. The candidates e1 of a cell are its last
	// write and the events after it (since): a write e2 has an edge from
	// each, a read e2 from the write alone. Kept per cell, so that a long
	// run of reads costs no walk back over it per read (issue 29).
	since := map[Cell][]int{}
	for j, e2 := range events {
		if !e2.HasCell {
			continue
		}
		c := since[e2.Cell]
		switch {
		case e2.Kind.IsWrite():
			for _, i := range c {
				h.Edges = append(h.Edges, HBEdge{i, j, RelCF})
			}
			since[e2.Cell] = append(c[:0], j)
		default:
			if len(c) > 0 && events[c[0]].Kind.IsWrite() {
				h.Edges = append(h.Edges, HBEdge{c[0], j, RelCF})
			}
			since[e2.Cell] = append(c, j)
		}
	}
	sortEdges(h.Edges)

	// ↔: the k-th read/write of (rank, queue) with the k-th popa and the
	// k-th popb of (rank, queue) (queues are FIFO); a pop of a context with
	// the non-pop event of its rank whose index is its Item; the k-th
	// barrier events over one set (Event.Item: BarItem) of its ranks
	// together.
	type rq struct{ rank, queue int }
	byItem := ctxQueues(events)
	issue := map[EventID]int{} // (rank, -, index) -> position of that non-pop event
	for i, e := range events {
		if !e.Kind.IsPop() {
			issue[EventID{e.Rank, 0, h.ids[i].Seq}] = i
		}
	}
	reqs := map[rq][]int{}
	npopa, npopb := map[rq]int{}, map[rq]int{}
	type rs struct{ rank, set int }
	bars := map[rs]int{}     // (rank, set) -> barriers over the set so far
	barClass := map[rs]int{} // (k, set) -> class of the k-th barrier over the set
	orphans := map[int]int{}
	newClass := func(i int) int {
		h.classes = append(h.classes, []int{i})
		h.Class[i] = len(h.classes) - 1
		return h.Class[i]
	}
	join := func(i, c int) {
		h.Class[i] = c
		h.classes[c] = append(h.classes[c], i)
	}
	for i, e := range events {
		k := rq{e.Rank, e.Queue}
		switch e.Kind {
		case KRead, KWrite:
			reqs[k] = append(reqs[k], i)
			newClass(i)
		case KPopa, KPopb:
			if byItem[k] {
				if req, ok := issue[EventID{e.Rank, 0, e.Item}]; ok && h.Class[req] >= 0 {
					join(i, h.Class[req])
					h.ids[i] = EventID{e.Rank, e.Kind, e.Item}
				} else {
					orphans[e.Rank]++
					h.ids[i] = EventID{e.Rank, e.Kind, -orphans[e.Rank]}
					newClass(i)
				}
				continue
			}
			count := npopa
			if e.Kind == KPopb {
				count = npopb
			}
			n := count[k]
			count[k]++
			if n < len(reqs[k]) {
				req := reqs[k][n]
				join(i, h.Class[req])
				h.ids[i] = EventID{e.Rank, e.Kind, h.ids[req].Seq}
			} else {
				orphans[e.Rank]++
				h.ids[i] = EventID{e.Rank, e.Kind, -orphans[e.Rank]}
				newClass(i)
			}
		case KBar:
			// Every member of a set takes every barrier over it, so the
			// k-th barrier over a set is the same one for each member.
			n := bars[rs{e.Rank, e.Item}]
			bars[rs{e.Rank, e.Item}]++
			if c, ok := barClass[rs{n, e.Item}]; ok {
				join(i, c)
			} else {
				barClass[rs{n, e.Item}] = newClass(i)
			}
		default:
			newClass(i)
		}
	}
	return h
}

// sortEdges sorts edges by (From, To, Rel).
func sortEdges(edges []HBEdge) {
	slices.SortFunc(edges, func(a, b HBEdge) int {
		if a.From != b.From {
			return a.From - b.From
		}
		if a.To != b.To {
			return a.To - b.To
		}
		return int(a.Rel) - int(b.Rel)
	})
}

// ctxQueues returns the (rank, queue) pairs whose pops are matched by
// Item rather than by FIFO position. HappensBefore is not told which
// queues are contexts, and needs not be: pops of a FIFO queue have Item
// 0, so a pair with a pop whose Item is not 0 is a context's. A context
// pair whose pops all have Item 0 has only pops of its rank's first event
// (an item has one popa and one popb), which is then its first request,
// so FIFO matching joins them to the same event.
func ctxQueues(events []Event) map[struct{ rank, queue int }]bool {
	m := map[struct{ rank, queue int }]bool{}
	for _, e := range events {
		if e.Kind.IsPop() && e.Item != 0 {
			m[struct{ rank, queue int }{e.Rank, e.Queue}] = true
		}
	}
	return m
}

// ID returns the position-independent name of event i.
func (h *HB) ID(i int) EventID { return h.ids[i] }

// Violating reports whether the graph of ↔-classes, with an edge between
// two different classes whenever a po or cf edge joins their events, has a
// cycle. It removes sources until nothing is left (Kahn); whatever remains
// lies on or behind a cycle.
func (h *HB) Violating() bool {
	succ, indeg := h.classGraph()
	var queue []int
	for c, d := range indeg {
		if d == 0 {
			queue = append(queue, c)
		}
	}
	removed := 0
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		removed++
		for _, d := range succ[c] {
			indeg[d]--
			if indeg[d] == 0 {
				queue = append(queue, d)
			}
		}
	}
	return removed < len(h.classes)
}

// classGraph returns the successor lists (sorted, without duplicates or
// self loops) and in-degrees of the class graph.
func (h *HB) classGraph() (succ [][]int, indeg []int) {
	succ = make([][]int, len(h.classes))
	indeg = make([]int, len(h.classes))
	for _, e := range h.Edges {
		a, b := h.Class[e.From], h.Class[e.To]
		if a != b && !slices.Contains(succ[a], b) {
			succ[a] = append(succ[a], b)
			indeg[b]++
		}
	}
	for _, s := range succ {
		slices.Sort(s)
	}
	return succ, indeg
}

// Cycle returns a shortest cycle of the class graph (fewest classes; among
// those, the one found first from the lowest class), or nil if the
// computation is not violating. The cycle is a closed walk of concrete
// edges: each po or cf edge between two classes, and a ↔ step wherever one
// edge ends at a different event of the class the next edge starts from.
// It starts with the first po/cf edge leaving the lowest class of the cycle.
func (h *HB) Cycle() []HBEdge {
	succ, _ := h.classGraph()
	var best []int // classes of the cycle, best[0] is where it starts
	for c := range h.classes {
		// Breadth-first from c, looking for the shortest way back to c.
		// Only classes above c are used: a cycle through a lower class was
		// already found from that class.
		parent := map[int]int{c: -1}
		frontier := []int{c}
		found := false
		for len(frontier) > 0 && !found {
			var next []int
			for _, a := range frontier {
				for _, b := range succ[a] {
					if b == c {
						path := []int{a}
						for x := parent[a]; x != -1; x = parent[x] {
							path = append(path, x)
						}
						slices.Reverse(path)
						if best == nil || len(path) < len(best) {
							best = path
						}
						found = true
						break
					}
					if _, seen := parent[b]; seen || b < c {
						continue
					}
					parent[b] = a
					next = append(next, b)
				}
				if found {
					break
				}
			}
			frontier = next
		}
	}
	if best == nil {
		return nil
	}
	// Pick, for each class step, the first concrete edge between the two
	// classes, then join consecutive edges with ↔ inside classes.
	var steps []HBEdge
	for i, a := range best {
		b := best[(i+1)%len(best)]
		for _, e := range h.Edges {
			if h.Class[e.From] == a && h.Class[e.To] == b {
				steps = append(steps, e)
				break
			}
		}
	}
	var walk []HBEdge
	for i, e := range steps {
		walk = append(walk, e)
		next := steps[(i+1)%len(steps)]
		if e.To != next.From {
			walk = append(walk, HBEdge{e.To, next.From, RelID})
		}
	}
	return walk
}

// Equal reports whether h and g are the same happens-before relation: the
// same events (by EventID) with the same po edges, cf edges and ↔-classes.
// The two computations may order their events differently.
func (h *HB) Equal(g *HB) bool {
	return slices.Equal(h.canon(), g.canon())
}

// Key encodes the relation as a string: equal keys iff Equal.
func (h *HB) Key() string { return strings.Join(h.canon(), "\n") }

// canon lists the relation as sorted lines over EventIDs.
func (h *HB) canon() []string {
	var lines []string
	for i := range h.Events {
		lines = append(lines, fmt.Sprintf("event %v %+v", h.ids[i], h.Events[i]))
	}
	for _, e := range h.Edges {
		lines = append(lines, fmt.Sprintf("%v %v %v", h.ids[e.From], e.Rel, h.ids[e.To]))
	}
	for _, c := range h.classes {
		names := make([]string, len(c))
		for i, x := range c {
			names[i] = fmt.Sprint(h.ids[x])
		}
		slices.Sort(names)
		lines = append(lines, "class "+strings.Join(names, " "))
	}
	slices.Sort(lines)
	return lines
}

// FormatCycle prints a cycle edge by edge, one line per edge, with source
// lines from p when p is not nil.
func (h *HB) FormatCycle(p *Program, cycle []HBEdge) string {
	var b strings.Builder
	desc := func(i int) string {
		if p != nil {
			return fmt.Sprintf("#%d %s", i, strings.TrimSpace(p.Describe(h.Events[i])))
		}
		return fmt.Sprintf("#%d %v", i, h.Events[i])
	}
	for _, e := range cycle {
		fmt.Fprintf(&b, "%s\n  -%s-> %s\n", desc(e.From), e.Rel, desc(e.To))
	}
	return b.String()
}
