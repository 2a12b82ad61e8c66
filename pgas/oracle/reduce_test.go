package oracle_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

var reduceCount = flag.Int("reduce.count", 0, "random programs TestReduceAgrees compares (0: 150, or 600 with PGASROB_FULL=1)")

// decisive reports whether an exploration answered: a violation, or a
// complete search (robust, or a run-time error).
func decisive(r oracle.Result) bool { return r.Violation != nil || r.Complete }

// agree compares the unreduced exploration (the reference) with the
// reduced one: when both answered, the verdict must be the same, and so
// must the reachability of a run-time error when there is no violation.
func agree(t *testing.T, name string, n int, full, red oracle.Result) bool {
	t.Helper()
	if full.Err != nil || red.Err != nil {
		t.Fatalf("%s N=%d: errors %v / %v", name, n, full.Err, red.Err)
	}
	if !decisive(full) || !decisive(red) {
		return false
	}
	if (full.Violation != nil) != (red.Violation != nil) {
		t.Fatalf("%s N=%d: violation without reduction %v, with %v", name, n, full.Violation != nil, red.Violation != nil)
	}
	if full.Violation == nil && (full.RangeErr != nil) != (red.RangeErr != nil) {
		t.Fatalf("%s N=%d: run-time error without reduction %v, with %v", name, n, full.RangeErr, red.RangeErr)
	}
	return true
}

// TestReduceAgrees checks the reduction of reduce.go verdict for verdict
// against the unreduced exploration on random programs of pgas/gen (the
// difftest generator: waits, get/put/waitq, barriers, remote operations;
// half of them may loop) at N = 1..3 (-reduce.count 2000 for the run
// recorded in docs/design.md).
func TestReduceAgrees(t *testing.T) {
	count := *reduceCount
	if count == 0 {
		count = sized(100, 600)
	}
	if testing.Short() {
		count = min(count, 150)
	}
	compared, violating, fewer := 0, 0, 0
	for i := 0; i < count; i++ {
		r := rand.New(rand.NewPCG(uint64(i), 28))
		c := gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4 + r.IntN(3), Loops: i%2 == 1}
		src := gen.Generate(r, c).String()
		p, err := pgas.Compile(fmt.Sprintf("gen%d.pgas", i), []byte(src))
		if err != nil {
			t.Fatalf("program %d does not compile: %v\n%s", i, err, src)
		}
		n := 1 + i%3
		b := oracle.Bounds{MaxNodes: 200_000, Timeout: 20 * time.Second}
		full := oracle.Explore(p, n, b)
		b.Reduce = true
		red := oracle.Explore(p, n, b)
		if !agree(t, fmt.Sprintf("program %d\n%s\n", i, src), n, full, red) {
			continue
		}
		compared++
		if full.Violation != nil {
			violating++
		}
		if red.Explored < full.Explored {
			fewer++
		}
	}
	t.Logf("compared %d of %d programs: %d violating; the reduction expanded fewer states in %d", compared, count, violating, fewer)
	if compared < count/2 || violating == 0 || violating == compared || fewer == 0 {
		t.Errorf("the sample does not exercise both verdicts and the reduction")
	}
}

// TestReduceExamples compares both explorations on the examples and the
// issue-28 families at N = 2 and 3 (their verdicts are argued in the
// files' headers and checked by cycles' tests).
func TestReduceExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.pgas")
	more, _ := filepath.Glob("../../examples/n4/*.pgas")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	top := sized(2, 3) // N = 3 on every example is two minutes of the suite
	if testing.Short() {
		top = 2
	}
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= top; n++ {
			b := oracle.Bounds{MaxNodes: 2_000_000}
			full := oracle.Explore(p, n, b)
			b.Reduce = true
			red := oracle.Explore(p, n, b)
			if !agree(t, f, n, full, red) {
				t.Fatalf("%s N=%d: undecided (%s / %s)", f, n, full.Truncated, red.Truncated)
			}
			t.Logf("%s N=%d: violation %v, states %d -> %d", filepath.Base(f), n, full.Violation != nil, full.Explored, red.Explored)
		}
	}
}

// TestReduceAgainstNaive compares the reduced exploration with the naive
// enumeration of naive_test.go on random loop-free programs of progbuild
// (the reduction is off under the event bound the looping ones need).
func TestReduceAgainstNaive(t *testing.T) {
	rng := progbuild.NewRand(*naiveSeed + 28)
	count := *naiveCount
	if testing.Short() {
		count = min(count, 50)
	}
	compared, violating := 0, 0
	for i := 0; i < count; i++ {
		p := progbuild.Random(rng, 2+rng.IntN(2), false, i%3 == 0)
		n := 1 + rng.IntN(3)
		nv := &naive{m: pgas.NewMachine(p, n), budget: 20_000}
		nv.walk(nv.m.Initial(), nil)
		if nv.gaveUp {
			continue
		}
		res := oracle.Explore(p, n, oracle.Bounds{Timeout: 20 * time.Second, Reduce: true})
		if res.Err != nil || !res.Complete && res.Violation == nil {
			t.Fatalf("program %d: %v, complete %v (%s)\n%v", i, res.Err, res.Complete, res.Truncated, p)
		}
		if (res.Violation != nil) != nv.violates {
			t.Fatalf("program %d, N=%d: reduced oracle violation %v, naive %v\n%v", i, n, res.Violation != nil, nv.violates, p)
		}
		if !nv.violates && (res.RangeErr != nil) != nv.rangeErr {
			t.Fatalf("program %d, N=%d: reduced oracle range error %v, naive %v\n%v", i, n, res.RangeErr, nv.rangeErr, p)
		}
		compared++
		if nv.violates {
			violating++
		}
	}
	t.Logf("compared %d programs: %d violating", compared, violating)
	if compared < count/2 || violating == 0 || violating == compared {
		t.Errorf("the sample does not exercise both verdicts")
	}
}

// spinner: rank 1 flips a register forever (its steps are always ample,
// and they lead back to states already seen), ranks 2 and 3 write x into
// each other's y and load their own y, the store-buffering shape, which
// is NOT ROBUST: load2 ->cf [W3] ->po load3 ->cf [W2] ->po load2, with
// both loads before both popbs.
// Without the cycle proviso the reduced exploration would only ever
// move rank 1 and miss the violation.
const spinner = `values 2
address x, y
register r
queue q
    if rank == 1 goto SPIN
    mem[x] <- 1
    write(x, 5 - rank, y, q)
    r <- mem[y]
    goto END
SPIN:
    r <- 1 - r; goto SPIN
END:
`

// TestReduceProviso checks the cycle proviso on spinner.
func TestReduceProviso(t *testing.T) {
	p, err := pgas.Compile("spinner.pgas", []byte(spinner))
	if err != nil {
		t.Fatal(err)
	}
	for _, red := range []bool{false, true} {
		o := oracle.Explore(p, 3, oracle.Bounds{Reduce: red})
		if o.Err != nil || o.Violation == nil {
			t.Fatalf("reduce %v: err %v, violation %v, complete %v", red, o.Err, o.Violation != nil, o.Complete)
		}
	}
}
