package race_test

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/cycles/race/oracle"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

var diffCount = flag.Int("race.count", 0, "programs for TestRaceDifferential (0: 100 with -short, 300 in the suite, 1000 with PGASROB_FULL=1)")
var diffSeed = flag.Uint64("race.seed", 0, "first seed of TestRaceDifferential")
var diffOracleSteps = flag.Int64("race.oracle-steps", 100_000, "TestRaceDifferential: the oracle's step bound per program (a program beyond it is counted, not compared)")

// TestRaceDifferential decides random loop-free programs (with and
// without the OpenSHMEM commands) at N = 2 and 3 with race.Decide and with
// the brute-force oracle, which shares no code with it, and requires the
// same verdict; every RACE witness of Decide must be a race by the
// oracle's definition (oracle.Certify). Comparisons where a bound ran out
// are counted, not compared.
func TestRaceDifferential(t *testing.T) {
	count := *diffCount
	if count == 0 {
		count = sized(300, 1000)
		if testing.Short() {
			count = 100
		}
	}
	stats := map[string]int{}
	for i := 0; i < count; i++ {
		seed := *diffSeed + uint64(i)
		r := rand.New(rand.NewPCG(seed, 37))
		cfg := gen.Config{Addrs: 2 + r.IntN(2), Values: 2 + r.IntN(2), Regs: 1 + r.IntN(2), Queues: 1 + r.IntN(2), Cmds: 2 + r.IntN(4),
			Shmem: r.IntN(3) != 0, SignalElems: r.IntN(3)}
		src := gen.Generate(r, cfg).String()
		p, err := pgas.Compile("race.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		n := 2 + int(seed%4/3)
		or := oracle.Races(p, n, oracle.Options{MaxSteps: *diffOracleSteps, Full: true})
		if or.Verdict == oracle.Unknown {
			stats["oracle bound"]++
			continue
		}
		res := race.Decide(p, n, race.Options{MaxStates: 2_000_000})
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
