package automata

import (
	"context"
	"strings"
	"testing"
	"time"
)

// grid is a test system: states (x, y) in 0..size-1, moves +1 in x or y,
// accepting at the goal (or nowhere when goal < 0).
type grid struct {
	size, goal int
	layout     Layout
	x, y       Field
}

func newGrid(size, goal int) *grid {
	g := &grid{size: size, goal: goal}
	g.x = g.layout.Field(BitsFor(size))
	g.y = g.layout.Field(BitsFor(size))
	return g
}

func (g *grid) Width() int { return g.layout.Words() }
func (g *grid) Initial(emit func(State)) {
	emit(make(State, g.Width()))
}
func (g *grid) Successors(s State, emit func(Label, State)) {
	t := make(State, len(s))
	for l, f := range []Field{g.x, g.y} {
		if v := f.Get(s); v+1 < uint64(g.size) {
			copy(t, s)
			f.Set(t, v+1)
			emit(Label(l), t)
		}
	}
}
func (g *grid) Accepting(s State) bool {
	return g.goal >= 0 && int(g.x.Get(s)) == g.goal && int(g.y.Get(s)) == g.goal
}

func TestSearchFindsShortestPath(t *testing.T) {
	g := newGrid(10, 4)
	r := Search(g, Options{})
	if r.Outcome != NonEmpty {
		t.Fatalf("outcome %v, want non-empty", r.Outcome)
	}
	// Breadth-first: the path has exactly 8 moves (4 in x, 4 in y).
	if len(r.Path) != 9 {
		t.Fatalf("path of %d states, want 9", len(r.Path))
	}
	xs := 0
	for _, st := range r.Path[1:] {
		if st.Label == 0 {
			xs++
		}
	}
	if xs != 4 {
		t.Errorf("%d moves in x, want 4", xs)
	}
	last := r.Path[len(r.Path)-1].State
	if !g.Accepting(last) {
		t.Error("path does not end in an accepting state")
	}
}

func TestSearchEmptyVisitsEverything(t *testing.T) {
	g := newGrid(12, -1)
	r := Search(g, Options{})
	if r.Outcome != Empty {
		t.Fatalf("outcome %v, want empty", r.Outcome)
	}
	if r.Stats.States != 144 {
		t.Errorf("visited %d states, want 144", r.Stats.States)
	}
	if r.Stats.Transitions != 2*11*12 {
		t.Errorf("followed %d transitions, want %d", r.Stats.Transitions, 2*11*12)
	}
}

func TestSearchBudgets(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		opt  Options
		want string
	}{
		{"states", Options{Budget: Budget{MaxStates: 50}}, "state budget"},
		{"memory", Options{Budget: Budget{MaxBytes: 1 << 16}}, "memory budget"},
		{"cancel", Options{Context: ctx}, "interrupted"},
		{"time", Options{Budget: Budget{Timeout: time.Nanosecond}}, "time budget"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Search(newGrid(200, -1), c.opt)
			if r.Outcome != Unknown || !strings.Contains(r.Reason, c.want) {
				t.Fatalf("got %v (%q), want unknown with %q", r.Outcome, r.Reason, c.want)
			}
			if r.Stats.States == 0 {
				t.Error("no statistics for an unknown outcome")
			}
		})
	}
}

func TestSearchProgress(t *testing.T) {
	calls := 0
	Search(newGrid(100, -1), Options{ProgressEvery: 1000, Progress: func(s Stats) {
		calls++
		if s.States == 0 {
			t.Error("progress without states")
		}
	}})
	if calls != 10 {
		t.Errorf("%d progress reports for 10000 states every 1000, want 10", calls)
	}
}

func TestLayout(t *testing.T) {
	var l Layout
	a := l.Field(3)
	b := l.Field(62) // does not fit after a: starts word 2
	// c fits after b in word 2; Align puts d in word 3.
	c := l.Field(1)
	l.Align()
	d := l.Field(64)
	if l.Words() != 3 {
		t.Fatalf("%d words, want 3", l.Words())
	}
	s := make(State, l.Words())
	a.Set(s, 5)
	b.Set(s, 1<<61|7)
	c.Set(s, 1)
	d.Set(s, ^uint64(0))
	if a.Get(s) != 5 || b.Get(s) != 1<<61|7 || c.Get(s) != 1 || d.Get(s) != ^uint64(0) {
		t.Fatalf("fields interfere: %d %d %d %d", a.Get(s), b.Get(s), c.Get(s), d.Get(s))
	}
	a.Set(s, 2)
	if b.Get(s) != 1<<61|7 || a.Get(s) != 2 {
		t.Fatal("Set disturbed a neighbour")
	}
	for n, want := range map[int]int{0: 1, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 256: 8, 257: 9} {
		if got := BitsFor(n); got != want {
			t.Errorf("BitsFor(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestStoreGrows checks the visited set across many resizes against a map.
func TestStoreGrows(t *testing.T) {
	st := newStore(2)
	seen := map[[2]uint64]int{}
	for i := 0; i < 50000; i++ {
		k := [2]uint64{uint64(i * 7919 % 20011), uint64(i % 3)}
		idx, fresh := st.insert(State(k[:]), noParent)
		if j, ok := seen[k]; ok {
			if fresh || idx != j {
				t.Fatalf("state %v inserted twice (%d, %d)", k, idx, j)
			}
		} else {
			if !fresh {
				t.Fatalf("new state %v reported as known", k)
			}
			seen[k] = idx
		}
	}
	if st.len() != len(seen) {
		t.Fatalf("store has %d states, map %d", st.len(), len(seen))
	}
}

// BenchmarkSearch measures the engine alone on a grid of 1M states.
func BenchmarkSearch(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r := Search(newGrid(1000, -1), Options{})
		b.ReportMetric(r.Stats.StatesPerSecond(), "states/s")
		b.ReportMetric(r.Stats.BytesPerState(), "B/state")
	}
}

// TestMemoryBudgetBeforeGrowth: the visited set never allocates past its
// budget, even for one growth of its table or arena (a doubling used to
// take the process well past --max-memory before the check saw it).
func TestMemoryBudgetBeforeGrowth(t *testing.T) {
	for _, max := range []int64{1 << 16, 1 << 20, 3 << 20} {
		r := Search(newGrid(2000, -1), Options{Budget: Budget{MaxBytes: max}})
		if r.Outcome != Unknown || r.Limit != MemoryLimit {
			t.Fatalf("budget %d: %v (%q), want unknown by memory", max, r.Outcome, r.Reason)
		}
		if r.Stats.Bytes > max {
			t.Errorf("budget %d: the visited set holds %d bytes", max, r.Stats.Bytes)
		}
	}
}

// TestStrategiesAgree: depth-first and breadth-first search give the same
// outcome and, on an empty language, visit the same states; a depth-first
// witness is a valid path from an initial to an accepting state, and on
// the grid (where every path to the goal has the same length) as short as
// the breadth-first one.
func TestStrategiesAgree(t *testing.T) {
	for _, size := range []int{1, 2, 5, 12} {
		for goal := -1; goal < size; goal++ {
			g := newGrid(size, goal)
			b := Search(g, Options{})
			d := Search(g, Options{Strategy: DepthFirst})
			if b.Outcome != d.Outcome {
				t.Fatalf("size %d goal %d: breadth-first %v, depth-first %v", size, goal, b.Outcome, d.Outcome)
			}
			if goal < 0 && b.Stats.States != d.Stats.States {
				t.Errorf("size %d: %d states breadth-first, %d depth-first", size, b.Stats.States, d.Stats.States)
			}
			if d.Outcome != NonEmpty {
				continue
			}
			if len(d.Path) != len(b.Path) {
				t.Errorf("size %d goal %d: depth-first path of %d states, breadth-first %d", size, goal, len(d.Path), len(b.Path))
			}
			if !Equal(d.Path[0].State, make(State, g.Width())) || !g.Accepting(d.Path[len(d.Path)-1].State) {
				t.Errorf("size %d goal %d: path does not lead from the initial state to the goal", size, goal)
			}
			for k := 1; k < len(d.Path); k++ {
				ok := false
				g.Successors(d.Path[k-1].State, func(l Label, s State) {
					ok = ok || (l == d.Path[k].Label && Equal(s, d.Path[k].State))
				})
				if !ok {
					t.Fatalf("size %d goal %d: step %d is not a transition", size, goal, k)
				}
			}
		}
	}
}

// TestDepthFirstReachesDeepGoalEarly: with a goal at the end of a long
// chain beside a wide region, depth-first search stops after far fewer
// states than breadth-first search (the case of issue 10: a violation
// near the end of one thread's run).
func TestDepthFirstReachesDeepGoalEarly(t *testing.T) {
	g := newGrid(300, 299)
	b := Search(g, Options{})
	d := Search(g, Options{Strategy: DepthFirst})
	if b.Outcome != NonEmpty || d.Outcome != NonEmpty {
		t.Fatalf("outcomes %v %v", b.Outcome, d.Outcome)
	}
	if d.Stats.States*10 > b.Stats.States {
		t.Errorf("depth-first visited %d states, breadth-first %d", d.Stats.States, b.Stats.States)
	}
}

// cancelAtGoal is a grid whose goal cancels the search's context, as a
// deadline passing at that moment would.
type cancelAtGoal struct {
	*grid
	cancel func()
}

func (c cancelAtGoal) Accepting(s State) bool {
	ok := c.grid.Accepting(s)
	if ok {
		c.cancel()
	}
	return ok
}

// TestShorteningWithinBudget: the shortening of a depth-first path gives
// up when over says the budget is spent (issue 29: it used to take what it
// needed), and the search then returns the depth-first path itself, a
// valid one.
func TestShorteningWithinBudget(t *testing.T) {
	g := newGrid(40, 39)
	d := Search(g, Options{Strategy: DepthFirst})
	if d.Outcome != NonEmpty {
		t.Fatalf("outcome %v", d.Outcome)
	}
	calls := 0
	st := newStoreFor(g)
	g.Initial(func(s State) { st.insert(s, noParent) })
	if p := shortest(g, st, func(int64) bool { calls++; return true }); p != nil || calls == 0 {
		t.Fatalf("shortest with no budget left: path of %d steps after %d budget checks", len(p), calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := Search(cancelAtGoal{g, cancel}, Options{Strategy: DepthFirst, Context: ctx})
	if r.Outcome != NonEmpty || len(r.Path) == 0 {
		t.Fatalf("outcome %v, path of %d states", r.Outcome, len(r.Path))
	}
	for k := 1; k < len(r.Path); k++ {
		ok := false
		g.Successors(r.Path[k-1].State, func(l Label, s State) {
			ok = ok || l == r.Path[k].Label && Equal(s, r.Path[k].State)
		})
		if !ok {
			t.Fatalf("step %d of the path is no transition", k)
		}
	}
	if !g.Accepting(r.Path[len(r.Path)-1].State) {
		t.Fatal("the path does not end at the goal")
	}
}
