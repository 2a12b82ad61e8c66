package oracle_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestCommutingLitmus runs the oracle under both conflict relations on
// the litmus programs of examples/commuting, whose headers argue each
// verdict by hand (docs/deviations.md, entry 14).
func TestCommutingLitmus(t *testing.T) {
	for _, c := range commuteLitmusFiles(t, "../../examples/commuting") {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			p, err := pgas.Compile(c.file, c.src)
			if err != nil {
				t.Fatal(err)
			}
			for _, comm := range []bool{false, true} {
				res := oracle.Explore(p, 2, oracle.Bounds{Commuting: comm})
				if res.Err != nil || !res.Complete || res.RangeErr != nil {
					t.Fatalf("commuting=%v: err %v, complete %v, range %v", comm, res.Err, res.Complete, res.RangeErr)
				}
				want := c.strictRobust
				if comm {
					want = c.robust
				}
				if got := res.Violation == nil; got != want {
					t.Errorf("commuting=%v: robust %v, want %v", comm, got, want)
				}
				if res.Violation != nil && comm && !pgas.HappensBeforeCommuting(p, res.Violation).Violating() {
					t.Errorf("the violation is not violating under cf_c")
				}
			}
		})
	}
}

// TestAgainstNaiveCommuting compares Explore with Bounds.Commuting and the
// naive enumeration that tests every prefix with pgas.HappensBeforeCommuting
// (the definition of cf_c) on random programs full of non-fetching
// atomics on one cell (gen.Config.Atomics). The summary of
// summary_commute.go is the only place where the oracle reads cf_c.
func TestAgainstNaiveCommuting(t *testing.T) {
	count := min(*naiveCount, 100) // -naive.count raises it above 100 only when asked
	if *naiveCount > 200 {
		count = *naiveCount
	}
	if testing.Short() {
		count = min(count, 40)
	}
	compared, violating, differs := 0, 0, 0
	for i := 0; i < count; i++ {
		r := rand.New(rand.NewPCG(uint64(i), 41))
		cfg := gen.Config{Addrs: 2, Values: []int{2, 3, 4}[r.IntN(3)], Regs: 1, Queues: 1, Cmds: 2 + r.IntN(3),
			Shmem: true, Atomics: true}
		src := gen.Generate(r, cfg).String()
		p, err := pgas.Compile("comm.pgas", []byte(src))
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, src)
		}
		n := 2 + r.IntN(2)
		nv := &naive{m: pgas.NewMachine(p, n), budget: 30_000, comm: p}
		nv.walk(nv.m.Initial(), nil)
		if nv.gaveUp {
			continue
		}
		res := oracle.Explore(p, n, oracle.Bounds{Commuting: true, Timeout: 20 * time.Second})
		if res.Err != nil || !res.Complete {
			t.Fatalf("program %d: %v (complete %v)\n%s", i, res.Err, res.Complete, src)
		}
		if (res.Violation != nil) != nv.violates {
			t.Fatalf("program %d, N=%d: oracle violation %v, naive %v\n%s", i, n, res.Violation, nv.violates, src)
		}
		compared++
		if nv.violates {
			violating++
		}
		if strict := oracle.Explore(p, n, oracle.Bounds{Timeout: 20 * time.Second}); (strict.Violation != nil) != nv.violates {
			differs++
		}
	}
	t.Logf("compared %d programs: %d violating under cf_c, %d with another verdict under cf", compared, violating, differs)
	if compared < count/2 || violating == 0 || violating == compared || differs == 0 {
		t.Errorf("the sample does not exercise both verdicts and the difference of the relations")
	}
}
