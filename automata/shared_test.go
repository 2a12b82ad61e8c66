package automata

import "testing"

// diag accepts on the diagonal x = y > 0 of a grid: several goals.
type diag struct{ *grid }

func (d diag) Accepting(s State) bool {
	x, y := d.x.Get(s), d.y.Get(s)
	return x == y && x > 0
}

// OnAccept sees every accepting state once, with a path of real
// transitions from the initial state, and the search goes on until it
// asks to stop.
func TestOnAcceptGoesOn(t *testing.T) {
	g := diag{newGrid(6, -1)}
	var ends []uint64
	check := func(path []State) {
		if len(path) == 0 || path[0][0] != 0 {
			t.Fatalf("path does not start at the initial state: %v", path)
		}
		for k := 1; k < len(path); k++ {
			ok := false
			g.Successors(path[k-1], func(_ Label, s State) { ok = ok || Equal(s, path[k]) })
			if !ok {
				t.Fatalf("step %d of %v is no transition", k, path)
			}
		}
		if !g.Accepting(path[len(path)-1]) {
			t.Fatalf("path ends in a state that does not accept")
		}
	}
	r := Search(g, Options{OnAccept: func(path []State) bool {
		check(path)
		ends = append(ends, g.x.Get(path[len(path)-1]))
		return false
	}})
	if r.Outcome != NonEmpty || r.Path != nil || r.Stats.States != 36 {
		t.Fatalf("outcome %v, path %v, %d states; want non-empty, no path, all 36 states", r.Outcome, r.Path, r.Stats.States)
	}
	if len(ends) != 5 {
		t.Fatalf("accepting states reported: %v, want the 5 of the diagonal", ends)
	}
	// Stopping after the second goal.
	n := 0
	r = Search(g, Options{OnAccept: func(path []State) bool { n++; return n == 2 }})
	if r.Outcome != NonEmpty || n != 2 || r.Stats.States == 36 {
		t.Fatalf("outcome %v after %d goals and %d states; want non-empty after 2, before the end", r.Outcome, n, r.Stats.States)
	}
	// No goal: empty; a budget before the end: unknown, goals so far kept.
	if r := Search(newGrid(6, -1), Options{OnAccept: func([]State) bool { return false }}); r.Outcome != Empty {
		t.Fatalf("no accepting state: outcome %v, want empty", r.Outcome)
	}
	n = 0
	r = Search(g, Options{Budget: Budget{MaxStates: 10}, OnAccept: func([]State) bool { n++; return false }})
	if r.Outcome != Unknown || n == 0 {
		t.Fatalf("state budget: outcome %v after %d goals, want unknown after at least one", r.Outcome, n)
	}
}
