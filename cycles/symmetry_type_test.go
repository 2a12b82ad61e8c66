package cycles_test

import (
	"math/rand/v2"
	"testing"

	"pgasrob/automata"
	"pgasrob/cycles"
	"pgasrob/pgas"
)

// symPrograms are the examples and random programs, whose rank arguments
// (rank, 1, N, N - rank + 1, rank % N + 1) give every kind of group: all
// permutations, every rank but a constant one, rotations, none.
func symPrograms(t *testing.T, random int) []*pgas.Program {
	t.Helper()
	return append(loadExamples(t), randomPrograms(t, rand.New(rand.NewPCG(23, 2026)), random, mixedConfig)...)
}

// TestTypeSymCanon: the canonical form of the symmetry inside a cycle
// type is a fixed point and the same for every member of an orbit (the
// state renamed by random permutations of the free ranks, turned or not).
func TestTypeSymCanon(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	checked, differ := 0, 0
	for _, p := range symPrograms(t, 30) {
		for n := 3; n <= 4; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			c, d, err := cycles.TypeSymOrbits(p, n, rng)
			if err != nil {
				t.Fatalf("%s N = %d: %v", p.File, n, err)
			}
			checked, differ = checked+c, differ+d
		}
	}
	t.Logf("%d renamed states checked, %d of them differ from the original", checked, differ)
	if differ < 1000 {
		t.Errorf("only %d renamed states differ from their original: the test exercises too little", differ)
	}
}

// TestTypeSymAgrees: every cycle type has the same outcome searched up
// to the symmetry inside it as without, on the examples and random
// programs; a violation found up to symmetry comes with a witness that
// certifies (searched again without the symmetry).
func TestTypeSymAgrees(t *testing.T) {
	reduced, feasible, fewer := 0, 0, 0
	for _, p := range symPrograms(t, 120) {
		for n := 2; n <= 3; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			for _, c := range cycles.CycleTypes(n) {
				with, active, err := cycles.TypeSymSearch(p, n, c, true, 30_000)
				if err != nil || !active {
					continue
				}
				reduced++
				without, _, _ := cycles.TypeSymSearch(p, n, c, false, 30_000)
				if with.Outcome == automata.Unknown || without.Outcome == automata.Unknown {
					continue
				}
				if with.Outcome != without.Outcome {
					t.Fatalf("%s N = %d %v: %v up to symmetry, %v without", p.File, n, c, with.Outcome, without.Outcome)
				}
				if with.Outcome == automata.NonEmpty {
					feasible++
					if err := with.Witness.Certify(p, n); err != nil {
						t.Fatalf("%s N = %d %v: witness: %v", p.File, n, c, err)
					}
				} else if with.Stats.States < without.Stats.States {
					fewer++
				}
			}
		}
	}
	t.Logf("%d cycle types with a symmetry inside, %d feasible, %d infeasible ones with fewer states", reduced, feasible, fewer)
	if reduced < 200 || feasible < 20 || fewer < 50 {
		t.Errorf("the test exercises too little: %d types, %d feasible, %d with fewer states", reduced, feasible, fewer)
	}
}
