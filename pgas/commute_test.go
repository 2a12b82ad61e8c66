package pgas_test

import (
	"os"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestHappensBeforeCommuting takes the paper's violation of two unfenced
// adds (examples/commuting/two-adds.pgas: [A1] ->po [A2], popb(A2) ->cf
// popb(A1)) and checks that cf_c drops exactly that edge: no cf edge is
// left between the two popbs, and the class graph is acyclic. Under the
// paper's relation the same computation is violating.
func TestHappensBeforeCommuting(t *testing.T) {
	f := "../examples/commuting/two-adds.pgas"
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pgas.Compile(f, src)
	if err != nil {
		t.Fatal(err)
	}
	res := oracle.Explore(p, 2, oracle.Bounds{})
	if res.Violation == nil {
		t.Fatal("no violation under the paper's relation")
	}
	evs := res.Violation
	if !pgas.HappensBefore(evs).Violating() {
		t.Fatal("the oracle's violation is not violating")
	}
	h := pgas.HappensBeforeCommuting(p, evs)
	if h.Violating() {
		t.Errorf("violating under cf_c: %v", evs)
	}
	for _, e := range h.Edges {
		if e.Rel == pgas.RelCF && evs[e.From].Kind == pgas.KPopb && evs[e.To].Kind == pgas.KPopb {
			t.Errorf("cf_c edge between two adds: %v -> %v", evs[e.From], evs[e.To])
		}
	}
	if c := p.CommuteClass(evs[len(evs)-1]); evs[len(evs)-1].Kind == pgas.KPopb && c != 1 {
		t.Errorf("the class of an add's popb is %d, want 1", c)
	}
}
