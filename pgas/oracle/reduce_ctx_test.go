package oracle_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestReduceAgainstNaiveCtx checks the reduction of reduce_ctx.go on the
// random OpenSHMEM programs of TestAgainstNaiveCtx (loop-free ones: the
// naive walk needs an event bound on loops, under which the reduced and
// the full exploration stop at different places), with and without
// chained put-with-signal, against the naive enumeration of every prefix,
// and the commuting-updates conflict relation (entry 14) of the reduced
// exploration against the unreduced one.
func TestReduceAgainstNaiveCtx(t *testing.T) {
	rng := progbuild.NewRand(*naiveSeed + 135)
	count := *naiveCount
	if testing.Short() {
		count = min(count, 60)
	}
	compared, violating, withErr, fewer := 0, 0, 0, 0
	for i := 0; i < count; i++ {
		build := progbuild.RandomCtx
		if i%3 == 2 {
			build = progbuild.RandomCtxChain
		}
		p := build(rng, 2+rng.IntN(4), false, i%5 == 0)
		n := 1 + rng.IntN(3)
		nv := &naive{m: pgas.NewMachine(p, n), budget: 20_000}
		nv.walk(nv.m.Initial(), nil)
		if nv.gaveUp {
			continue
		}
		b := oracle.Bounds{Timeout: 20 * time.Second, Reduce: true}
		res := oracle.Explore(p, n, b)
		if res.Err != nil || !res.Complete && res.Violation == nil {
			t.Fatalf("program %d: %v, complete %v (%s)\n%v", i, res.Err, res.Complete, res.Truncated, p)
		}
		if (res.Violation != nil) != nv.violates {
			t.Fatalf("program %d, N=%d: reduced oracle violation %v, naive %v\n%v", i, n, res.Violation != nil, nv.violates, p)
		}
		if !nv.violates && (res.RangeErr != nil) != nv.rangeErr {
			t.Fatalf("program %d, N=%d: reduced oracle range error %v, naive %v\n%v", i, n, res.RangeErr, nv.rangeErr, p)
		}
		b.Reduce = false
		full := oracle.Explore(p, n, b)
		if res.Explored < full.Explored {
			fewer++
		}
		b.Commuting = true
		fullC := oracle.Explore(p, n, b)
		b.Reduce = true
		redC := oracle.Explore(p, n, b)
		agree(t, fmt.Sprintf("program %d (commuting)\n%v\n", i, p), n, fullC, redC)
		compared++
		if nv.violates {
			violating++
		}
		if nv.rangeErr {
			withErr++
		}
	}
	t.Logf("compared %d programs: %d violating, %d with range errors; the reduction expanded fewer states in %d", compared, violating, withErr, fewer)
	if compared < count/2 || violating == 0 || violating == compared || withErr == 0 || fewer == 0 {
		t.Errorf("the sample does not exercise both verdicts, range errors and the reduction")
	}
}

// TestReduceCtxLoops compares the reduced and the unreduced exploration
// (no event bound: the memo closes the loops) on looping random
// OpenSHMEM programs, both conflict relations.
func TestReduceCtxLoops(t *testing.T) {
	rng := progbuild.NewRand(*naiveSeed + 136)
	count := min(*naiveCount, 60) // an unfinished exploration costs its 5,000 states
	if testing.Short() {
		count = 20
	}
	compared, violating := 0, 0
	for i := 0; i < count; i++ {
		p := progbuild.RandomCtxChain(rng, 2+rng.IntN(4), true, false)
		n := 1 + rng.IntN(3)
		for _, comm := range []bool{false, true} {
			b := oracle.Bounds{MaxNodes: 5_000, Timeout: 2 * time.Second, Commuting: comm}
			full := oracle.Explore(p, n, b)
			b.Reduce = true
			red := oracle.Explore(p, n, b)
			if !agree(t, fmt.Sprintf("program %d (commuting %v)\n%v\n", i, comm, p), n, full, red) {
				continue
			}
			compared++
			if full.Violation != nil {
				violating++
			}
		}
	}
	t.Logf("compared %d explorations: %d violating", compared, violating)
	if compared < count/2 || violating == 0 || violating == compared {
		t.Errorf("the sample does not exercise both verdicts")
	}
}

// TestReduceCtxHand runs the reduced exploration, with both conflict
// relations, on hand-analysed context programs at N = 2 (shmem_test.go)
// and on message passing whose consumer loads the flag without waiting:
// rank 1 puts one to data and then to flag of rank 2 on one context,
// rank 2 loads flag, then data. Without a fence it is NOT ROBUST:
// popb_f -cf-> load_f -po-> load_d -cf-> popb_d ↔ put_d -po-> put_f ↔
// popb_f, when flag is read as 1 and data as 0; that needs flag's popb
// before rank 2's first load, so a reduction that took rank 2's loads
// alone while the popbs to its cells are pending would miss it. With a
// fence, data's popb precedes flag's, so load_f after popb_f and load_d
// before popb_d cannot both hold: ROBUST.
func TestReduceCtxHand(t *testing.T) {
	mpLoad := func(name string, fence bool) *pgas.Program {
		b := shmemBuilder(name)
		prod := []pgas.Cmd{b.Store("one", "1"), b.PutNbi("one", "2", "data", "c")}
		if fence {
			prod = append(prod, b.Fence("c"))
		}
		prod = append(prod, b.PutNbi("one", "2", "flag", "c"))
		return roles(b, prod, []pgas.Cmd{b.Load("r", "flag"), b.Load("r", "data")})
	}
	for _, c := range []struct {
		p      *pgas.Program
		robust bool
	}{
		{mpLoad("mp-load", false), false}, {mpLoad("mp-load-fence", true), true},
		{shmemMP("mp", false), false}, {shmemMP("mp-fence", true), true},
		{fenceOtherPE("fence-pe", false), false}, {fenceOtherPE("quiet-pe", true), true},
	} {
		for _, comm := range []bool{false, true} {
			res := oracle.Explore(c.p, 2, oracle.Bounds{Timeout: 20 * time.Second, Reduce: true, Commuting: comm})
			if res.Err != nil || !res.Complete && res.Violation == nil {
				t.Fatalf("%s: %v (%s)", c.p.Name, res.Err, res.Truncated)
			}
			if (res.Violation == nil) != c.robust {
				t.Errorf("%s (commuting %v): robust %v, want %v", c.p.Name, comm, res.Violation == nil, c.robust)
			}
		}
	}
}
