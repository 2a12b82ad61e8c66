package cfront_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// bitsProgram: every PE clears its bit of every PE's x (all bits set at
// the start, of type ty) with an atomic and, then, when the condition
// cond holds on x, runs message passing without a fence (PE 0 stores
// data then the flag on PE 1; PE 1 waits for the flag and reads data).
func bitsProgram(ty, cond string) string {
	return `#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
static ` + ty + ` x = ~(` + ty + `)0;
static long data, flag;
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  for (int i = 0; i < shmem_n_pes(); i++)
    shmem_atomic_and(&x, ~(` + ty + `)(1LLU << me), i);
  shmem_barrier_all();
  if (` + cond + `) {
    if (me == 0) { shmem_long_p(&data, 1, 1); shmem_long_p(&flag, 1, 1); }
    if (me == 1) { shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1); printf("%ld\n", data); }
  }
  shmem_finalize();
  return 0;
}
`
}

// TestUnsignedBitPatterns: at N = 2, x ends as ~(T)3 on every PE (bits
// 0 and 1 cleared), in C's unsigned arithmetic of 32 and 64 bits. When
// the condition holds, the unfenced message passing runs: NOT ROBUST (as
// examples/shmem/mp-none.c: the two puts to PE 1 are unordered); when it
// fails nothing is communicated after the barrier: ROBUST. A wrong value
// of x (C's 2^64 - 4 against another number) would swap the verdicts.
func TestUnsignedBitPatterns(t *testing.T) {
	for _, c := range []struct {
		ty, cond string
		robust   bool
	}{
		{"uint64_t", "x == ~(uint64_t)3", false},
		{"uint64_t", "x != ~(uint64_t)3", true},
		{"unsigned int", "x == ~(unsigned int)3", false},
		{"unsigned int", "x == 0xFFFFFFFCu", false},
		{"unsigned int", "(x ^ ~0u) == 3u", false},
		{"unsigned int", "(x & 1u) != 0", true},
		{"uint64_t", "(uint32_t)x == 0xFFFFFFFCu", false},
		{"uint64_t", "(int64_t)x == -4", false},
	} {
		p, err := cfront.Compile("bits.c", []byte(bitsProgram(c.ty, c.cond)), cfront.Options{N: 2})
		if err != nil {
			t.Errorf("%s, %s: %v", c.ty, c.cond, err)
			continue
		}
		r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
		if err != nil || (r.Verdict == cycles.Robust) != c.robust || (r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust) {
			t.Errorf("%s, %s: got %v %v, want robust = %v", c.ty, c.cond, r.Verdict, err, c.robust)
		}
	}
}

// TestUnsignedBitPatternsRefused: a pattern meeting an operation where
// C's unsigned value and the two's complement reading differ keeps ~
// refused, naming that use.
func TestUnsignedBitPatternsRefused(t *testing.T) {
	for _, c := range []struct{ ty, cond, want string }{
		{"uint64_t", "x > 5", "x > 5"},
		{"uint64_t", "x / 2 == 1", "x / 2"},
		{"uint64_t", "(x >> 1) == 1", "x >> 1"},
		{"unsigned int", "(uint64_t)x == 1", "meets (uint64_t)x"},
		{"unsigned int", "x + 1 == 0", "x + 1"},
		{"uint64_t", "shmem_uint64_atomic_fetch(&x, 0) < 3", "< 3"},
	} {
		_, err := cfront.Compile("bits.c", []byte(bitsProgram(c.ty, c.cond)), cfront.Options{N: 2})
		if err == nil || !strings.Contains(err.Error(), "bit pattern") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, %s: want ~ refused naming %q, got %v", c.ty, c.cond, c.want, err)
		}
	}
	// a pattern stored into a struct member, whose loads are not followed
	src0 := strings.Replace(bitsProgram("uint64_t", "s.f > 5"), "  shmem_barrier_all();\n", "  shmem_barrier_all();\n  struct { uint64_t f; } s;\n  s.f = x;\n", 1)
	if _, err := cfront.Compile("bits.c", []byte(src0), cfront.Options{N: 2}); err == nil || !strings.Contains(err.Error(), "member of a struct") {
		t.Errorf("struct member: want the refusal naming the store into s.f, got %v", err)
	}
	// the address kept in a pointer: loads through it are not followed
	src := strings.Replace(bitsProgram("uint64_t", "*q == 0"), "  shmem_barrier_all();\n", "  shmem_barrier_all();\n  uint64_t *q = &x;\n", 1)
	if _, err := cfront.Compile("bits.c", []byte(src), cfront.Options{N: 2}); err == nil || !strings.Contains(err.Error(), "address (&x)") {
		t.Errorf("pointer to x: want the refusal naming &x, got %v", err)
	}
}

// TestUnsignedBitPatternsDiff: random programs of bitwise atomics on an
// unsigned x (all bits set at the start), with tests of x for equality
// that steer message passing, decided with x unsigned (read as bit
// patterns) and with x of the signed type of the same width (whose ~,
// &, |, ^ and == C defines on the same bits, and which the translation
// had before): the verdicts must agree.
func TestUnsignedBitPatternsDiff(t *testing.T) {
	count := 12
	if testing.Short() {
		count = 6
	}
	ops := []string{"and", "or", "xor"}
	seen := map[string]int{}
	for seed := 0; seed < count; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 35))
		var body strings.Builder
		for i := 1 + r.IntN(2); i > 0; i-- {
			fmt.Fprintf(&body, "  shmem_atomic_%s(&x, ~(T)(%dLLU << me), %d);\n", ops[r.IntN(3)], 1+r.IntN(3), r.IntN(2))
		}
		cond := fmt.Sprintf("x == ~(T)%d", r.IntN(16))
		if r.IntN(2) == 0 {
			cond = fmt.Sprintf("(x & (T)%d) != 0", 1+r.IntN(15))
		}
		src := `#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#define T TYPE
static T x = ~(T)0;
static long data, flag;
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
` + body.String() + `  shmem_barrier_all();
  if (` + cond + `) {
    if (me == 0) { shmem_long_p(&data, 1, 1); shmem_long_p(&flag, 1, 1); }
    if (me == 1) { shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1); printf("%ld\n", data); }
  }
  shmem_barrier_all();
  return 0;
}
`
		for _, pair := range [][2]string{{"uint64_t", "int64_t"}, {"unsigned int", "int"}} {
			var verdicts [2]string
			for k, ty := range pair {
				p, err := cfront.Compile("bits.c", []byte(strings.Replace(src, "TYPE", ty, 1)), cfront.Options{N: 2})
				if err != nil {
					t.Fatalf("seed %d, %s: %v\n%s", seed, ty, err, src)
				}
				verdicts[k] = cbufVerdict(decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute}))
			}
			if verdicts[0] == "" || verdicts[0] != verdicts[1] {
				t.Errorf("seed %d: %s %s, %s %s\n%s", seed, pair[0], verdicts[0], pair[1], verdicts[1], src)
			}
			seen[verdicts[0]]++
		}
	}
	t.Logf("verdicts %v", seen)
	if len(seen) < 2 {
		t.Errorf("one verdict only (%v): the family does not test the values", seen)
	}
}
