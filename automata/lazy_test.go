package automata

import "testing"

// TestEnterFirstAgrees: on every grid and goal, EnterFirst has the
// outcome of breadth-first search, visits every state when the goal is
// unreachable, returns a path of transitions from the initial state to
// the goal, and stores fewer states than DepthFirst, which stores every
// successor of each state it expands.
func TestEnterFirstAgrees(t *testing.T) {
	for _, size := range []int{1, 2, 5, 12} {
		for goal := -1; goal < size; goal++ {
			g := newGrid(size, goal)
			b := Search(g, Options{})
			e := Search(g, Options{Strategy: EnterFirst})
			if b.Outcome != e.Outcome {
				t.Fatalf("size %d goal %d: breadth-first %v, enter-first %v", size, goal, b.Outcome, e.Outcome)
			}
			if goal < 0 {
				if b.Stats.States != e.Stats.States {
					t.Errorf("size %d: %d states breadth-first, %d enter-first", size, b.Stats.States, e.Stats.States)
				}
				continue
			}
			if !Equal(e.Path[0].State, make(State, g.Width())) || !g.Accepting(e.Path[len(e.Path)-1].State) {
				t.Fatalf("size %d goal %d: path does not lead from the initial state to the goal", size, goal)
			}
			for k := 1; k < len(e.Path); k++ {
				ok := false
				g.Successors(e.Path[k-1].State, func(l Label, s State) {
					ok = ok || (l == e.Path[k].Label && Equal(s, e.Path[k].State))
				})
				if !ok {
					t.Fatalf("size %d goal %d: step %d is not a transition", size, goal, k)
				}
			}
		}
	}
	g := newGrid(300, 299)
	d := Search(g, Options{Strategy: DepthFirst})
	e := Search(g, Options{Strategy: EnterFirst})
	if e.Outcome != NonEmpty || e.Stats.States >= d.Stats.States {
		t.Errorf("deep goal: enter-first %v after %d states, depth-first %d", e.Outcome, e.Stats.States, d.Stats.States)
	}
}

// TestEnterFirstBudgets: the state budget and cancellation end an
// EnterFirst search in Unknown.
func TestEnterFirstBudgets(t *testing.T) {
	g := newGrid(50, -1)
	r := Search(g, Options{Strategy: EnterFirst, Budget: Budget{MaxStates: 100}})
	if r.Outcome != Unknown || r.Stats.States > 101 {
		t.Errorf("state budget: %v after %d states", r.Outcome, r.Stats.States)
	}
}
