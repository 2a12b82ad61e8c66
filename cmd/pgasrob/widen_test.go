package main

import (
	"strings"
	"testing"
)

// A value that leaves the domain the C front end inferred is ours, not the
// program's: decide widens the domain and answers (widen.go). Each case
// argues its verdict by hand.
func TestDecideWidens(t *testing.T) {
	const counter = `#include <shmem.h>
%s
long total;
int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    if (me == 0) {
        long s = 0;
        for (int pe = 0; pe < npes; pe++)
            s = s + 3;
        total = s;
    }
    shmem_finalize();
    return 0;
}
`
	for _, c := range []struct {
		name, src string
		code      int
		want      string
	}{
		// PE 0 sums 3 per PE in a local: 3N, beyond the window inferred
		// from the constants (0..4; widened to 0..15: the upper end doubled,
		// rounded up to a power of two less one). No PE accesses another's memory, so
		// the program is robust for every N.
		{"counter past the constants", strings.Replace(counter, "%s", "", 1), exitRobust,
			"was widened to 0..15 (a value of the program left it, which is no error of the program)"},
		// With the pragma the domain is the user's: 3N = 6 > 2 is the
		// program's run-time error, as in .pgas.
		{"pragma override", strings.Replace(counter, "%s", "#pragma pgasrob values 3", 1), exitUsage,
			"c.c:11:13: value 3 outside 0..2"},
		// v goes up by 100 for ever in an int: C's signed overflow,
		// undefined, reached on PE 0's sequential run.
		{"int overflow", `#include <shmem.h>
int x;
int main(void) {
    int v = 2147483000;
    while (1) { v = v + 100; x = v; }
    return 0;
}
`, exitUsage, "c.c:5:17: signed overflow: the value 2147483700 is outside int's range -2147483648..2147483647 (undefined behaviour in C)"},
		// The same in a long: no overflow in C, but beyond the widest
		// domain of the checker: no verdict.
		{"long beyond the checker", `#include <shmem.h>
long x;
int main(void) {
    long v = 4294967000;
    while (1) { v = v + 100; x = v; }
    return 0;
}
`, exitUnknown, "c.c:5:17) is outside -4294967296..4294967296, the widest value domain of the checker"},
		// Negative values: a countdown by 2 steps past its bound -5 to
		// -6, which widens the lower end (from -5 to -16: doubled and a
		// power of two). One PE's local memory only: robust.
		{"countdown", `#include <shmem.h>
long x;
int main(void) {
    for (long k = 0; k > -5; k = k - 2) x = k;
    return 0;
}
`, exitRobust, "was widened to -16..3"},
		// The none of test_any (SIZE_MAX) used as a value stays a
		// run-time error however wide the domain: f is never set, so
		// no cell satisfies the test.
		{"SIZE_MAX as a value", `#include <shmem.h>
long f[2];
long x;
int main(void) {
    size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);
    x = i + 1;
    return 0;
}
`, exitUsage, "SIZE_MAX, the \"none\" of shmem_test_any or shmem_wait_until_any, used as a value"},
		// A collect whose blocks (me + 1 elements each) overflow d's 5
		// at N = 3 (6 elements): C leaves it undefined, a run-time error
		// named as the call's, not as SIZE_MAX (the two guards had one
		// value and the message said SIZE_MAX).
		{"collective overflow", `#include <shmem.h>
int d[5], s[3];
int main(void) {
    shmem_init();
    shmem_int_collect(SHMEM_TEAM_WORLD, d, s, shmem_my_pe() + 1);
    return 0;
}
`, exitUsage, "an OpenSHMEM call whose behaviour C leaves undefined"},
		// -1 converted to uint64_t is 2^64 - 1 in C: beyond the checker's
		// values, so UNKNOWN naming the conversion (conv.go), never a
		// run-time error of the program (whose C is fine).
		{"unsigned wrap-around", `#include <shmem.h>
#include <stdint.h>
long x;
int main(void) {
    int me = shmem_my_pe();
    uint64_t y = me - 5;
    x = y > 5;
    return 0;
}
`, exitUnknown, "c.c:6:18: a value converted to an unsigned type that cannot hold it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCmd("decide", writeFile(t, "c.c", c.src), "-n", "2..3")
			if code != c.code || !strings.Contains(out, c.want) {
				t.Errorf("exit %d, want %d and %q\n%s%s", code, c.code, c.want, out, errs)
			}
		})
	}
}

// The JSON of check gives the window and whether it is inferred.
func TestCheckWindowJSON(t *testing.T) {
	f := writeFile(t, "c.c", "#include <shmem.h>\nlong x = -1;\nint main(void) { x = 1337; return 0; }\n")
	code, out, _ := runCmd("check", f, "--json")
	for _, want := range []string{`"values_min": -1`, `"values_max": 1338`, `"values_inferred": true`} {
		if code != exitRobust || !strings.Contains(out, want) {
			t.Errorf("exit %d, want %s in\n%s", code, want, out)
		}
	}
}

// repair works on the translation's text, whose domain is declared: it
// must hold PE 0's sum 3N, which the constants do not show (windowFor).
// The program is message passing without a fence (mp-none.c), so the
// repair is a fence between the two puts.
func TestRepairWidens(t *testing.T) {
	f := writeFile(t, "c.c", `#include <shmem.h>
long data, flag, total;
int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    if (me == 0) {
        long s = 0;
        for (int pe = 0; pe < npes; pe++) s = s + 3;
        shmem_long_p(&data, s, 1);
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        total = data;
    }
    return 0;
}
`)
	code, out, errs := runCmd("repair", f, "-n", "2..3")
	if code != exitRobust || !strings.Contains(out, "shmem_fence() before line 11") {
		t.Errorf("exit %d, want 0 and a fence\n%s%s", code, out, errs)
	}
}
