package cfront_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// roundsProgram is main with one `do { static long x = init; body }
// while (0)` block per round; body is printf-style with %[1]d for the
// round's number (the object is x<k>).
func roundsProgram(rounds int, init int, body string) string {
	var b strings.Builder
	b.WriteString("#include <shmem.h>\n#include <stdio.h>\nstatic long flag;\nint main(void) {\n  shmem_init();\n  int me = shmem_my_pe();\n  int rc = 0;\n")
	for k := 0; k < rounds; k++ {
		fmt.Fprintf(&b, "  do {\n    static long x%d = %d;\n", k, init)
		fmt.Fprintf(&b, body, k)
		b.WriteString("  } while (0);\n")
	}
	b.WriteString("  shmem_finalize();\n  return rc;\n}\n")
	return b.String()
}

// addRound is the shape of tests-sos's atomic tests: reset, barrier,
// every PE adds to every PE's copy, barrier, check.
const addRound = `    x%[1]d = 0;
    shmem_barrier_all();
    for (int i = 0; i < shmem_n_pes(); i++) shmem_long_atomic_add(&x%[1]d, me + 1, i);
    shmem_barrier_all();
    if (x%[1]d != 3) rc = 1;
`

func compileC(t *testing.T, src string, n int) *pgas.Program {
	t.Helper()
	p, err := cfront.Compile("rounds.c", []byte(src), cfront.Options{N: n})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return p
}

// TestStaticsShareCells: 70 rounds of the atomic-add shape need 70
// objects, beyond the 60 cells; their uses are separated by barrier_all
// points, so one cell holds them all. ROBUST at N = 2 by hand: within a
// round the only remote accesses are atomic adds, which each PE issues
// in the same order (PE 0's copy, then PE 1's), and the quiet of the
// barrier delivers them all before the check; two adds to one copy
// conflict, but a cycle would need a PE's later add to reach an earlier
// one of its own, and the local store and load are ordered with every
// add by the barriers.
func TestStaticsShareCells(t *testing.T) {
	p := compileC(t, roundsProgram(70, 0, addRound), 2)
	if countPrefix(p.Addrs, "x") != 1 {
		t.Fatalf("want the 70 statics in one cell, got addresses %v", p.Addrs)
	}
	o := exploreWidened(p, 2, oracle.Bounds{MaxQueue: 8, MaxNodes: 2_000_000, Timeout: time.Minute})
	if o.Err != nil || o.Violation != nil || !o.Complete {
		t.Fatalf("oracle: %v, violation %v, complete %v; want ROBUST", o.Err, o.Violation != nil, o.Complete)
	}
}

// TestStaticsNotShared: shapes where the uses of two rounds are not
// separated (or not followed), so each static keeps its own cell.
func TestStaticsNotShared(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		// one barrier between the rounds' adds: the first round's adds
		// may still be in flight when the second round's copy would have
		// to be set (with a third round, x0 and x2 are two barriers
		// apart and share a cell)
		{"no barrier after", "    shmem_barrier_all();\n    shmem_long_atomic_add(&x%[1]d, 1, 1 - me);\n"},
		// the address is kept in a pointer
		{"pointer", "    long *q = &x%[1]d;\n    shmem_barrier_all();\n    shmem_long_atomic_add(q, 1, 1 - me);\n    shmem_barrier_all();\n"},
		// a barrier under a condition: the barrier points of the PEs may
		// not be the same steps (the plan is dropped)
		{"conditional barrier", "    shmem_barrier_all();\n    shmem_long_atomic_add(&x%[1]d, 1, 1 - me);\n    if (me == 0) shmem_barrier_all();\n    shmem_barrier_all();\n"},
		// a break leaves the block early: it is one point
		{"break", "    shmem_barrier_all();\n    shmem_long_atomic_add(&x%[1]d, 1, 1 - me);\n    if (me == 5) break;\n    shmem_barrier_all();\n"},
	} {
		p := compileC(t, roundsProgram(2, 0, c.body), 2)
		if n := countPrefix(p.Addrs, "x"); n != 2 {
			t.Errorf("%s: want 2 cells for the statics, got %v", c.name, p.Addrs)
		}
	}
	// a function of the file named shmem_barrier_all is no barrier (the
	// plan checks that each of its barrier points emitted one)
	src := strings.Replace(roundsProgram(2, 0, addRound), "static long flag;", "static long flag;\nvoid shmem_barrier_all(void) { }", 1)
	if p := compileC(t, src, 2); countPrefix(p.Addrs, "x") != 2 {
		t.Errorf("user's shmem_barrier_all: want 2 cells for the statics, got %v", p.Addrs)
	}
}

// TestStaticsOtherContext: an operation on a context barrier_all does
// not quiet may be pending after the barrier: the plan is dropped.
func TestStaticsOtherContext(t *testing.T) {
	src := `#include <shmem.h>
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  shmem_ctx_t ctx;
  shmem_ctx_create(0, &ctx);
  do { static long a; shmem_barrier_all(); shmem_ctx_long_atomic_add(ctx, &a, 1, 1 - me); shmem_barrier_all(); } while (0);
  do { static long b; shmem_barrier_all(); shmem_long_atomic_add(&b, 1, 1 - me); shmem_barrier_all(); } while (0);
  shmem_finalize();
  return 0;
}
`
	p := compileC(t, src, 2)
	if !slices.Contains(p.Addrs, "a") || !slices.Contains(p.Addrs, "b") {
		t.Fatalf("want a and b in their own cells, got %v", p.Addrs)
	}
}

// TestStaticsReset: the second round reads its object's initial value
// (5) before any store, so the shared cell is set to 5 at the gap, and
// the program keeps its verdict: ROBUST by hand, as each round's only
// remote access is PE 1's add to PE 0's copy, between two barriers, and
// PE 0 reads its copy after the second; the check never fails, so no
// control depends on a stale value.
func TestStaticsReset(t *testing.T) {
	body := `    shmem_barrier_all();
    if (x%[1]d != 5) rc = 1;
    if (me == 1) shmem_long_atomic_add(&x%[1]d, 1, 0);
    shmem_barrier_all();
    if (me == 0 && x%[1]d != 6) rc = 2;
`
	p := compileC(t, roundsProgram(2, 5, body), 2)
	if countPrefix(p.Addrs, "x") != 1 {
		t.Fatalf("want one cell, got %v", p.Addrs)
	}
	resets := 0
	for _, tr := range p.Trans {
		if strings.Contains(tr.Text, "the initial value of static x1") {
			resets++
		}
	}
	if resets == 0 {
		t.Fatalf("no reset of x1's initial value in the translation")
	}
	r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
	if err != nil || r.Verdict != cycles.Robust {
		t.Fatalf("got %v %v, want ROBUST", r.Verdict, err)
	}
}

// TestStaticsNotRobustKept: each round is message passing without a
// fence (PE 0 puts its copy's value to PE 1's copy, then raises PE 1's
// flag; PE 1 waits for the flag and reads its copy): NOT ROBUST, as
// examples/shmem/mp-none.c, the put and the flag being unordered. The
// shared cell keeps the verdict.
func TestStaticsNotRobustKept(t *testing.T) {
	body := `    shmem_barrier_all();
    if (me == 0) { x%[1]d = 1; shmem_long_put(&x%[1]d, &x%[1]d, 1, 1); shmem_long_p(&flag, %[1]d + 1, 1); }
    if (me == 1) { shmem_long_wait_until(&flag, SHMEM_CMP_EQ, %[1]d + 1); if (x%[1]d != 1) rc = 1; }
    shmem_barrier_all();
`
	p := compileC(t, roundsProgram(2, 0, body), 2)
	if countPrefix(p.Addrs, "x") != 1 {
		t.Fatalf("want one cell, got %v", p.Addrs)
	}
	r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
	if err != nil || r.Verdict != cycles.NotRobust {
		t.Fatalf("got %v %v, want NOT ROBUST", r.Verdict, err)
	}
}

func countPrefix(addrs []string, prefix string) int {
	n := 0
	for _, a := range addrs {
		if strings.HasPrefix(a, prefix) {
			n++
		}
	}
	return n
}
