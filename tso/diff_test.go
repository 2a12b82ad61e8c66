package tso

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestDiffRandom compares the instrumentation with the oracle on random
// loop-free programs, for both models; with -short it runs fewer.
func TestDiffRandom(t *testing.T) {
	n := sized(400, 1500)
	if testing.Short() {
		n = 200
	}
	for _, m := range []prog.Model{prog.TSO, prog.PSO} {
		r := rand.New(rand.NewPCG(uint64(m)+1, 42))
		counts := map[string]int{}
		start := time.Now()
		for i := 0; i < n; i++ {
			cfg := gen.Config{Fences: m == prog.PSO && i%2 == 0}
			src := gen.Generate(r, cfg)
			p, err := prog.ParseProgram(fmt.Sprintf("random-%v-%d", m, i), []byte(src))
			if err != nil {
				t.Fatalf("generator wrote a bad program: %v\n%s", err, src)
			}
			agree, report, cv, ov := diffTest(p, m, Robustness, DiffBudget{MaxStates: 200_000, OracleNodes: 200_000, Timeout: 10 * time.Second})
			if !agree {
				t.Fatalf("%s\nprogram:\n%s", report, src)
			}
			counts["checker "+cv.String()]++
			counts["oracle "+ov.String()]++
		}
		t.Logf("%v: %d programs in %v: %v", m, n, time.Since(start), counts)
		// The comparison means little if one side rarely decides, or if
		// the generator rarely produces a violation.
		if counts["checker UNKNOWN"]+counts["oracle UNKNOWN"] > n/100 {
			t.Errorf("too many undecided programs: %v", counts)
		}
		if counts["oracle NOT ROBUST"] < n/20 {
			t.Errorf("the generator produced too few non-robust programs: %v", counts)
		}
	}
}

// TestDiffSweep is the long differential run (about 12 minutes): larger
// random programs, 90 seconds per shape and model. It runs only when the
// environment variable TSO_SWEEP is set.
func TestDiffSweep(t *testing.T) {
	if os.Getenv("TSO_SWEEP") == "" {
		t.Skip("set TSO_SWEEP=1 for the long differential run")
	}
	cfgs := []gen.Config{{Threads: 4, Instrs: 4, Addrs: 2}, {Threads: 3, Instrs: 6, Addrs: 3, Values: 3}, {Threads: 2, Instrs: 7, Addrs: 2}, {Threads: 3, Instrs: 5, Addrs: 2, Fences: true}}
	for ci, cfg := range cfgs {
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			r := rand.New(rand.NewPCG(uint64(ci)*7+uint64(m), 99))
			counts := map[string]int{}
			deadline := time.Now().Add(90 * time.Second)
			n := 0
			for time.Now().Before(deadline) {
				n++
				src := gen.Generate(r, cfg)
				p, err := prog.ParseProgram(fmt.Sprintf("sweep-%d", n), []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				agree, report, cv, ov := diffTest(p, m, Robustness, DiffBudget{MaxStates: 500_000, OracleNodes: 300_000, Timeout: 20 * time.Second})
				if !agree {
					t.Fatalf("%s\n%s", report, src)
				}
				counts["checker "+cv.String()]++
				counts["oracle "+ov.String()]++
			}
			t.Logf("shape %d %v: %d programs %v", ci, m, n, counts)
		}
	}
}
