package cycles

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// TestDepthFirstAgrees: Options.DepthFirst changes the order in which a
// cycle type's product is searched, never the answer. On every example and
// on random programs (with queues, waits and loops), per-type and shared,
// it gives the verdict of the breadth-first search, the same first
// feasible cycle type, and a witness certified in the plain semantics; and
// the shared exploration with DepthFirst reports the same witness as the
// per-type one with it (every search of a decision uses the same order).
func TestDepthFirstAgrees(t *testing.T) {
	type prog struct {
		p    *pgas.Program
		maxN int
	}
	var progs []prog
	for _, p := range examplePrograms(t) {
		progs = append(progs, prog{p, 3})
	}
	for _, p := range randomPrograms(t, rand.New(rand.NewPCG(11, 2026)), 60, mixedConfig) {
		progs = append(progs, prog{p, 2})
	}
	counts := map[Verdict]int{}
	for _, pr := range progs {
		p := pr.p
		for n := 2; n <= pr.maxN; n++ {
			base := Options{Jobs: 1, MaxStates: 200_000}
			bfs, err := Decide(p, n, base)
			if err != nil {
				t.Fatal(err)
			}
			df := base
			df.DepthFirst = true
			dfs, err := Decide(p, n, df)
			if err != nil {
				t.Fatal(err)
			}
			df.Exploration = Shared
			shared, err := Decide(p, n, df)
			if err != nil {
				t.Fatal(err)
			}
			if bfs.Verdict == Unknown || dfs.Verdict == Unknown {
				continue // a state budget: the two orders spend it differently
			}
			counts[dfs.Verdict]++
			if bfs.Verdict != dfs.Verdict {
				t.Fatalf("%s N = %d: breadth-first %v, depth-first %v", p.File, n, bfs.Verdict, dfs.Verdict)
			}
			if shared.Verdict != Unknown && shared.Verdict != dfs.Verdict {
				t.Fatalf("%s N = %d: shared depth-first %v, per-type %v", p.File, n, shared.Verdict, dfs.Verdict)
			}
			if dfs.Verdict != NotRobust {
				continue
			}
			if dfs.Witness == nil || len(dfs.Witness.HB) == 0 {
				t.Fatalf("%s N = %d: depth-first NOT ROBUST without a certified witness", p.File, n)
			}
			if dfs.Witness.Cycle.String() != bfs.Witness.Cycle.String() {
				t.Fatalf("%s N = %d: first cycle type %v depth-first, %v breadth-first", p.File, n, dfs.Witness.Cycle, bfs.Witness.Cycle)
			}
			if shared.Verdict == NotRobust && !reflect.DeepEqual(shared.Witness.Sigma, dfs.Witness.Sigma) {
				t.Fatalf("%s N = %d: the shared exploration's witness differs from the per-type one's (both depth-first)", p.File, n)
			}
		}
	}
	if counts[NotRobust] == 0 || counts[Robust] == 0 {
		t.Fatalf("verdicts %v: want both", counts)
	}
	t.Logf("verdicts compared: %v", counts)
}
