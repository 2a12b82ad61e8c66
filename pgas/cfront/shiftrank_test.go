package cfront_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// shiftProgram checks, on each PE, values of shifts and bitwise operators
// whose amount or mask is computed from the PE (shiftrank.go) against
// values computed by hand in another way: want = 2^me by a loop. Each
// check stores to chk[3 * wrong], which is outside chk (a run-time error
// of the translation) exactly when a value differs from C's. WRONG is
// replaced by 0 in the test and by 1 in its control, where the first
// check must fail: so the checks are live.
const shiftProgram = `#include <shmem.h>

long flags;

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int n = shmem_n_pes();
  long chk[3] = {0};
  long want = 1;
  for (int i = 0; i < me; i++)
    want = want * 2;
  chk[3 * ((1 << me) != want + WRONG)] = 1;
  chk[3 * ((want * 4) >> me != 4)] = 1;
  chk[3 * ((1L << n) / 2 >> (n - 1) != 1)] = 1;
  shmem_long_atomic_or(&flags, 1L << me, 0);
  shmem_barrier_all();
  long g = shmem_long_g(&flags, 0);
  chk[3 * (g != (1L << n) - 1)] = 1;
  chk[3 * ((g & (1L << me)) == 0)] = 1;
  chk[3 * ((g ^ (1L << me)) != g - want)] = 1;
  chk[3 * ((g | (1L << me)) != g)] = 1;
  chk[3 * ((g >> me) % 2 != 1)] = 1;
  shmem_finalize();
  return 0;
}
`

// The hand argument for ROBUST: the ors are atomics on PE 0 that
// shmem_barrier_all completes (it quiets first) before any PE reads
// flags, so every computation is equivalent to one where the ors come
// first; no check fails, so there is no run-time error.
func TestRankShiftValues(t *testing.T) {
	for _, c := range []struct {
		wrong string
		want  cycles.Verdict
	}{{"0", cycles.Robust}, {"1", cycles.RunError}} {
		src := strings.Replace(shiftProgram, "WRONG", c.wrong, 1)
		for _, n := range []int{2, 3, 4} {
			p, err := cfront.Compile("s.c", []byte(src), cfront.Options{N: n})
			if err != nil {
				t.Fatalf("WRONG=%s N=%d: %v", c.wrong, n, err)
			}
			r, err := decideWidened(p, n, cycles.Options{})
			if err != nil || r.Verdict != c.want {
				t.Errorf("WRONG=%s N=%d: got %v (%v), want %v", c.wrong, n, r.Verdict, err, c.want)
			}
		}
	}
}

// A shift whose amount is undefined on one PE only (32 for an int) is a
// run-time error there; an amount beyond the checker's values (2^32) is
// refused by name; without N the amount is unknown (ErrNeedsN).
func TestRankShiftLimits(t *testing.T) {
	prog := func(shift string) []byte {
		return []byte("#include <shmem.h>\nlong x;\nint main(void) {\n  shmem_init();\n  int me = shmem_my_pe();\n  long v = " + shift + ";\n  shmem_long_p(&x, v, 0);\n  shmem_finalize();\n  return 0;\n}\n")
	}
	p, err := cfront.Compile("u.c", prog("1 << (32 * me)"), cfront.Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := decideWidened(p, 2, cycles.Options{}); err != nil || r.Verdict != cycles.RunError {
		t.Errorf("1 << 32 on PE 1: got %v (%v), want a run-time error", r.Verdict, err)
	}
	if _, err := cfront.Compile("b.c", prog("1L << (40 * me)"), cfront.Options{N: 2}); err == nil || !strings.Contains(err.Error(), "shift by 40 on PE 1: beyond the checker's values") {
		t.Errorf("1L << 40: want the refusal by name, got %v", err)
	}
	if _, err := cfront.Compile("n.c", prog("1L << me"), cfront.Options{}); !errors.Is(err, cfront.ErrNeedsN) {
		t.Errorf("without N: want ErrNeedsN, got %v", err)
	}
	if _, err := cfront.Compile("r.c", prog("1L << x"), cfront.Options{N: 2}); err == nil || !strings.Contains(err.Error(), "shift by a computed amount (<<)") {
		t.Errorf("amount read from memory: want the refusal, got %v", err)
	}
}
