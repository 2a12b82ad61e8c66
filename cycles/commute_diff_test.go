package cycles

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

var commDiffCount = flag.Int("comm.count", 0, "programs for TestCommutingDifferential (0: 150, 600 without -short)")

// TestCommutingLitmus decides the litmus programs of examples/commuting
// under both conflict relations, with both explorations, against the
// verdicts argued in their headers (docs/deviations.md, entry 14).
func TestCommutingLitmus(t *testing.T) {
	for _, c := range commuteLitmusFiles(t, "../examples/commuting") {
		p, err := pgas.Compile(c.file, c.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, comm := range []bool{false, true} {
			for _, ex := range []Exploration{PerType, Shared} {
				res, err := Decide(p, 2, Options{Jobs: 1, Commuting: comm, Exploration: ex})
				if err != nil {
					t.Fatalf("%s: %v", c.file, err)
				}
				want := c.strictRobust
				if comm {
					want = c.robust
				}
				if got := res.Verdict == Robust; got != want || (res.Verdict != Robust && res.Verdict != NotRobust) {
					t.Errorf("%s, commuting %v, %v: %v, want robust %v", c.file, comm, ex, res.Verdict, want)
				}
			}
		}
	}
}

// TestCommutingDifferential compares Decide with the oracle under cf_c on
// random OpenSHMEM programs whose statements are often non-fetching atomics
// on one cell (gen.Config.Atomics), at N = 2 and 3, with both explorations;
// a third of them on a signed window (-3..2 or -1..1337).
func TestCommutingDifferential(t *testing.T) {
	count := *commDiffCount
	if count == 0 {
		count = sized(150, 600)
	}
	stats := map[CompareStatus]int{}
	verdicts := map[string]int{}
	changed := 0 // ROBUST under cf_c, NOT ROBUST under cf
	for i := 0; i < count; i++ {
		seed := uint64(i)
		r := rand.New(rand.NewPCG(seed, 37))
		cfg := gen.Config{Addrs: 2 + r.IntN(2), Values: []int{2, 3, 4}[r.IntN(3)], Regs: 1 + r.IntN(2), Queues: 1, Cmds: 3 + r.IntN(3),
			Loops: r.IntN(6) == 0, Shmem: true, Atomics: true}
		if seed%3 == 2 {
			// A signed window: adds of both signs, two commuting classes
			// of adds, and wraps at both ends (entry 14).
			cfg.Wide, cfg.Window = true, gen.Windows[r.IntN(2)]
		}
		src := gen.Generate(r, cfg).String()
		p, err := pgas.Compile("comm.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		n := 2 + int(seed%2)
		ex := []Exploration{PerType, Shared}[seed/2%2]
		c := Compare(p, n, CompareBudget{DecideStates: 300_000, DecideTime: DefaultCompareBudget.DecideTime, Oracle: DefaultCompareBudget.Oracle,
			Exploration: ex, Commuting: true})
		stats[c.Status]++
		verdicts[c.Decide]++
		if c.Status == Agree && c.Decide == Robust.String() {
			// Does the paper's relation see a violation here? Those are
			// the programs on which cf_c changes the verdict.
			if o := oracle.Explore(p, n, DefaultCompareBudget.Oracle); o.Violation != nil {
				changed++
			}
		}
		if c.Status == Disagree {
			t.Errorf("seed %d, N = %d, %v: decide %s, oracle %s: %s\n%s", seed, n, ex, c.Decide, c.Oracle, c.Detail, src)
		}
	}
	t.Logf("%d programs: %v; decide verdicts %v; %d robust only modulo commuting updates", count, stats, verdicts, changed)
	if verdicts[Robust.String()] == 0 || verdicts[NotRobust.String()] == 0 || changed == 0 {
		t.Errorf("the sample lacks a verdict: %v", verdicts)
	}
}
