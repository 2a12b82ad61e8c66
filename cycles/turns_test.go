package cycles

import (
	"reflect"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// TestHelperGoesFirst: with one job the shared exploration and its
// per-type helper take turns, and the helper takes the first one. On the
// unfenced ring the first violating cycle type, (1 2), is settled by the
// helper within that turn, so the shared search, whose first states carry
// every cycle type and cost the most, must not expand anything: the work
// is the per-type search's to the same witness. (The helper used to wait
// for the shared search's first progress call and to hand the turn back
// before settling a type: at N = 8 that took 34 s instead of 1 s.)
func TestHelperGoesFirst(t *testing.T) {
	p, err := pgas.Load("../examples/1to1.pgas")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, 5} {
		per, err := Decide(p, n, Options{Jobs: 1, Exploration: PerType, Procedure: Automata})
		if err != nil {
			t.Fatal(err)
		}
		sh, err := Decide(p, n, Options{Jobs: 1, Exploration: Shared, Procedure: Automata})
		if err != nil {
			t.Fatal(err)
		}
		if per.Verdict != NotRobust || sh.Verdict != NotRobust {
			t.Fatalf("N = %d: per-type %v, shared %v; want NOT ROBUST (hand analysis in examples/1to1.pgas)", n, per.Verdict, sh.Verdict)
		}
		if !reflect.DeepEqual(per.Witness.Sigma, sh.Witness.Sigma) {
			t.Errorf("N = %d: the shared exploration's witness differs from the per-type one", n)
		}
		// The shared search may add its initial states before it sees
		// that the decision is over.
		if extra := sh.Stats.States - per.Stats.States; extra < 0 || extra > 4 {
			t.Errorf("N = %d: shared exploration with one job visited %d states, the per-type search %d: the helper did not go first", n, sh.Stats.States, per.Stats.States)
		}
	}
}
