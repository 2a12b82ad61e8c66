package race_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/cycles/race/oracle"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// TestRaceSubsetBarriers is TestRaceDifferential on programs with
// barriers over part of the ranks (gen's SubsetBarriers) at N = 3 and 4,
// where the sets are proper: a barrier orders its members only, in the
// monitor of race.Decide as in the oracle's happens-before.
func TestRaceSubsetBarriers(t *testing.T) {
	count := 60
	if testing.Short() {
		count = 30
	}
	stats := map[string]int{}
	for seed, done := uint64(0), 0; done < count; seed++ {
		r := rand.New(rand.NewPCG(seed, 41))
		cfg := gen.Config{Addrs: 2, Values: 2, Queues: 1 + r.IntN(2), Cmds: 3 + r.IntN(3), Shmem: r.IntN(2) == 0, SubsetBarriers: true}
		src := gen.Generate(r, cfg).String()
		if !strings.Contains(src, "barrier {") {
			continue
		}
		done++
		p, err := pgas.Compile("race.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		n := 3 + int(seed%2)
		or := oracle.Races(p, n, oracle.Options{MaxSteps: 100_000, Full: true})
		if or.Verdict == oracle.Unknown {
			stats["oracle bound"]++
			continue
		}
		res := race.Decide(p, n, race.Options{MaxStates: 1_000_000})
		if res.Verdict == race.Unknown {
			stats["decide bound"]++
			continue
		}
		stats[res.Verdict.String()]++
		if res.Verdict.String() != or.Verdict.String() {
			t.Errorf("seed %d, N = %d: decide %v, oracle %v (oracle pair %v in %v)\n%s", seed, n, res.Verdict, or.Verdict, or.Pair, or.Events, src)
			continue
		}
		if w := res.Witness; w != nil {
			if err := oracle.Certify(p, n, w.Events, w.I, w.J); err != nil {
				t.Errorf("seed %d, N = %d: witness %v (%d, %d): %v\n%s", seed, n, w.Events, w.I, w.J, err, src)
			}
		}
	}
	t.Logf("%d programs: %v", count, stats)
}

// Rank 1 stores x and passes a barrier over ranks 1 and 2; rank N then
// gets x from rank 1. At N = 2 the getter is rank 2, after the barrier:
// the store happens before the get, RACE-FREE. At N = 3 the getter is
// rank 3, outside the set: nothing orders the two accesses, a RACE (a
// monitor that let the barrier order every rank would miss it).
func TestRaceSubsetBarrierOutside(t *testing.T) {
	src := `values 2
address x
queue q
    if rank == 1 {
        mem[x] <- 1
        barrier {1, 2}
    }
    if rank == 2 {
        barrier {1, 2}
    }
    if rank == N {
        get(x, 1, x, q)
    }
`
	p, err := pgas.Compile("sub.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{2: "RACE-FREE", 3: "RACE", 4: "RACE"} {
		res := race.Decide(p, n, race.Options{MaxStates: 100_000})
		or := oracle.Races(p, n, oracle.Options{MaxSteps: 100_000, Full: true})
		if res.Verdict.String() != want || or.Verdict.String() != want {
			t.Errorf("N = %d: decide %v, oracle %v, want %s", n, res.Verdict, or.Verdict, want)
		}
	}
}
