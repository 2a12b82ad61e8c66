package cfront_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// convProgram: when cond holds on a PE after body, it runs its side of
// unfenced message passing (PE 0 puts data then flag to PE 1, PE 1 gets
// flag then data): NOT ROBUST when cond holds on PE 0 and PE 1 at N = 2
// (the two puts to PE 1 are unordered, as examples/shmem/mp-none.c),
// ROBUST when it holds on neither (nothing is communicated).
func convProgram(globals, body, cond string) string {
	return `#include <shmem.h>
#include <stdint.h>
#include <stddef.h>
static long data, flag;
` + globals + `
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
` + body + `
  if (` + cond + `) {
    if (me == 0) { shmem_long_p(&data, 1, 1); shmem_long_p(&flag, 1, 1); }
    if (me == 1) { long f = shmem_long_g(&flag, 1); long d = shmem_long_g(&data, 1); (void)f; (void)d; }
  }
  shmem_finalize();
  return 0;
}
`
}

// convOutcome translates and decides src at N = 2 as the command does and
// names the outcome: "robust", "not robust", "wrap" (the run-time error
// of a conversion C wraps around, conv.go), "refused: <message>", or
// anything else as it is.
func convOutcome(t *testing.T, src string) string {
	t.Helper()
	p, err := cfront.Compile("conv.c", []byte(src), cfront.Options{N: 2})
	if err != nil {
		return "refused: " + err.Error()
	}
	r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
	switch {
	case err != nil:
		return "error: " + err.Error()
	case r.Verdict == cycles.Robust:
		return "robust"
	case r.Verdict == cycles.NotRobust:
		return "not robust"
	case r.Verdict == cycles.RunError && r.RunError != nil:
		var re *pgas.RangeError
		if errors.As(r.RunError.Err, &re) {
			if msg, ok := cfront.GuardError(re.Val); ok && strings.Contains(msg, "unsigned type") {
				return "wrap"
			}
		}
		return "run-time error: " + r.RunError.Err.Error()
	}
	return fmt.Sprint(r.Verdict)
}

// TestConvWrongVerdict: `uint64_t y = s` with s = -1 gave ROBUST: y was
// -1 in the translation, so `y > 5` never held, where C's y is 2^64 - 1
// and the message passing runs (the signed twin, `int64_t y`, `y < 5`,
// is NOT ROBUST). 2^64 - 1 is beyond the checker's values: the
// conversion is now a run-time error at its line. `unsigned short x =
// ~(unsigned short)0` was -1 (~ of the promoted int); C's x is 65535.
func TestConvWrongVerdict(t *testing.T) {
	for _, c := range []struct{ body, cond, want string }{
		{"  int64_t s = me - me - 1;\n  uint64_t y = s;", "y > 5", "wrap"},
		{"  int64_t s = me - me - 1;\n  int64_t y = s;", "y < 5", "not robust"},
		{"  unsigned short x = ~(unsigned short)0;", "x == 65535", "not robust"},
		{"  unsigned short x = ~(unsigned short)0;", "x != 65535", "robust"},
	} {
		if got := convOutcome(t, convProgram("", c.body, c.cond)); got != c.want {
			t.Errorf("%s / %s: got %s, want %s", c.body, c.cond, got, c.want)
		}
	}
}

// TestConvSites: each place where C converts implicitly to an unsigned
// type, at N = 2 (me is 0 and 1). Each want is argued by hand from C's
// value on each PE: "not robust" when cond holds on both PEs, "robust"
// when on neither, "wrap" when C wraps a value beyond the checker's
// (the guard's run-time error, reached on some PE), "refused: …" when the
// translation refuses a constant.
func TestConvSites(t *testing.T) {
	for _, c := range []struct{ globals, body, cond, want string }{
		// initialisers: 7 and 8 convert to themselves
		{"", "  int64_t s = me + 7;\n  uint64_t y = s;", "y > 5", "not robust"},
		// narrowing: -2 and -1 are 254 and 255 in unsigned char
		{"", "  int s = me - 2;\n  unsigned char c = s;", "c > 200", "not robust"},
		{"", "  int s = me - 2;\n  unsigned char c = s;", "c < 200", "robust"},
		// 300 + me is 44 or 45 in unsigned char
		{"", "  unsigned char c;\n  c = 300 + me;", "c < 100", "not robust"},
		// a symmetric object's constant initialiser: 65536 + 3 is 3
		{"static unsigned short h = 65539;", "", "h == 3", "not robust"},
		{"static uint64_t g = -1;", "", "g > 5", "refused: the constant -1 converted to uint64_t"},
		// array elements: 257 is 1 in unsigned char, -1 is 65535 in unsigned short
		{"static unsigned char a[2] = {257, 3};", "", "a[0] == 1", "not robust"},
		{"", "  unsigned short l[2] = {-1, 0};\n  l[1] = 1;", "l[0] == 65535", "not robust"},
		// assignment of -3 or -2 to uint64_t: 2^64 - 3, beyond the checker
		{"", "  uint64_t y;\n  long s = me - 3;\n  y = s;", "y > 5", "wrap"},
		// a private cell's initialiser (its address is taken)
		{"", "  long s = me - 1;\n  uint32_t z = s;\n  uint32_t *q = &z; (void)q;", "z > 5", "wrap"},
		// compound assignment: 1 - 2 wraps in unsigned int; 0 - 1 is 255
		{"", "  unsigned int u = 1;\n  u -= 2;", "u > 5", "wrap"},
		{"", "  unsigned char c = 0;\n  c -= 1;", "c == 255", "not robust"},
		{"", "  uint64_t u = 10;\n  u += 2 * me;", "u >= 10", "not robust"},
		// <<= and |= with a negative constant: 200 << 1 is 144, 1 | -2 is 255 in unsigned char
		{"", "  unsigned char c = 200;\n  unsigned char d = 1;\n  c <<= 1;\n  d |= -2;", "c == 144 && d == 255", "not robust"},
		// unsigned int arithmetic reaching 2^32, which the checker holds and C makes 0
		{"", "  unsigned u = 4294967295u;\n  u++;", "u == 0", "not robust"},
		{"", "  unsigned u = 4294967295u;\n  u += 1;", "u == 0", "not robust"},
		{"", "  unsigned u = 2147483648u;\n  long r = u * 2u;", "r == 0", "not robust"},
		// ++ and --: 65535 + 1 is 0 in unsigned short; 0 - 1 wraps in size_t
		{"", "  unsigned short h = 65535;\n  h++;", "h == 0", "not robust"},
		{"", "  size_t n = 0;\n  n--;", "n > 5", "wrap"},
		{"", "  unsigned char c = me;\n  c--;", "c == 255 || c == 0", "not robust"},
		// arguments of the file's functions: me - 3 is negative
		{"static int big(uint64_t v) { return v > 5; }", "", "big(me - 3)", "wrap"},
		{"static int big(uint64_t v) { return v > 5; }", "", "big(me + 6)", "not robust"},
		{"static int low(unsigned char v) { return v == 255; }", "", "low(me - 256 - 1 + 1 - me)", "robust"},
		{"static int low(unsigned char v) { return v == 255; }", "", "low(me - me - 1)", "not robust"},
		// return values
		{"static uint64_t conv(long v) { return v; }", "", "conv(me - 3) > 5", "wrap"},
		{"static unsigned char conv(long v) { return v; }", "", "conv(me - 3) > 200", "not robust"},
		// usual arithmetic conversions: u + (me - 5) is unsigned, -3 or -2 exactly
		{"", "  unsigned int u = 2;\n  long r = u + (me - 5);", "r > 5", "wrap"},
		{"", "  unsigned int u = 2;\n  long r = u + (me + 5);", "r > 5", "not robust"},
		// C divides 10 by 2^32 - 2 and 2^32 - 1
		{"", "  unsigned u = 10;\n  int d = me - 2;", "u / d == 0", "wrap"},
		// comparisons: C compares -1 (on PE 0) as 2^32 - 1
		{"", "  int s = me - 1;\n  unsigned u = 0;", "s <= u", "wrap"},
		{"", "  int s = me + 1;\n  unsigned u = 0;", "s > u", "not robust"},
		{"", "  unsigned u = 3;", "u > -1", "refused: comparison of the negative constant -1"},
		// a case label is converted to the unsigned controlling type: -1 is 2^32 - 1
		{"", "  unsigned u = 4294967295u;\n  int hit = 0;\n  switch (u) { case -1: hit = 1; break; default: break; }", "hit", "not robust"},
		{"", "  uint64_t u = me;\n  int hit = 0;\n  switch (u) { case -1: hit = 1; break; default: break; }", "hit", "refused: the constant -1 converted to"},
		// a narrowing cast: me + 255 is 255 or 0 in unsigned char
		{"", "  int s = me + 255;", "(unsigned char)s == 255 * (1 - me)", "not robust"},
		// no bit pattern in the file: -1 returned as unsigned int is 2^32 - 1, which the checker holds
		{"static unsigned int m1(void) { return -1; }", "", "m1() > 5", "not robust"},
		// with a bit pattern in the file (4294967295u, its top bit set) the two readings would meet: refused
		{"static unsigned int m1(void) { return -1; }", "", "m1() == 4294967295u", "refused: the constant -1 converted to unsigned"},
		// a truth value is 0 or 1: no guard, the verdict of the value
		{"", "  int s = me - 1;\n  uint64_t ok = s < 0;", "ok == 1 - me", "not robust"},
		// ?: converts both arms to unsigned
		{"", "  unsigned u = 7;\n  long r = me < 5 ? u : me - 9;", "r > 5", "not robust"},
		{"", "  unsigned u = 7;\n  long r = me > 5 ? u : me - 9;", "r > 5", "wrap"},
		// an OpenSHMEM routine's unsigned parameter
		{"static uint64_t sig;", "  shmem_uint64_atomic_set(&sig, me - 1, 1);", "1", "wrap"},
		{"static uint64_t sig;", "  shmem_uint64_atomic_set(&sig, -1, 1);", "1", "refused: argument 2 of shmem_uint64_atomic_set"},
		{"static uint64_t sig;", "  shmem_atomic_set(&sig, me - 1, 1);", "1", "wrap"},
		{"static uint64_t sig;", "  shmem_atomic_set(&sig, me + 1, 1);", "1", "not robust"}, // no guard reached: the message passing runs
		// a bitwise operator with an unsigned result: (me - 1) | 1u wraps on PE 0
		{"", "  long r = (me - 1) | 1u;", "r > 5", "wrap"},
		{"", "  long r = (me + 2) | 1u;", "r < 5", "not robust"},
	} {
		got := convOutcome(t, convProgram(c.globals, c.body, c.cond))
		if got != c.want && !(strings.HasPrefix(c.want, "refused: ") && strings.HasPrefix(got, "refused: ") && strings.Contains(got, c.want[len("refused: "):])) {
			t.Errorf("%s | %s | %s: got %s, want %s", c.globals, c.body, c.cond, got, c.want)
		}
	}
}

// TestConvDiff: random programs over values known non-negative at N = 2
// (me plus constants, + and *, a comparison), decided once with uint64_t
// locals and once with their int64_t twin: C gives both the same values,
// so the verdicts must agree (and the unsigned one must not be refused).
// Also a value of either sign stored into an unsigned char, against its
// remainder modulo 256 computed in signed C: the same values again.
func TestConvDiff(t *testing.T) {
	count := 10
	if testing.Short() {
		count = 4
	}
	ops := []string{"+", "*"}
	seen := map[string]int{}
	for seed := 0; seed < count; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 33))
		body := fmt.Sprintf("  T a = me %s %d;\n  T b;\n  b = a %s %d;\n  b += %d;", ops[r.IntN(2)], r.IntN(4), ops[r.IntN(2)], 1+r.IntN(3), r.IntN(3))
		cond := fmt.Sprintf("b %s %d", []string{"<", ">", "==", "!="}[r.IntN(4)], r.IntN(8))
		u := convOutcome(t, convProgram("", strings.ReplaceAll(body, "T ", "uint64_t "), cond))
		s := convOutcome(t, convProgram("", strings.ReplaceAll(body, "T ", "int64_t "), cond))
		if u != s || (u != "robust" && u != "not robust") {
			t.Errorf("seed %d: %s / %s: unsigned %s, signed %s", seed, body, cond, u, s)
		}
		seen[u]++
		// narrowing to unsigned char of a value of either sign, against
		// the same remainder written in signed C
		e := fmt.Sprintf("me * %d - %d", 1+r.IntN(300), r.IntN(600))
		cond = fmt.Sprintf("c %s %d", []string{"<", ">", "=="}[r.IntN(3)], r.IntN(256))
		u = convOutcome(t, convProgram("", "  unsigned char c = "+e+";", cond))
		s = convOutcome(t, convProgram("", "  int c = (("+e+") % 256 + 256) % 256;", cond))
		if u != s || (u != "robust" && u != "not robust") {
			t.Errorf("seed %d: %s / %s: unsigned char %s, signed %s", seed, e, cond, u, s)
		}
	}
	if seen["robust"] == 0 || seen["not robust"] == 0 {
		t.Errorf("the programs gave one verdict only: %v", seen)
	}
}
