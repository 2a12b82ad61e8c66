package cfront_test

// Hand-argued tests of the dead-check law (docs/deviations.md, entry 18):
// the law keeps the loads of a check, so a bug whose only evidence is the
// final check stays NOT ROBUST; and each shape outside the law keeps
// today's translation.

import (
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

func deadUsed(p *pgas.Program) bool {
	for _, a := range p.Assumptions {
		if a.ID == "dead-checks" {
			return true
		}
	}
	return false
}

// mpCheck is message passing of a 10-element payload, PE 1 checking every
// element after the flag and counting failures; fence is put between the
// payload and the flag, check is the check of element i.
func mpCheck(fence, check string) string {
	return `#include <shmem.h>
#include <stdio.h>
static long data[10];
static long flag;
int main(void) {
  int failed = 0;
  shmem_init();
  int me = shmem_my_pe();
  long src[10];
  for (int i = 0; i < 10; i++) src[i] = 1;
  shmem_barrier_all();
  if (me == 0) {
    shmem_long_put(data, src, 10, 1);
    ` + fence + `
    shmem_long_p(&flag, 1, 1);
  }
  if (me == 1) shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
  for (int i = 0; i < 10; i++) {
    ` + check + `
  }
  shmem_finalize();
  return failed;
}
`
}

// TestDeadCheckMessagePassing: without a fence the payload's delivery to
// data[k] may follow the flag's, which PE 1 has seen; PE 1's check loads
// data[k] after the wait, so the load, the flag's delivery and the payload
// form the message-passing cycle (NOT ROBUST, as examples/shmem/mp-none.c)
// whatever the check does with the value; with shmem_fence() the payload
// is delivered first (ROBUST). The checks' values are dead, the buffers
// collapse, and the verdicts stay, for a check that re-reads the element
// to print it (clause (b)) and for one that only counts.
func TestDeadCheckMessagePassing(t *testing.T) {
	for _, check := range []string{
		`if (data[i] != src[i]) { fprintf(stderr, "%d: %ld, expected %ld\n", i, data[i], src[i]); failed = 1; }`,
		`if (data[i] != 1) failed++;`,
	} {
		for _, c := range []struct {
			fence  string
			robust bool
		}{{"", false}, {"shmem_fence();", true}} {
			p, err := cfront.Compile("mp.c", []byte(mpCheck(c.fence, check)), cfront.Options{N: 2})
			if err != nil {
				t.Fatal(err)
			}
			if !deadUsed(p) || !shrunk(p) {
				t.Fatalf("%s: want the law used and data collapsed: %v", check, p.Assumptions)
			}
			r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
			if err != nil || (r.Verdict == cycles.Robust) != c.robust || (r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust) {
				t.Errorf("%s, fence %q: got %v %v, want robust = %v", check, c.fence, r.Verdict, err, c.robust)
			}
		}
	}
}

// TestDeadCheckStoreBuffering: the trailing check loads alone make the
// cycle. PE 0 stores x then loads y in its check, PE 1 stores y then
// loads x: both loads may read 0 (the stores are local to their PE but
// remote puts from the other side arrive late): NOT ROBUST with the law,
// because the loads are kept.
func TestDeadCheckStoreBuffering(t *testing.T) {
	src := `#include <shmem.h>
#include <stdio.h>
static long x, y;
int main(void) {
  int errors = 0;
  shmem_init();
  int me = shmem_my_pe();
  if (me == 0) shmem_long_p(&x, 1, 1);
  if (me == 1) shmem_long_p(&y, 1, 0);
  if (me == 0 && y != 1) errors++;
  if (me == 1 && x != 1) errors++;
  shmem_finalize();
  return errors;
}
`
	// "me == 0 && y != 1" loads y only on PE 0: a short circuit over a
	// load, outside the law; written as two statements it is inside.
	p, err := cfront.Compile("sb.c", []byte(src), cfront.Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if deadUsed(p) {
		t.Errorf("a short circuit over a load must keep the check")
	}
	src2 := strings.Replace(strings.Replace(src, "if (me == 0 && y != 1) errors++;", "if (me == 0) { if (y != 1) errors++; }", 1),
		"if (me == 1 && x != 1) errors++;", "if (me == 1) { if (x != 1) errors++; }", 1)
	for _, s := range []string{src, src2} {
		p, err := cfront.Compile("sb.c", []byte(s), cfront.Options{N: 2})
		if err != nil {
			t.Fatal(err)
		}
		r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
		if err != nil || r.Verdict != cycles.NotRobust {
			t.Errorf("law used %v: got %v %v, want NOT ROBUST", deadUsed(p), r.Verdict, err)
		}
	}
	p2, _ := cfront.Compile("sb.c", []byte(src2), cfront.Options{N: 2})
	if p2 == nil || !deadUsed(p2) {
		t.Errorf("the nested checks are dead: want the law used")
	}
}

// TestDeadCheckFinalStop: a stop in the last check of main's outer block
// truncates no memory event (clause (a)): the law applies and message
// passing without a fence stays NOT ROBUST. A stop inside the loop of
// checks would skip the loads of the later iterations: the law does not
// apply there.
func TestDeadCheckFinalStop(t *testing.T) {
	final := strings.Replace(mpCheck("", `if (data[i] != 1) failed = 1;`),
		"  shmem_finalize();", "  if (failed) shmem_global_exit(1);\n  shmem_finalize();", 1)
	p, err := cfront.Compile("stop.c", []byte(final), cfront.Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !deadUsed(p) || !shrunk(p) {
		t.Fatalf("want the law used and data collapsed: %v", p.Assumptions)
	}
	r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
	if err != nil || r.Verdict != cycles.NotRobust {
		t.Errorf("got %v %v, want NOT ROBUST", r.Verdict, err)
	}
	inLoop := mpCheck("", `if (data[i] != 1) shmem_global_exit(1);`)
	p, err = cfront.Compile("stop.c", []byte(inLoop), cfront.Options{N: 2})
	if err == nil && deadUsed(p) {
		t.Errorf("a stop inside the loop of checks must keep the check")
	}
}

// TestDeadCheckOutside: shapes of clause (c) keep the check.
func TestDeadCheckOutside(t *testing.T) {
	for _, c := range []struct{ name, check, after string }{
		{"branch writes shared memory", `if (data[i] != 1) shmem_long_p(&flag, 2, 0);`, ""},
		{"branch waits", `if (data[i] != 1) shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);`, ""},
		{"counter reaches control", `if (data[i] != 1) failed = 1;`, "if (failed) shmem_long_p(&flag, 2, 0);"},
		{"value reaches an address", `if (data[i] != 1) failed = data[i];`, "data[failed % 10] = 0;"},
		{"branch reads another shared cell", `if (data[i] != 1) printf("%ld\n", flag);`, ""},
		{"stop before later loads", `if (data[i] != 1) exit(1);`, ""},
		{"stop whose status loads by the counter", `if (data[i] != 1) failed = 1;`, "if (failed) shmem_global_exit(data[failed]);"},
		{"goto after a final stop", `if (data[i] != 1) failed = 1;`, "again: if (failed) abort();\n  if (me == 5) goto again;"},
	} {
		src := strings.Replace(mpCheck("", c.check), "  shmem_finalize();", "  "+c.after+"\n  shmem_finalize();", 1)
		p, err := cfront.Compile("c.c", []byte(src), cfront.Options{N: 2})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if deadUsed(p) {
			t.Errorf("%s: the law must not apply\n%s", c.name, src)
		}
	}
}

// TestDeadCheckMiddle: a check that only prints and counts is inside the
// law in the middle of a program too (clause (b) and the rest of the proof
// never use the end; only a stop does). After the checks PE 1 clears the
// payload between two barriers: the first barrier completes PE 0's put,
// so the clearing stores add no cycle; the verdicts are those of the
// message passing before them (NOT ROBUST without the fence, ROBUST with
// it), and the translation without the law (values compared, at full
// size with a 3-element payload) gives the same.
func TestDeadCheckMiddle(t *testing.T) {
	for _, c := range []struct {
		fence  string
		robust bool
	}{{"", false}, {"shmem_fence();", true}} {
		src := strings.Replace(mpCheck(c.fence, `if (data[i] != src[i]) { printf("%ld\n", data[i]); failed++; }`),
			"  shmem_finalize();", "  shmem_barrier_all();\n  for (int k = 0; k < 10; k++) data[k] = 0;\n  shmem_barrier_all();\n  shmem_finalize();", 1)
		for _, off := range []bool{false, true} {
			if off {
				src = strings.ReplaceAll(src, "10", "3")
			}
			p, err := cfront.Compile("mid.c", []byte(src), cfront.Options{N: 2, NoDeadChecks: off})
			if err != nil {
				t.Fatal(err)
			}
			if deadUsed(p) == off {
				t.Errorf("law off %v: the law used %v", off, deadUsed(p))
			}
			r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
			if err != nil || (r.Verdict == cycles.Robust) != c.robust || (r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust) {
				t.Errorf("fence %q, law off %v: got %v %v, want robust = %v", c.fence, off, r.Verdict, err, c.robust)
			}
		}
	}
}
