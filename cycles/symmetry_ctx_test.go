package cycles

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// shmemSymConfig gives random programs with the OpenSHMEM commands whose
// rank arguments (rank, 1, N, N - rank + 1, rank % N + 1) give every kind
// of symmetry group.
func shmemSymConfig(r *rand.Rand) gen.Config {
	return gen.Config{Addrs: 2 + r.IntN(2), Queues: 1, Values: 2, Regs: 1 + r.IntN(2), Cmds: 3 + r.IntN(3), Loops: r.IntN(5) == 0, Shmem: true}
}

func shmemSymPrograms(t *testing.T, count int) []*pgas.Program {
	var out []*pgas.Program
	for _, p := range randomPrograms(t, rand.New(rand.NewPCG(35, 2026)), count, shmemSymConfig) {
		if p.HasCtx() {
			out = append(out, p)
		}
	}
	return out
}

// TestTypeSymCanonShmem is TestTypeSymCanon on programs with contexts:
// renaming moves rank r's fields about target k to π(r)'s about π(k)
// (renameSpec), the renamed state's successors are the renamed successors
// (equivariant) and the canonical form is a fixed point. Two members of
// one orbit may have different canonical forms here (symmetry_ctx.go):
// they are counted, not failed.
func TestTypeSymCanonShmem(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	checked, differ, split := 0, 0, 0
	for _, p := range shmemSymPrograms(t, 60) {
		for n := 3; n <= 4; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			c, d, sp, err := typeSymOrbits(p, n, rng)
			if err != nil {
				t.Fatalf("%s N = %d: %v\n%s", p.File, n, err, p)
			}
			checked, differ, split = checked+c, differ+d, split+sp
		}
	}
	t.Logf("%d renamed states checked, %d of them differ from the original, %d with another canonical form", checked, differ, split)
	if differ < 1000 {
		t.Errorf("only %d renamed states differ from their original: the test exercises too little", differ)
	}
}

// TestTypeSymAgreesShmem is TestTypeSymAgrees on programs with contexts:
// every cycle type has the same outcome searched up to the symmetry
// inside it as without, and a violation found so certifies.
func TestTypeSymAgreesShmem(t *testing.T) {
	reduced, feasible := 0, 0
	for _, p := range shmemSymPrograms(t, 150) {
		for n := 2; n <= 3; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			for _, c := range CycleTypes(n) {
				with, active, err := typeSymSearch(p, n, c, true, 30_000)
				if err != nil || !active {
					continue
				}
				reduced++
				without, _, _ := typeSymSearch(p, n, c, false, 30_000)
				if with.Outcome == automata.Unknown || without.Outcome == automata.Unknown {
					continue
				}
				if with.Outcome != without.Outcome {
					t.Fatalf("%s N = %d %v: %v up to symmetry, %v without\n%s", p.File, n, c, with.Outcome, without.Outcome, p)
				}
				if with.Outcome == automata.NonEmpty {
					feasible++
					if err := with.Witness.certify(p, n, false); err != nil {
						t.Fatalf("%s N = %d %v: witness: %v", p.File, n, c, err)
					}
				}
			}
		}
	}
	t.Logf("%d cycle types with a symmetry inside, %d feasible", reduced, feasible)
	if reduced < 100 || feasible < 10 {
		t.Errorf("the test exercises too little: %d types, %d feasible", reduced, feasible)
	}
}
