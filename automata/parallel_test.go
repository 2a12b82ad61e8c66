package automata

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// graph is a random test system: nodes 0..n-1, each with a list of
// successors (repeats and self-loops allowed), some accepting. A state is
// two words, the node and a scramble of it, so that multi-word states are
// exercised. Fork gives a copy with its own buffer; running counts the
// Successors calls in progress over all forks.
type graph struct {
	succ    [][]int
	accept  []bool
	buf     State
	running *atomic.Int64
	// hook, if set, is called at the start of every Successors call.
	hook func()
}

func randomGraph(seed int64, n int) *graph {
	rng := rand.New(rand.NewSource(seed))
	g := &graph{succ: make([][]int, n), accept: make([]bool, n), buf: make(State, 2), running: new(atomic.Int64)}
	// Mostly short edges (a long frontier), a few long ones, some nodes
	// without successors; acceptance is rare, and absent in a third of the
	// graphs, so that both outcomes are tested.
	density := rng.Intn(3)
	for v := range n {
		k := 1 + rng.Intn(4)
		if rng.Intn(10) == 0 {
			k = 0
		}
		for range k {
			w := v + 1 + rng.Intn(20)
			if rng.Intn(8) == 0 {
				w = rng.Intn(n)
			}
			g.succ[v] = append(g.succ[v], w%n)
		}
		g.accept[v] = density > 0 && rng.Intn(4000/density) == 0
	}
	return g
}

func (g *graph) state(v int) State { return State{uint64(v), uint64(v)*0x9E3779B97F4A7C15 ^ 0x5555} }

func (g *graph) Width() int               { return 2 }
func (g *graph) Initial(emit func(State)) { emit(g.state(0)) }
func (g *graph) Accepting(s State) bool   { return g.accept[s[0]] }
func (g *graph) Fork() System             { c := *g; c.buf = make(State, 2); return &c }

func (g *graph) Successors(s State, emit func(Label, State)) {
	g.running.Add(1)
	defer g.running.Add(-1)
	if g.hook != nil {
		g.hook()
	}
	for l, w := range g.succ[s[0]] {
		copy(g.buf, g.state(w))
		emit(Label(l), g.buf)
	}
}

// sameResult reports how two results differ, or "".
func sameResult(a, b Result) string {
	switch {
	case a.Outcome != b.Outcome || a.Reason != b.Reason:
		return fmt.Sprintf("outcome %v (%q) vs %v (%q)", a.Outcome, a.Reason, b.Outcome, b.Reason)
	case a.Stats.States != b.Stats.States || a.Stats.Transitions != b.Stats.Transitions:
		return fmt.Sprintf("%d states %d transitions vs %d and %d", a.Stats.States, a.Stats.Transitions, b.Stats.States, b.Stats.Transitions)
	case !reflect.DeepEqual(a.Path, b.Path):
		return fmt.Sprintf("paths %v vs %v", a.Path, b.Path)
	}
	return ""
}

// TestParallelSameAsSequential: on random graphs, with and without state
// budgets, the parallel search with 2, 3 and 7 workers gives the
// sequential result state for state: outcome, reason, states,
// transitions, witness; and no fork runs once Search has returned.
func TestParallelSameAsSequential(t *testing.T) {
	defer func(n int) { ParallelAfter = n }(ParallelAfter)
	for seed := range int64(40) {
		ParallelAfter = []int{0, 1, 50, 1024}[seed%4]
		g := randomGraph(seed, 3000+int(seed)*50)
		for _, budget := range []int64{0, 1, 7, 100 + seed*37} {
			opt := Options{Budget: Budget{MaxStates: budget}}
			seq := Search(g, opt)
			if seed == 0 && budget == 0 && seq.Stats.States < 1000 {
				t.Fatalf("the test graph is too small to test anything: %d states", seq.Stats.States)
			}
			for _, w := range []int{2, 3, 7} {
				opt.Workers = w
				par := Search(g, opt)
				if d := sameResult(seq, par); d != "" {
					t.Fatalf("seed %d budget %d workers %d: sequential vs parallel: %s", seed, budget, w, d)
				}
				if n := g.running.Load(); n != 0 {
					t.Fatalf("seed %d: %d Successors calls still running after Search returned", seed, n)
				}
			}
		}
	}
}

// TestParallelOnAccept: OnAccept sees the same paths in the same order,
// and a stop after the k-th one stops both searches at the same state.
func TestParallelOnAccept(t *testing.T) {
	defer func(n int) { ParallelAfter = n }(ParallelAfter)
	ParallelAfter = 0
	for seed := range int64(20) {
		g := randomGraph(seed, 4000)
		for _, stopAt := range []int{0, 1, 3} {
			run := func(w int) (Result, [][]State) {
				var got [][]State
				r := Search(g, Options{Workers: w, OnAccept: func(p []State) bool {
					got = append(got, p)
					return len(got) == stopAt
				}})
				return r, got
			}
			seq, sp := run(1)
			for _, w := range []int{2, 7} {
				par, pp := run(w)
				if d := sameResult(seq, par); d != "" {
					t.Fatalf("seed %d stop at %d workers %d: %s", seed, stopAt, w, d)
				}
				if !reflect.DeepEqual(sp, pp) {
					t.Fatalf("seed %d stop at %d workers %d: accepted paths differ", seed, stopAt, w)
				}
			}
		}
	}
}

// TestParallelCancel: a context cancelled during the search, or before
// it, ends the parallel search with the context's reason, and no worker
// is left running.
func TestParallelCancel(t *testing.T) {
	defer func(n int) { ParallelAfter = n }(ParallelAfter)
	ParallelAfter = 0
	g := randomGraph(3, 20000)
	g.accept = make([]bool, len(g.accept))
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	g.hook = func() {
		if calls.Add(1) == 500 {
			cancel()
		}
	}
	r := Search(g, Options{Workers: 3, Context: ctx})
	if r.Outcome != Unknown || r.Reason != "interrupted" {
		t.Fatalf("cancelled search: %v (%q), want unknown, interrupted", r.Outcome, r.Reason)
	}
	if n := calls.Load(); n > 500+3*maxBatch {
		t.Errorf("workers went on after the cancellation: %d Successors calls", n)
	}
	if g.running.Load() != 0 {
		t.Error("a worker still runs after Search returned")
	}
	g.hook = nil
	r = Search(g, Options{Workers: 2, Context: ctx})
	if r.Outcome != Unknown || r.Reason != "interrupted" {
		t.Fatalf("search with a cancelled context: %v (%q)", r.Outcome, r.Reason)
	}
}

// TestParallelPanic: a panic in a fork's Successors reaches the caller of
// Search, as it does in the sequential search.
func TestParallelPanic(t *testing.T) {
	defer func(n int) { ParallelAfter = n }(ParallelAfter)
	ParallelAfter = 0
	g := randomGraph(5, 3000)
	var calls atomic.Int64
	g.hook = func() {
		if calls.Add(1) == 200 {
			panic("boom")
		}
	}
	defer func() {
		e := recover()
		if e == nil || !strings.Contains(fmt.Sprint(e), "boom") {
			t.Fatalf("recovered %v, want the system's panic", e)
		}
	}()
	Search(g, Options{Workers: 2})
	t.Fatal("Search returned after a panic in Successors")
}

// TestParallelProgressAndFallbacks: progress reports come at the same
// counts; DepthFirst and systems that cannot fork ignore Workers.
func TestParallelProgressAndFallbacks(t *testing.T) {
	defer func(n int) { ParallelAfter = n }(ParallelAfter)
	ParallelAfter = 0
	g := randomGraph(1, 5000)
	var seq, par []Stats
	Search(g, Options{ProgressEvery: 100, Progress: func(s Stats) { seq = append(seq, s) }})
	Search(g, Options{Workers: 2, ProgressEvery: 100, Progress: func(s Stats) { par = append(par, s) }})
	if len(seq) == 0 || len(seq) != len(par) {
		t.Fatalf("%d progress reports sequential, %d parallel", len(seq), len(par))
	}
	for i := range seq {
		if seq[i].States != par[i].States || seq[i].Transitions != par[i].Transitions {
			t.Fatalf("report %d: %+v vs %+v", i, seq[i], par[i])
		}
	}
	d1 := Search(g, Options{Strategy: DepthFirst})
	d2 := Search(g, Options{Strategy: DepthFirst, Workers: 4})
	if d := sameResult(d1, d2); d != "" {
		t.Fatal("depth-first with workers:", d)
	}
	grid := newGrid(30, 20) // no Fork
	if d := sameResult(Search(grid, Options{}), Search(grid, Options{Workers: 4})); d != "" {
		t.Fatal("system without Fork:", d)
	}
}

// TestParallelMemoryBudget: the batches count in the memory budget, which
// still ends the search in Unknown by memory.
func TestParallelMemoryBudget(t *testing.T) {
	defer func(n int) { ParallelAfter = n }(ParallelAfter)
	ParallelAfter = 0
	g := randomGraph(2, 200000)
	g.accept = make([]bool, len(g.accept))
	r := Search(g, Options{Workers: 2, Budget: Budget{MaxBytes: 1 << 20}})
	if r.Outcome != Unknown || r.Limit != MemoryLimit {
		t.Fatalf("%v (%q), want unknown by memory", r.Outcome, r.Reason)
	}
}
