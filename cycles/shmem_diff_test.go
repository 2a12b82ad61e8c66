package cycles

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

var shmemDiffCount = flag.Int("shmem.count", 0, "programs for TestShmemDifferential (0: 200, 1000 without -short)")
var shmemDiffSeed = flag.Uint64("shmem.seed", 0, "first seed of TestShmemDifferential")

// TestShmemDifferential decides random programs with the OpenSHMEM
// commands (pgas/gen Config.Shmem) at N = 2 and 3 and compares each verdict
// with the brute-force oracle over X(P,N), the reference: Decide must
// never disagree, and a certified witness must replay. Skipped
// comparisons (a budget ran out) give no evidence and are only counted.
//
// Decide runs with the partial-order reduction and rank symmetry, between
// and inside cycle types (docs/deviations.md, "The reductions with
// contexts"); TestShmemDifferentialShared runs the shared exploration.
func TestShmemDifferential(t *testing.T) {
	shmemDifferential(t, PerType)
}

// TestShmemDifferentialShared is TestShmemDifferential with the shared
// exploration (its stuck-rank rule, stuck.go), breadth- and depth-first.
func TestShmemDifferentialShared(t *testing.T) {
	shmemDifferential(t, Shared)
}

func shmemDifferential(t *testing.T, ex Exploration) {
	count := *shmemDiffCount
	if count == 0 {
		count = sized(200, 1000)
		if testing.Short() {
			count = 200
		}
	}
	stats := map[CompareStatus]int{}
	verdicts := map[string]int{}
	for i := 0; i < count; i++ {
		seed := *shmemDiffSeed + uint64(i)
		r := rand.New(rand.NewPCG(seed, 25))
		cfg := gen.Config{Addrs: 2 + r.IntN(2), Values: 2 + r.IntN(2), Regs: 1 + r.IntN(2), Queues: 1, Cmds: 3 + r.IntN(3),
			Loops: r.IntN(5) == 0, Shmem: true}
		src := gen.Generate(r, cfg).String()
		p, err := pgas.Compile("shmem.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if p.HasCtx() {
			verdicts["(uses contexts)"]++
		}
		n := 2 + int(seed%2)
		if rot, cl := rankSymmetry(p, n); rot != nil || len(cl) > 0 {
			verdicts["(symmetric)"]++
		}
		c := Compare(p, n, CompareBudget{DecideStates: 300_000, DecideTime: DefaultCompareBudget.DecideTime, Oracle: DefaultCompareBudget.Oracle,
			Exploration: ex, DepthFirst: ex == Shared && seed%4 >= 2})
		stats[c.Status]++
		verdicts[c.Decide]++
		if c.Status == Disagree {
			t.Errorf("seed %d, N = %d: decide %s, oracle %s: %s\n%s", seed, n, c.Decide, c.Oracle, c.Detail, src)
		}
		if (i+1)%1000 == 0 && testing.Verbose() {
			t.Logf("after %d programs: %v; decide verdicts %v", i+1, stats, verdicts)
		}
	}
	t.Logf("%d programs: %v; decide verdicts %v", count, stats, verdicts)
}

// TestShmemSignalElemsDifferential is TestShmemDifferential on programs
// whose puts with signal carry up to three data elements (Cmd.Chain): the
// chain premise of X and Y's last(r) must agree through whole decisions.
// Only programs with a Chain send count; some must be decided by both
// sides, robust and not.
func TestShmemSignalElemsDifferential(t *testing.T) {
	count := sized(120, 800)
	if testing.Short() {
		count = 100
	}
	stats := map[CompareStatus]int{}
	verdicts := map[string]int{}
	for seed := uint64(0); seed < uint64(count); seed++ {
		r := rand.New(rand.NewPCG(seed, 26))
		cfg := gen.Config{Addrs: 2 + r.IntN(2), Values: 2, Regs: 1 + r.IntN(2), Queues: 1, Cmds: 3 + r.IntN(3),
			Loops: r.IntN(6) == 0, Shmem: true, SignalElems: 3}
		src := gen.Generate(r, cfg).String()
		p, err := pgas.Compile("chain.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if !hasChain(p) {
			continue
		}
		n := 2 + int(seed%2)
		c := Compare(p, n, CompareBudget{DecideStates: 300_000, DecideTime: DefaultCompareBudget.DecideTime, Oracle: DefaultCompareBudget.Oracle})
		stats[c.Status]++
		if c.Status == Agree {
			verdicts[c.Decide]++
		}
		if c.Status == Disagree {
			t.Errorf("seed %d, N = %d: decide %s, oracle %s: %s\n%s", seed, n, c.Decide, c.Oracle, c.Detail, src)
		}
	}
	t.Logf("programs with a chain: %v; agreed verdicts %v", stats, verdicts)
	if len(verdicts) < 2 {
		t.Errorf("the agreed verdicts %v are all alike: the family proves little", verdicts)
	}
}

func hasChain(p *pgas.Program) bool {
	for _, tr := range p.Trans {
		if tr.Cmd.Chain {
			return true
		}
	}
	return false
}
