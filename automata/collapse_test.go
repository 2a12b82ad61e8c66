package automata

import "testing"

// collapsedGraph is the random graph of parallel_test.go with its two
// words stored as two parts.
type collapsedGraph struct{ *graph }

func (c collapsedGraph) CollapseAt() int { return 1 }
func (c collapsedGraph) Fork() System    { return collapsedGraph{c.graph.Fork().(*graph)} }

// TestCollapseSameSearch: a collapsed visited set changes nothing but the
// memory: on random graphs, breadth-first and depth-first, with state
// budgets, sequential and parallel, the result is the plain one, state
// for state and witness for witness.
func TestCollapseSameSearch(t *testing.T) {
	for seed := range int64(12) {
		g := randomGraph(seed, 3000+int(seed)*50)
		for _, opt := range []Options{
			{},
			{Budget: Budget{MaxStates: 100 + seed*37}},
			{Strategy: DepthFirst},
			{Workers: 3},
		} {
			plain := Search(g, opt)
			col := Search(collapsedGraph{g}, opt)
			if d := sameResult(plain, col); d != "" {
				t.Fatalf("seed %d %+v: plain vs collapsed: %s", seed, opt, d)
			}
		}
	}
}

// TestCollapseStore checks the collapsed store against the plain one on
// states whose parts repeat, and that it is smaller per state.
func TestCollapseStore(t *testing.T) {
	plain := newStore(3)
	col := newStoreFor(collapsedThree{})
	for i := 0; i < 200000; i++ {
		// 512 values of the first part, 391 of the second (two words),
		// some states twice.
		j := i - i%7
		st := State{uint64(j % 512), uint64(j / 512), uint64(j % 3)}
		a, fa := plain.insert(st, noParent)
		b, fb := col.insert(st, noParent)
		if a != b || fa != fb {
			t.Fatalf("insert %v: plain (%d, %v), collapsed (%d, %v)", st, a, fa, b, fb)
		}
		if !Equal(col.state(b), st) || !col.contains(st) {
			t.Fatalf("state %d decodes to %v, want %v", b, col.state(b), st)
		}
	}
	if col.contains(State{1, 2, 1000}) || col.contains(State{1000, 1, 1}) {
		t.Fatal("an absent state is reported present")
	}
	pb, cb := plain.bytes()/int64(plain.len()), col.bytes()/int64(col.len())
	if cb >= pb || cb > 24 {
		t.Errorf("bytes per state: plain %d, collapsed %d (want under 24)", pb, cb)
	}
}

type collapsedThree struct{}

func (collapsedThree) Width() int                           { return 3 }
func (collapsedThree) Initial(func(State))                  {}
func (collapsedThree) Successors(State, func(Label, State)) {}
func (collapsedThree) Accepting(State) bool                 { return false }
func (collapsedThree) CollapseAt() int                      { return 1 }

// TestCollapseMemoryBudget: a collapsed visited set counts its parts'
// stores too, and refuses an allocation that would pass the budget.
func TestCollapseMemoryBudget(t *testing.T) {
	for _, max := range []int64{1 << 16, 1 << 20, 3 << 20} {
		r := Search(collapsedRing{ring(1 << 20)}, Options{Budget: Budget{MaxBytes: max}})
		if r.Outcome != Unknown || r.Limit != MemoryLimit {
			t.Fatalf("budget %d: %v (%q), want unknown by memory", max, r.Outcome, r.Reason)
		}
		if r.Stats.Bytes > max {
			t.Errorf("budget %d: the visited set holds %d bytes", max, r.Stats.Bytes)
		}
	}
}

// collapsedRing is the ring of store_test.go with a second word, split
// off as the second part.
type collapsedRing struct{ ring }

func (c collapsedRing) Width() int               { return 2 }
func (c collapsedRing) Initial(emit func(State)) { emit(State{0, 0}) }
func (c collapsedRing) CollapseAt() int          { return 1 }
func (c collapsedRing) Successors(s State, emit func(Label, State)) {
	c.ring.Successors(s[:1], func(l Label, t State) { emit(l, State{t[0], t[0] % 7}) })
}
