package cycles

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
)

// TestSharedForkAgrees: the shared exploration on the parallel frontier
// (forks of the shared system, shared_fork.go) against the same search on
// one goroutine, without the per-type helper so that every outcome is
// the shared search's own. With All no type is dropped, and the parallel
// search must visit exactly the sequential one's states (set numbers
// aside) and give every type the same outcome and witness. Without All a
// fork may carry a type a little after the sequential search dropped it,
// so only the verdict and the outcomes of the types up to the first
// feasible one must agree. A fork that shared a memo, a product's scratch
// or the filter of dead types with another goroutine fails this (and
// -race), as does a view of the shared tables read past its end.
func TestSharedForkAgrees(t *testing.T) {
	defer func(n int) { automata.ParallelAfter = n }(automata.ParallelAfter)
	automata.ParallelAfter = 0
	progs := examplePrograms(t)
	progs = append(progs, randomPrograms(t, rand.New(rand.NewPCG(23, 2026)), 30, mixedConfig)...)
	var states int64
	feasible := 0
	for _, p := range progs {
		for n := 2; n <= 3; n++ {
			for _, all := range []bool{true, false} {
				opt := withoutHelper(Options{Exploration: Shared, Jobs: 1, Workers: 1, MaxStates: 30_000, All: all})
				seq, err := Decide(p, n, opt)
				if err != nil {
					t.Fatal(err)
				}
				opt.Workers = 3
				par, err := Decide(p, n, opt)
				if err != nil {
					t.Fatal(err)
				}
				if seq.Verdict != par.Verdict || seq.Reason != par.Reason || len(seq.Types) != len(par.Types) {
					t.Fatalf("%s N = %d all %v: sequential %v (%s), parallel %v (%s)", p.File, n, all, seq.Verdict, seq.Reason, par.Verdict, par.Reason)
				}
				if all && seq.Stats.States != par.Stats.States {
					t.Fatalf("%s N = %d: %d states in one goroutine, %d on the parallel frontier", p.File, n, seq.Stats.States, par.Stats.States)
				}
				for i := range seq.Types {
					a, b := seq.Types[i], par.Types[i]
					if !all && a.Outcome == automata.Unknown && a.Reason != "" && b.Outcome == automata.Unknown {
						continue
					}
					if a.Outcome != b.Outcome || a.Reason != b.Reason || !reflect.DeepEqual(a.Witness, b.Witness) {
						t.Fatalf("%s N = %d all %v type %v: sequential %v (%s), parallel %v (%s), or the witnesses differ",
							p.File, n, all, a.Cycle, a.Outcome, a.Reason, b.Outcome, b.Reason)
					}
					if a.Outcome == automata.NonEmpty {
						feasible++
					}
				}
				states += seq.Stats.States
			}
		}
	}
	if states < 10_000 || feasible == 0 {
		t.Fatalf("%d states, %d feasible types: the test exercises too little", states, feasible)
	}
	t.Logf("%d states, %d feasible types", states, feasible)
}
