package automata

import (
	"math/rand"
	"sync/atomic"
	"testing"
)

// layeredGraph has depth layers of width nodes, each with one to four
// edges to random nodes of the next layer (and, rarely, back to a random
// node of an earlier one): many paths lead to each node, so a search
// without its visited set explores it many times, and a depth-first path
// is at most depth long (plus the back edges' detours, which the path
// set cuts). A third of the graphs have no accepting node.
func layeredGraph(seed int64, depth, width int) *graph {
	rng := rand.New(rand.NewSource(seed))
	n := depth * width
	g := &graph{succ: make([][]int, n), accept: make([]bool, n), buf: make(State, 2), running: new(atomic.Int64)}
	density := rng.Intn(3)
	for v := range n {
		layer := v / width
		if layer+1 < depth {
			for range 1 + rng.Intn(4) {
				g.succ[v] = append(g.succ[v], (layer+1)*width+rng.Intn(width))
			}
		}
		if rng.Intn(50) == 0 {
			g.succ[v] = append(g.succ[v], rng.Intn(v+1))
		}
		g.accept[v] = density > 0 && layer > depth/2 && rng.Intn(20000/density) == 0
	}
	return g
}

// TestOverflowAgrees: with CacheOverflow and a budget far below what the
// visited set needs, the search answers as the unbounded one on random
// graphs (breadth- and depth-first, with and without accepting states),
// or Unknown only by a budget; a witness is a path of the graph from the
// initial state to an accepting one. Some searches must go beyond the
// store and still answer.
func TestOverflowAgrees(t *testing.T) {
	beyond, answered, answeredBeyond := 0, 0, 0
	reasons := map[string]int{}
	for seed := int64(0); seed < 20; seed++ {
		g := layeredGraph(seed, 7, 2500+int(seed)*50)
		want := Search(g, Options{})
		for _, strat := range []Strategy{BreadthFirst, DepthFirst} {
			r := Search(g, Options{Strategy: strat, Budget: Budget{MaxBytes: 160 << 10}, CacheOverflow: true})
			if r.Beyond > 0 {
				beyond++
			}
			if r.Outcome == Unknown {
				reasons[r.Reason]++
				continue
			}
			answered++
			if r.Beyond > 0 {
				answeredBeyond++
			}
			if r.Outcome != want.Outcome {
				t.Fatalf("seed %d %v: %v with the cache, %v without", seed, strat, r.Outcome, want.Outcome)
			}
			if r.Outcome == NonEmpty {
				checkGraphPath(t, g, r.Path)
			}
		}
	}
	t.Logf("%d of 40 searches answered, %d went beyond the visited set, %d of them answered; unknown: %v", answered, beyond, answeredBeyond, reasons)
	if answered < 30 || answeredBeyond < 10 {
		t.Errorf("the test exercises too little: %d answered, %d beyond", answered, beyond)
	}
}

func checkGraphPath(t *testing.T, g *graph, path []Step) {
	t.Helper()
	if len(path) == 0 || path[0].State[0] != 0 || !g.Accepting(path[len(path)-1].State) {
		t.Fatalf("witness does not lead from the initial state to an accepting one: %v", path)
	}
	for k := 1; k < len(path); k++ {
		v, w := path[k-1].State[0], path[k].State[0]
		if g.succ[v][path[k].Label] != int(w) {
			t.Fatalf("step %d: no edge %d -> %d labelled %d", k, v, w, path[k].Label)
		}
	}
}

// TestOverflowBudgetStillUnknown: without CacheOverflow the same budget
// ends the search with Unknown by memory (the option is what changes it).
func TestOverflowBudgetStillUnknown(t *testing.T) {
	g := randomGraph(3, 40_000)
	clear(g.accept)
	r := Search(g, Options{Budget: Budget{MaxBytes: 200 << 10}})
	if r.Outcome != Unknown || r.Limit != MemoryLimit {
		t.Fatalf("%v %q, want unknown by memory", r.Outcome, r.Reason)
	}
}
