package cfront_test

// The sharing of static cells (statics.go) against the program without
// it: random programs of 3 rounds, each a do { static long x<k> = v; … }
// while (0) block of steps on x<k> (stores, loads that steer control,
// puts, gets, atomics, nbi puts, fences, quiets, barriers, some of them
// on one PE only) and a global flag. The same program with the statics
// moved to file scope (the same C meaning; the plan only shares statics
// of main) keeps a cell per object. Both are decided; the verdicts must
// agree, and the oracle on the unshared program must agree where it
// finishes.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

var staticsCount = flag.Int("statics.count", 0, "programs of TestStaticsShareDiff (0: the suite's size)")

// staticsStep is one random step on x (the round's object), for 2 PEs.
func staticsStep(r *rand.Rand, x string) string {
	j, c := r.IntN(2), 1+r.IntN(2)
	switch r.IntN(14) {
	case 0, 1, 2:
		return "shmem_barrier_all();"
	case 3:
		return fmt.Sprintf("%s = %d;", x, c)
	case 4:
		return fmt.Sprintf("shmem_long_p(&%s, %d, %d);", x, c, j)
	case 5:
		return fmt.Sprintf("shmem_long_atomic_add(&%s, 1, %d);", x, j)
	case 6:
		return fmt.Sprintf("if (%s == %d) shmem_long_p(&flag, 1, %d);", x, c, j)
	case 7:
		return fmt.Sprintf("if (shmem_long_g(&%s, %d) == %d) rc = 1;", x, j, c)
	case 8:
		return "shmem_quiet();"
	case 9:
		return fmt.Sprintf("shmem_long_put_nbi(&%s, &%s, 1, %d);", x, x, j)
	case 10:
		return "shmem_fence();"
	case 11:
		return fmt.Sprintf("if (flag == 1) %s = %d;", x, c)
	case 12:
		return fmt.Sprintf("rc += shmem_long_atomic_fetch(&%s, %d);", x, j)
	}
	return fmt.Sprintf("printf(\"%%ld\\n\", %s);", x)
}

// staticsPrograms is the program with the statics in their blocks, and
// at file scope.
func staticsPrograms(seed uint64) (string, string) {
	r := rand.New(rand.NewPCG(seed, 34))
	var body, globals strings.Builder
	for k := 0; k < 3; k++ {
		x := fmt.Sprintf("x%d", k)
		decl := fmt.Sprintf("static long %s = %d;", x, r.IntN(2)*2)
		fmt.Fprintf(&globals, "%s\n", decl)
		fmt.Fprintf(&body, "  do {\n    @%d@\n", k)
		for i := 2 + r.IntN(4); i > 0; i-- {
			s := staticsStep(r, x)
			if r.IntN(3) == 0 && !strings.HasPrefix(s, "shmem_barrier_all") {
				s = fmt.Sprintf("if (me == %d) { %s }", r.IntN(2), s)
			}
			fmt.Fprintf(&body, "    %s\n", s)
		}
		body.WriteString("  } while (0);\n")
	}
	head := "#include <shmem.h>\n#include <stdio.h>\nstatic long flag;\n"
	main := "int main(void) {\n  shmem_init();\n  int me = shmem_my_pe();\n  long rc = 0;\n" + body.String() + "  shmem_finalize();\n  return 0;\n}\n"
	inBlocks, atFile := main, main
	for k, d := range strings.Split(globals.String(), "\n")[:3] {
		inBlocks = strings.Replace(inBlocks, fmt.Sprintf("@%d@", k), d, 1)
		atFile = strings.Replace(atFile, fmt.Sprintf("@%d@", k), "", 1)
	}
	return head + inBlocks, head + globals.String() + atFile
}

// TestStaticsShareDiff: shared and unshared translations decide alike,
// and like the oracle.
func TestStaticsShareDiff(t *testing.T) {
	count := 40
	if testing.Short() {
		count = 20
	}
	if *staticsCount > 0 {
		count = *staticsCount
	}
	var shared, oracled int
	verdicts := map[string]int{}
	for seed := uint64(0); seed < uint64(count); seed++ {
		a, b := staticsPrograms(seed)
		pa, err := cfront.Compile("s.c", []byte(a), cfront.Options{N: 2})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, a)
		}
		pb, err := cfront.Compile("g.c", []byte(b), cfront.Options{N: 2})
		if err != nil {
			t.Fatalf("seed %d (file scope): %v\n%s", seed, err, b)
		}
		if len(pa.Addrs) >= len(pb.Addrs) {
			continue
		}
		shared++
		opt := cycles.Options{Jobs: 1, Timeout: time.Minute}
		va, ok := agreeReduced(t, fmt.Sprintf("shared vs unshared, seed %d", seed), pa, pb, 2, opt, a)
		if va == "" {
			continue
		}
		verdicts[va]++
		if ok {
			oracled++
		}
	}
	t.Logf("%d programs, %d shared, %d checked by the oracle, verdicts %v", count, shared, oracled, verdicts)
	if shared < count/3 {
		t.Errorf("only %d of %d programs share a cell: the family does not test the plan", shared, count)
	}
}
