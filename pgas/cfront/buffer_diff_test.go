package cfront_test

// The collapse law through the front end: random small C programs with a
// symmetric buffer b and a private buffer s of n elements (n = N+1..N+3),
// moved by puts, gets, loops, constant-index accesses and printf, beside
// a flag that carries control (puts, stores, a test, a wait, fences,
// quiets). Each is decided twice: translated for N (the buffers shrunk to
// min(length, N) per interval) and translated for no N (full size). The
// verdicts must agree, and where the oracle finishes on the full-size
// program, it must agree too.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

var cbufCount = flag.Int("cbuf.count", 0, "programs of TestBufferCollapseC (0: the suite's size)")

// cbufStep writes one random step of a PE: b and s have n elements, the
// PEs are 0..ranks-1.
func cbufStep(r *rand.Rand, n, ranks int) string {
	k := r.IntN(ranks)
	switch r.IntN(17) {
	case 14:
		return fmt.Sprintf("memcpy(s, b, %d * sizeof(long));", n)
	case 15:
		return fmt.Sprintf("memset(b, 0, %d * sizeof(long));", n)
	case 0:
		return fmt.Sprintf("shmem_long_put(b, s, %d, %d);", n, k)
	case 1:
		return fmt.Sprintf("shmem_long_put_nbi(b, s, %d, %d);", n, k)
	case 2:
		return fmt.Sprintf("shmem_long_get(s, b, %d, %d);", n, k)
	case 3:
		return fmt.Sprintf("for (int i = 0; i < %d; i++) s[i] = i + 1;", n)
	case 4:
		return fmt.Sprintf("for (int i = 0; i < %d; i++) b[i] = 1;", n)
	case 5:
		return fmt.Sprintf("for (int i = %d; i >= 0; i--) printf(\"%%d %%ld\\n\", i, b[i]);", n-1)
	case 6:
		return "printf(\"%ld\\n\", b[0]);"
	case 7:
		return fmt.Sprintf("b[%d] = 2;", n-1)
	case 8:
		return fmt.Sprintf("shmem_long_p(&flag, 1, %d);", k)
	case 9:
		return "flag = 1;"
	case 10:
		return "if (flag == 0) return 0;"
	case 11:
		return "shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);"
	case 12:
		return "shmem_fence();"
	case 13:
		return "shmem_quiet();"
	}
	return fmt.Sprintf("shmem_long_put_nbi(&b[1], &s[1], %d, %d);", n-1, k)
}

// cbufProgram is a program for ranks PEs with buffers of n elements; the
// same seed gives the same steps for every n. With heap, b is from
// shmem_malloc and s from malloc.
func cbufProgram(seed uint64, ranks, n int, heap bool) string {
	r := rand.New(rand.NewPCG(seed, 33))
	var b strings.Builder
	b.WriteString("#include <shmem.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n")
	if !heap {
		fmt.Fprintf(&b, "static long b[%d];\n", n)
	}
	b.WriteString("static long flag;\nint main(void) {\n  shmem_init();\n  int me = shmem_my_pe();\n")
	if heap {
		fmt.Fprintf(&b, "  long *b = shmem_malloc(%d * sizeof(long));\n  long *s = malloc(%d * sizeof(long));\n", n, n)
	} else {
		fmt.Fprintf(&b, "  long s[%d];\n", n)
	}
	for pe := 0; pe < ranks; pe++ {
		fmt.Fprintf(&b, "  if (me == %d) {\n", pe)
		for i := 2 + r.IntN(3); i > 0; i-- {
			fmt.Fprintf(&b, "    %s\n", cbufStep(r, n, ranks))
		}
		b.WriteString("  }\n")
	}
	b.WriteString("  shmem_finalize();\n  return 0;\n}\n")
	return b.String()
}

// cbufVerdict is the verdict word of a decision, "" when there is none.
func cbufVerdict(r *cycles.Result, err error) string {
	if err != nil || r == nil {
		return ""
	}
	switch r.Verdict {
	case cycles.Robust, cycles.NotRobust, cycles.RunError:
		return r.Verdict.String()
	}
	return ""
}

func shrunk(p *pgas.Program) bool {
	for _, a := range p.Assumptions {
		if a.ID == "buffer-collapse" {
			return true
		}
	}
	return false
}

// TestBufferCollapseC: with the buffers static and private arrays, or
// blocks of shmem_malloc and malloc (half the seeds); collapsed and full-size decisions agree, and agree
// with the oracle on the full-size program where it finishes.
func TestBufferCollapseC(t *testing.T) {
	count := 16
	if testing.Short() {
		count = 8
	}
	if *cbufCount > 0 {
		count = *cbufCount
	}
	var collapsed, oracled int
	verdicts := map[string]int{}
	for seed := uint64(0); seed < uint64(count); seed++ {
		ranks := 2
		if *cbufCount > 0 && seed%4 == 3 {
			ranks = 3 // one in four at N = 3 in a long run
		}
		n := ranks + 1 + int(seed%3)
		src := []byte(cbufProgram(seed, ranks, n, seed%4 >= 2))
		small, err := cfront.Compile("buf.c", src, cfront.Options{N: ranks})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		full, err := cfront.Compile("buf.c", src, cfront.Options{})
		if err != nil {
			t.Fatalf("seed %d (full): %v\n%s", seed, err, src)
		}
		if !shrunk(small) {
			continue
		}
		collapsed++
		opt := cycles.Options{Jobs: 1, Timeout: time.Minute}
		a, ok := agreeReduced(t, caseName("collapsed vs full size", seed, ranks, n), small, full, ranks, opt, string(src))
		if a == "" {
			continue
		}
		verdicts[a]++
		if *cbufCount > 0 {
			t.Logf("seed %d, N = %d, n = %d: %s", seed, ranks, n, a)
		}
		if ok {
			oracled++
		}
	}
	t.Logf("%d programs, %d collapsed, %d checked by the oracle, verdicts %v", count, collapsed, oracled, verdicts)
	if collapsed < count/2 {
		t.Errorf("only %d of %d programs collapsed: the family does not test the law", collapsed, count)
	}
}

// Message passing with a 10-element payload, PE 1 reading only data[9]
// after the flag: without a fence the payload's delivery of data[9] may
// come after the flag's, which PE 1 has seen (a cycle: NOT ROBUST, as
// examples/shmem/mp-none.c); with shmem_fence() between the put and the
// flag the deliveries are ordered (ROBUST, as mp-fence.c). The collapsed
// program (data[0..1] and data[9] kept at N = 2) gives both verdicts, and
// its cells are named by their C indices.
func TestBufferMessagePassing(t *testing.T) {
	for _, c := range []struct {
		fence  string
		robust bool
	}{{"", false}, {"shmem_fence();", true}} {
		src := `#include <shmem.h>
#include <stdio.h>
static long data[10];
static long flag;
int main(void) {
  int me = shmem_my_pe();
  long src[10];
  if (me == 0) {
    shmem_long_put(data, src, 10, 1);
    ` + c.fence + `
    shmem_long_p(&flag, 1, 1);
  }
  if (me == 1) {
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    printf("%ld\n", data[9]);
  }
  return 0;
}
`
		p, err := cfront.Compile("mp.c", []byte(src), cfront.Options{N: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !shrunk(p) || !strings.Contains(strings.Join(p.Addrs, " "), "data[9]") {
			t.Fatalf("want data shrunk with data[9] kept: %v", p.Addrs)
		}
		r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
		if err != nil || (r.Verdict == cycles.Robust) != c.robust || (r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust) {
			t.Errorf("fence %q: got %v %v, want robust = %v", c.fence, r.Verdict, err, c.robust)
		}
	}
}
