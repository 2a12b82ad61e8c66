package tso

import (
	"sort"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// hbCycle is FindCycle(len(evs), HappensBefore(evs), via), the same cycle
// edge for edge, without the edge list: HappensBefore gives a load a
// conflict edge to every later store of its cell, which is quadratic in a
// long witness (issue 29: 150,000 events asked for gigabytes). Here the
// conflict edges of a load stay implicit, as a suffix of its cell's store
// order, and each breadth-first search enters every suffix position once,
// so a search costs time and memory linear in the events. Only when no
// cycle goes through via does it try every event in turn, as FindCycle
// does, each search again linear.
func hbCycle(evs []prog.Event, via int) []prog.Edge {
	g := newHBGraph(evs)
	if via >= 0 && via < len(evs) {
		if c := g.bfs(via); c != nil {
			return c
		}
	}
	for v := range evs {
		if c := g.bfs(v); c != nil {
			return c
		}
	}
	return nil
}

// hbGraph holds happens-before in linear space: per event its program
// order successor, per store its store order successor and the loads that
// read it, per cell its stores in store order.
type hbGraph struct {
	evs     []prog.Event
	poNext  []int   // -1: none
	stNext  []int   // stores: -1 for the last of its cell
	readers [][]int // stores: the loads reading them, in event order
	order   [][]int // per cell: its stores by Land
	pos     []int   // stores: their index in order[cell]
	// The search's state, reused from one search to the next.
	prev    []int // -2: not visited
	pe      []prog.Edge
	covered []int // per cell: the positions from here on were entered through a suffix
	queue   []int
}

func newHBGraph(evs []prog.Event) *hbGraph {
	n := len(evs)
	g := &hbGraph{evs: evs, poNext: make([]int, n), stNext: make([]int, n), readers: make([][]int, n), pos: make([]int, n),
		prev: make([]int, n), pe: make([]prog.Edge, n)}
	last := map[int]int{}
	cells := 0
	for i, e := range evs {
		g.poNext[i], g.stNext[i] = -1, -1
		if j, ok := last[e.Thread]; ok {
			g.poNext[j] = i
		}
		last[e.Thread] = i
		cells = max(cells, e.Cell+1)
	}
	g.order = make([][]int, cells)
	for i, e := range evs {
		if e.Kind == prog.EvStore {
			g.order[e.Cell] = append(g.order[e.Cell], i)
		}
	}
	for _, ss := range g.order {
		// Stable, so that stores with the same Land keep event order; a
		// complete computation has none.
		sort.SliceStable(ss, func(a, b int) bool { return evs[ss[a]].Land < evs[ss[b]].Land })
		for k, s := range ss {
			g.pos[s] = k
			if k+1 < len(ss) {
				g.stNext[s] = ss[k+1]
			}
		}
	}
	for i, e := range evs {
		if e.Kind == prog.EvLoad && e.Src >= 0 {
			g.readers[e.Src] = append(g.readers[e.Src], i)
		}
	}
	g.covered = make([]int, cells)
	return g
}

// cfFrom is the first position in its cell's store order that load i has
// a conflict edge to: the stores after its source, or all of them.
func (g *hbGraph) cfFrom(i int) int {
	e := g.evs[i]
	if e.Src < 0 {
		return 0
	}
	ss := g.order[e.Cell]
	land := g.evs[e.Src].Land
	return sort.Search(len(ss), func(k int) bool { return g.evs[ss[k]].Land > land })
}

// bfs is FindCycle's breadth-first search from src, taking each event's
// edges in the order FindCycle's adjacency lists have them: program order,
// store order, source (stores), conflict (loads).
func (g *hbGraph) bfs(src int) []prog.Edge {
	for i := range g.prev {
		g.prev[i] = -2
	}
	for c, ss := range g.order {
		g.covered[c] = len(ss)
	}
	g.prev[src] = -1
	g.queue = append(g.queue[:0], src)
	for head := 0; head < len(g.queue); head++ {
		x := g.queue[head]
		// edge visits one edge; it reports a closed cycle.
		var cyc []prog.Edge
		edge := func(to int, k prog.EdgeKind) bool {
			e := prog.Edge{From: x, To: to, Kind: k}
			if to == src {
				cyc = g.close(e)
				return true
			}
			if g.prev[to] == -2 {
				g.prev[to], g.pe[to] = x, e
				g.queue = append(g.queue, to)
			}
			return false
		}
		if y := g.poNext[x]; y >= 0 && edge(y, prog.EdgePO) {
			return cyc
		}
		ev := g.evs[x]
		if ev.Kind == prog.EvStore {
			if y := g.stNext[x]; y >= 0 && edge(y, prog.EdgeST) {
				return cyc
			}
			for _, y := range g.readers[x] {
				if edge(y, prog.EdgeSRC) {
					return cyc
				}
			}
			continue
		}
		ss := g.order[ev.Cell]
		from := g.cfFrom(x)
		if s := g.evs[src]; s.Kind == prog.EvStore && s.Cell == ev.Cell && g.pos[src] >= from {
			// The edge to src closes the cycle before any later one
			// matters.
			return g.close(prog.Edge{From: x, To: src, Kind: prog.EdgeCF})
		}
		// Positions from covered on were all entered by an earlier
		// suffix: nothing new there.
		for k := from; k < g.covered[ev.Cell]; k++ {
			edge(ss[k], prog.EdgeCF)
		}
		g.covered[ev.Cell] = min(g.covered[ev.Cell], from)
	}
	return nil
}

// close turns the last edge of a cycle and the search tree into the
// cycle, from its source on.
func (g *hbGraph) close(last prog.Edge) []prog.Edge {
	cyc := []prog.Edge{last}
	for y := last.From; y != last.To; y = g.pe[y].From {
		cyc = append(cyc, g.pe[y])
	}
	for l, r := 0, len(cyc)-1; l < r; l, r = l+1, r-1 {
		cyc[l], cyc[r] = cyc[r], cyc[l]
	}
	return cyc
}
