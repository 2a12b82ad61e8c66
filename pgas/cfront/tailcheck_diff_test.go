package cfront_test

// The dead-check law through the front end: random programs of the
// family of TestBufferCollapseC (a symmetric buffer b and a private buffer
// s of n elements, a flag that carries control) followed by the checks a
// test program ends with (loops comparing b with constants or with s and
// counting or printing, sums checked at the end, barriers between, a
// final stop). Each is decided with the law (translated for N: checks
// dead, buffers collapsed) and without it (every comparison evaluated,
// full size); the verdicts must agree, and the oracle on the program
// without the law must agree where it finishes.

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

var deadCount = flag.Int("dead.count", 0, "programs of TestDeadCheckLaw (0: the suite's size)")

// deadTail writes one item of the checks at the end of main.
func deadTail(r *rand.Rand, n int) string {
	switch r.IntN(8) {
	case 0:
		return fmt.Sprintf("for (int i = 0; i < %d; i++) if (b[i] != %d) { printf(\"%%d %%ld\\n\", i, b[i]); failed = 1; }", n, 1+r.IntN(2))
	case 1:
		return fmt.Sprintf("for (int i = %d; i >= 0; i--) if (b[i] != s[i]) failed++;", n-1)
	case 2:
		return fmt.Sprintf("if (b[%d] != 2) errors++;", r.IntN(n))
	case 3:
		return "if (flag != 1) { fprintf(stderr, \"flag %ld\\n\", flag); failed = 1; }"
	case 4:
		return fmt.Sprintf("for (int i = 0; i < %d; i++) sum += b[i];", n)
	case 5:
		return "shmem_barrier_all();"
	case 6:
		return fmt.Sprintf("if (b[0] + b[%d] != sum) errors += 2;", n-1)
	}
	if r.IntN(2) == 0 {
		return fmt.Sprintf("for (j = 0; j < %d; j++) if (b[j] != 1) failed = 1;", n)
	}
	return "if (sum != 3) failed = 1;"
}

// deadStep is a step of cbufStep, or of the forms the tests-sos unit
// tests add: put-with-signal, a wait on the signal, a loop on a counter
// shared with a loop of checks.
func deadStep(r *rand.Rand, n, ranks int) string {
	switch r.IntN(8) {
	case 0:
		return fmt.Sprintf("shmem_long_put_signal(b, s, %d, &sig, 1, SHMEM_SIGNAL_SET, %d);", n, r.IntN(ranks))
	case 1:
		return "shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);"
	case 2:
		return fmt.Sprintf("for (j = 0; j < %d; j++) shmem_long_p(&flag, 1, j);", ranks)
	}
	return cbufStep(r, n, ranks)
}

// deadProgram is a program of the family: the steps of cbufProgram per
// PE, then 2 to 4 checks for every PE and maybe a final stop.
func deadProgram(seed uint64, ranks, n int) string {
	r := rand.New(rand.NewPCG(seed, 18))
	var b strings.Builder
	b.WriteString("#include <shmem.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n")
	heap := r.IntN(2) == 0
	if !heap {
		fmt.Fprintf(&b, "static long b[%d];\n", n)
	}
	b.WriteString("static long flag;\nstatic uint64_t sig;\nint main(void) {\n  int failed = 0, errors = 0, j;\n  long sum = 0;\n")
	if heap {
		b.WriteString("  long *b;\n")
	}
	fmt.Fprintf(&b, "  shmem_init();\n  int me = shmem_my_pe();\n  long s[%d];\n  for (int i = 0; i < %d; i++) s[i] = 1;\n", n, n)
	if heap {
		fmt.Fprintf(&b, "  b = (long *) shmem_calloc(%d, sizeof(long));\n  if (!b) { fprintf(stderr, \"no memory\\n\"); shmem_global_exit(1); }\n", n)
	}
	for pe := 0; pe < ranks; pe++ {
		fmt.Fprintf(&b, "  if (me == %d) {\n", pe)
		for i := 2 + r.IntN(3); i > 0; i-- {
			fmt.Fprintf(&b, "    %s\n", deadStep(r, n, ranks))
		}
		b.WriteString("  }\n")
	}
	if r.IntN(2) == 0 {
		b.WriteString("  shmem_barrier_all();\n") // the checks read after every put is delivered
	}
	for i := 2 + r.IntN(3); i > 0; i-- {
		fmt.Fprintf(&b, "  %s\n", deadTail(r, n))
	}
	switch r.IntN(3) {
	case 0:
		b.WriteString("  if (failed || errors) shmem_global_exit(1);\n")
	case 1:
		fmt.Fprintf(&b, "  if (b[%d] != 1) { printf(\"bad %%ld\\n\", b[%d]); exit(2); }\n", n-1, n-1)
	}
	b.WriteString("  shmem_finalize();\n  return failed + errors;\n}\n")
	return b.String()
}

// TestDeadCheckLaw: with the law and without it, the verdicts agree, and
// agree with the oracle on the program without the law where it
// finishes.
func TestDeadCheckLaw(t *testing.T) {
	count := 10
	if testing.Short() {
		count = 5
	}
	if *deadCount > 0 {
		count = *deadCount
	}
	var used, oracled int
	verdicts := map[string]int{}
	for seed := uint64(0); seed < uint64(count); seed++ {
		ranks := 2
		if *deadCount > 0 && seed%4 == 3 {
			ranks = 3
		}
		n := ranks + 1 + int(seed%2)
		src := []byte(deadProgram(seed, ranks, n))
		law, err := cfront.Compile("dead.c", src, cfront.Options{N: ranks})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		plain, err := cfront.Compile("dead.c", src, cfront.Options{NoDeadChecks: true})
		if err != nil {
			t.Fatalf("seed %d (without the law): %v\n%s", seed, err, src)
		}
		if !deadUsed(law) {
			continue
		}
		used++
		opt := cycles.Options{Jobs: 1, Timeout: 30 * time.Second}
		a, ok := agreeReduced(t, caseName("with the law vs without", seed, ranks, n), law, plain, ranks, opt, string(src))
		if a == "" {
			continue
		}
		verdicts[a]++
		if *deadCount > 0 {
			t.Logf("seed %d, N = %d, n = %d: %s (collapsed %v)", seed, ranks, n, a, shrunk(law))
		}
		if ok {
			oracled++
		}
	}
	t.Logf("%d programs, %d used the law, %d checked by the oracle, verdicts %v", count, used, oracled, verdicts)
	if used < count/2 {
		t.Errorf("only %d of %d programs used the law: the family does not test it", used, count)
	}
}
