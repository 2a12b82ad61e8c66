package cycles

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// checkBy runs the run-time error check on src at N = n with reduction
// how, within a budget the tests never reach.
func checkBy(t *testing.T, src string, n int, how errReduction) (*RuntimeError, automata.Stats, *normalform.Y) {
	t.Helper()
	p, err := pgas.Compile("test.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	y := mustY(t, p, n)
	rerr, st, why := findRuntimeErrorBy(context.Background(), y, Options{Jobs: 1, MaxStates: 1_000_000}, automata.DefaultMaxBytes, how)
	if why != "" {
		t.Fatalf("budget: %s", why)
	}
	return rerr, st, y
}

// window: rank 1 loops forever, working on a register and then raising
// and lowering its x; every other rank gets rank 1's x once and uses the
// value it got, times 3, as an offset of a store. Hand argument: the store
// is out of range (address y + 3 = 4; x, y and get's hidden $sync are all
// there is) exactly when the get falls
// between rank 1's "mem[x] <- 1" and "mem[x] <- 0" in some round of the
// loop: one interleaving window of a loop, on every run reachable (rank 1
// can always be stopped there). With the two rounds of x raised and
// lowered, the states of rank 1 all lie on the loop, so reduce.go's
// reducer never takes it alone; reduce_err.go takes its register work
// alone, which must not lose the window.
const window = `program window
values 4
address x, y
register t, v
queue q
    if rank != 1 goto R
W:  t <- 3 - t
    t <- 3 - t
    mem[x] <- 1
    mem[x] <- 0
    goto W
R:  get(y, 1, x, q)
    v <- mem[y]
    mem[y + v + v + v] <- 0
`

// TestRuntimeCheckLoopWindow: the error of window, reachable only in one
// interleaving window of rank 1's loop, is found with the reduction, on
// a path that reaches it, with fewer states than without it and than with
// reduce.go's reducer.
func TestRuntimeCheckLoopWindow(t *testing.T) {
	for n := 2; n <= 3; n++ {
		errNew, stNew, y := checkBy(t, window, n, errLoops)
		errAll, stAll, _ := checkBy(t, window, n, errNone)
		_, stOld, _ := checkBy(t, window, n, errAcyclic)
		if errNew == nil || errAll == nil {
			t.Fatalf("N = %d: the error of the window is reachable; reduced found it: %v, unreduced: %v", n, errNew != nil, errAll != nil)
		}
		if !reaches(y, errNew.Path) {
			t.Fatalf("N = %d: the reduced check's computation does not reach a run-time error: %v", n, errNew.Path)
		}
		if stNew.States >= stOld.States || stNew.States >= stAll.States {
			t.Fatalf("N = %d: states with the loop-aware reduction %d, reduce.go's %d, unreduced %d: no reduction in the loop", n, stNew.States, stOld.States, stAll.States)
		}
		t.Logf("N = %d: %d states reduced, %d with reduce.go's reducer, %d unreduced", n, stNew.States, stOld.States, stAll.States)
	}
}

// ignoring: rank 1 spins forever on a register, which touches no cell;
// every other rank stores to address 0 + 1 of one: a run-time error on
// every run, reachable only by moving a rank other than 1. Without the
// cycle proviso rank 1 is always alone (independent, never at a barrier)
// and the check goes round its loop only: the error is lost.
const ignoring = `program ignoring
values 2
address x
register t
    if rank != 1 goto R
W:  t <- 1 - t
    goto W
R:  t <- 1
    mem[x + t] <- 0
`

// TestRuntimeCheckProviso: the cycle proviso of reduce_err.go is what
// keeps the error of ignoring; the mutant without it loses it (so this
// test fails if the proviso is dropped from the default).
func TestRuntimeCheckProviso(t *testing.T) {
	for n := 2; n <= 3; n++ {
		if e, _, _ := checkBy(t, ignoring, n, errLoops); e == nil {
			t.Fatalf("N = %d: the loop-aware reduction lost the run-time error behind rank 1's loop", n)
		}
		if e, _, _ := checkBy(t, ignoring, n, errNone); e == nil {
			t.Fatalf("N = %d: the unreduced check misses the run-time error", n)
		}
		if e, _, _ := checkBy(t, ignoring, n, errNoProviso); e != nil {
			t.Fatalf("N = %d: without the proviso the check still finds the error: the test no longer tells them apart", n)
		}
	}
}

// partAlone: rank N takes a barrier over {N} alone, then makes an atomic
// update whose target, rank % 3, is rank 0 for rank 3: a run-time error at
// N = 3 in every computation in which rank 3 gets that far. Found by
// TestRuntimeCheckReducedShmem (seed 1, program 437) against a reduction
// that cut rank 3's future at that barrier as at a barrier over every
// rank: the others' moves then looked independent of everything rank 3
// does after it, and the error was lost.
const partAlone = `values 3
address x, y
register r0
queue q0
context c0
    if rank == N {
        barrier {N}
    }
    r0 <- mem[x] when r0 >= 0
    quiet c0
    amo_add(rank % 3, (rank % N) + 1, y, c0)
    r0 <- mem[x]
    mem[y + r0] <- 1
`

// TestRuntimeCheckPartBarrier: a barrier over part of the ranks does not
// cut the futures of the ranks outside it (fullBarriers in reduce_err.go).
func TestRuntimeCheckPartBarrier(t *testing.T) {
	if e, _, _ := checkBy(t, partAlone, 3, errNone); e == nil {
		t.Fatal("the unreduced check misses rank 3's run-time error")
	}
	if e, _, _ := checkBy(t, partAlone, 3, errLoops); e == nil {
		t.Fatal("the loop-aware reduction lost rank 3's run-time error after its barrier over {3}")
	}
}

var (
	rterrCount = flag.Int("rterr.count", 0, "random OpenSHMEM programs for TestRuntimeCheckReducedShmem (0: 300, 100 with -short)")
	rterrSeed  = flag.Uint64("rterr.seed", 2026, "seed of TestRuntimeCheckReducedShmem")
)

// TestRuntimeCheckReducedShmem: on random OpenSHMEM programs (contexts,
// puts, gets, fences, quiets, atomics, signals, awaits; loops in half of
// them), the loop-aware reduction finds a run-time error exactly when the
// unreduced check does, and its computation reaches it. As in
// TestRuntimeCheckReduced, a tail whose store goes out of range unless
// the first address holds 0 makes errors depend on the interleaving. A
// third of them have barriers over part of the ranks, which must not cut
// the futures of the ranks outside them (fullBarriers).
func TestRuntimeCheckReducedShmem(t *testing.T) {
	count := *rterrCount
	if count == 0 {
		count = 300
		if testing.Short() {
			count = 100
		}
	}
	r := rand.New(rand.NewPCG(*rterrSeed, 35))
	found, clean, skipped, reduced, full := 0, 0, 0, int64(0), int64(0)
	for i := 0; i < count; i++ {
		cfg := gen.Config{Addrs: 2 + r.IntN(2), Values: 2 + r.IntN(2), Regs: 1 + r.IntN(2), Cmds: 3 + r.IntN(5),
			Loops: i%2 == 0, RangeErrors: true, Shmem: true, Atomics: i%4 == 1, SubsetBarriers: i%3 == 2}
		gp := gen.Generate(r, cfg)
		src := gp.String() + fmt.Sprintf("    %s <- mem[%s]\n    mem[%s + %s] <- 1\n", gp.Regs[0], gp.Addrs[0], gp.Addrs[len(gp.Addrs)-1], gp.Regs[0])
		p, err := pgas.Compile("rand.pgas", []byte(src))
		if err != nil {
			t.Fatalf("generated program does not compile: %v\n%s", err, src)
		}
		for n := 2; n <= 3; n++ {
			y, err := normalform.New(p, n)
			if err != nil {
				skipped++
				continue
			}
			opt := Options{Jobs: 1, MaxStates: 200_000}
			errRed, stRed, whyRed := findRuntimeErrorBy(context.Background(), y, opt, automata.DefaultMaxBytes, errLoops)
			errAll, stAll, whyAll := findRuntimeErrorBy(context.Background(), y, opt, automata.DefaultMaxBytes, errNone)
			if whyRed != "" || whyAll != "" {
				skipped++
				continue // a budget: no evidence
			}
			reduced += stRed.States
			full += stAll.States
			if (errRed != nil) != (errAll != nil) {
				t.Fatalf("program %d, N = %d: reduced check found an error: %v, unreduced: %v\n%s", i, n, errRed != nil, errAll != nil, src)
			}
			if errRed == nil {
				clean++
				continue
			}
			found++
			if !reaches(y, errRed.Path) {
				t.Fatalf("program %d, N = %d: the reduced check's computation does not reach a run-time error\n%s", i, n, src)
			}
		}
	}
	if found < count/10 || clean < count/10 {
		t.Fatalf("%d decisions with a run-time error, %d without: too few of one kind for the comparison to mean much", found, clean)
	}
	t.Logf("%d with a run-time error, %d without, %d skipped; %d states reduced, %d unreduced", found, clean, skipped, reduced, full)
}

// TestRuntimeCheckRealC: on the realistic C programs of
// examples/shmem/real and the halo kernel, at N = 2 and 3, with the value
// domain the front end infers (whose first check may meet a value that
// leaves it: decide then widens), the loop-aware reduction finds a
// run-time error exactly when the unreduced check does, and its
// computation reaches it. Checks the unreduced one cannot finish within
// its budget are skipped (most at N = 3; the log counts them).
func TestRuntimeCheckRealC(t *testing.T) {
	files, _ := filepath.Glob("../examples/shmem/real/*.c")
	files = append(files, "../examples/shmem/kernels/halo.c")
	compared, skipped, top := 0, 0, 3
	if testing.Short() {
		top = 2
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= top; n++ {
			p, err := cfront.Compile(f, src, cfront.Options{N: n})
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			y := mustY(t, p, n)
			opt := Options{Jobs: 1, MaxStates: 100_000}
			errRed, _, whyRed := findRuntimeErrorBy(context.Background(), y, opt, automata.DefaultMaxBytes, errLoops)
			errAll, _, whyAll := findRuntimeErrorBy(context.Background(), y, opt, automata.DefaultMaxBytes, errNone)
			if whyRed != "" {
				t.Fatalf("%s, N = %d: the reduced check ran out of its budget: %s", f, n, whyRed)
			}
			if whyAll != "" {
				skipped++
				continue
			}
			compared++
			if (errRed != nil) != (errAll != nil) {
				t.Fatalf("%s, N = %d: reduced check found an error: %v, unreduced: %v", f, n, errRed, errAll)
			}
			if errRed != nil && !reaches(y, errRed.Path) {
				t.Fatalf("%s, N = %d: the reduced check's computation does not reach a run-time error", f, n)
			}
		}
	}
	t.Logf("%d checks compared, %d skipped (the unreduced check's budget)", compared, skipped)
}

// guardedChoice: rank 1 chooses between an await of its f (which rank 2
// sets to 1 with a put) and a register step that ends it; after the
// await, its store to address f + 3 is out of range (f and put's hidden
// $sync are all there is). Hand
// argument: the error is reachable (rank 2 puts, then rank 1 takes the
// await) and only on runs where rank 2's put comes before rank 1's choice.
// Rank 1's only enabled move at the choice touches no cell, so it is
// taken alone unless the disabled await's cell counts as rank 1's: that
// rule of reduce_err.go is what keeps the error.
const guardedChoice = `program guardedChoice
values 4
address f
register t, v
queue q
    if rank != 1 goto W
C:  v <- mem[f] when v == 1; goto E
C:  t <- 1; goto D
E:  mem[f + v + v + v] <- 0
    goto D
W:  if rank != 2 goto D
    mem[f] <- 1
    put(f, 1, f, q)
D:
`

// TestRuntimeCheckGuardedChoice: the error of guardedChoice is found
// with the reduction as without it.
func TestRuntimeCheckGuardedChoice(t *testing.T) {
	for n := 2; n <= 3; n++ {
		errNew, _, y := checkBy(t, guardedChoice, n, errLoops)
		errAll, _, _ := checkBy(t, guardedChoice, n, errNone)
		if errNew == nil || errAll == nil {
			t.Fatalf("N = %d: the error after the await is reachable; reduced found it: %v, unreduced: %v", n, errNew != nil, errAll != nil)
		}
		if !reaches(y, errNew.Path) {
			t.Fatalf("N = %d: the reduced check's computation does not reach a run-time error", n)
		}
	}
}
