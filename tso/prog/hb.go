package prog

import "sort"

// EdgeKind is one of the four relations of happens-before.
type EdgeKind uint8

const (
	EdgePO  EdgeKind = iota // program order
	EdgeST                  // store order
	EdgeSRC                 // source: store -> load reading it
	EdgeCF                  // conflict: load -> store overwriting what it read
)

func (k EdgeKind) String() string { return [...]string{"po", "st", "src", "cf"}[k] }

// Edge of the happens-before graph between event indices.
type Edge struct {
	From, To int
	Kind     EdgeKind
}

// HappensBefore computes the edges of the trace of a complete computation
// (every store has reached memory): program order between consecutive
// events of a thread, store order between consecutive stores to a cell,
// source, and conflict from a load to every store that comes after its
// source in store order (to all stores of the cell if it read the initial
// value). Consecutive edges suffice: cycles of the transitive relations are
// cycles of these.
func HappensBefore(evs []Event) []Edge {
	var edges []Edge
	lastOf := map[int]int{}
	for i, e := range evs {
		if j, ok := lastOf[e.Thread]; ok {
			edges = append(edges, Edge{j, i, EdgePO})
		}
		lastOf[e.Thread] = i
	}
	byCell := map[int][]int{}
	for i, e := range evs {
		if e.Kind == EvStore {
			byCell[e.Cell] = append(byCell[e.Cell], i)
		}
	}
	for _, ss := range byCell {
		sort.Slice(ss, func(a, b int) bool { return evs[ss[a]].Land < evs[ss[b]].Land })
		for k := 1; k < len(ss); k++ {
			edges = append(edges, Edge{ss[k-1], ss[k], EdgeST})
		}
	}
	for i, e := range evs {
		if e.Kind != EvLoad {
			continue
		}
		if e.Src >= 0 {
			edges = append(edges, Edge{e.Src, i, EdgeSRC})
		}
		for _, s := range byCell[e.Cell] {
			if s == e.Src {
				continue
			}
			if e.Src < 0 || evs[s].Land > evs[e.Src].Land {
				edges = append(edges, Edge{i, s, EdgeCF})
			}
		}
	}
	return edges
}

// FindCycle returns a shortest cycle through event via (or any cycle if via
// is negative or on none), as a list of edges, or nil if the graph of n
// events is acyclic.
func FindCycle(n int, edges []Edge, via int) []Edge {
	out := make([][]Edge, n)
	for _, e := range edges {
		out[e.From] = append(out[e.From], e)
	}
	bfs := func(src int) []Edge {
		prev := make([]int, n)
		for i := range prev {
			prev[i] = -2
		}
		pe := make([]Edge, n)
		queue := []int{src}
		prev[src] = -1
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, e := range out[x] {
				if e.To == src {
					cyc := []Edge{e}
					for y := x; y != src; y = pe[y].From {
						cyc = append(cyc, pe[y])
					}
					for l, r := 0, len(cyc)-1; l < r; l, r = l+1, r-1 {
						cyc[l], cyc[r] = cyc[r], cyc[l]
					}
					return cyc
				}
				if prev[e.To] == -2 {
					prev[e.To] = x
					pe[e.To] = e
					queue = append(queue, e.To)
				}
			}
		}
		return nil
	}
	if via >= 0 && via < n {
		if c := bfs(via); c != nil {
			return c
		}
	}
	for v := 0; v < n; v++ {
		if c := bfs(v); c != nil {
			return c
		}
	}
	return nil
}
