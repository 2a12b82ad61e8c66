package cfront

import (
	"strings"
	"testing"
)

// body translates a C program and returns its statements (the lines
// after the declarations), each with the C text of its origin.
func body(t *testing.T, src string) ([]string, *Result) {
	t.Helper()
	r, err := Translate("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatalf("translate: %v\n%s", err, src)
	}
	var out []string
	for _, l := range splitLines(string(r.Source)) {
		if strings.HasPrefix(l, "    ") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out, r
}

func wrap(globals, main string) string {
	return "#include <shmem.h>\n#include <assert.h>\n#include <stdlib.h>\n" + globals + "\nint main(void) {\n" + main + "\n return 0;\n}\n"
}

// has reports whether want occurs in lines as a contiguous run.
func has(lines []string, want ...string) bool {
	for i := 0; i+len(want) <= len(lines); i++ {
		ok := true
		for j, w := range want {
			if lines[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// The mapping of docs/shmem.md, call by call: each case is a C fragment
// and the .pgas lines it must produce, in order.
func TestMapping(t *testing.T) {
	for _, c := range []struct {
		name, globals, main string
		want                []string
	}{
		{"p", "long x;", "shmem_long_p(&x, 1, 1);", []string{"putval(1, (rank - rank + 1 + 1), x, ctx_default)"}},
		{"putmem 2 cells nbi", "long a[2], b[2];", "shmem_putmem_nbi(a, b, 16, 0);",
			[]string{"putmem_nbi(b, (rank - rank + 0 + 1), a, ctx_default)", "putmem_nbi(b + 1, (rank - rank + 0 + 1), a + 1, ctx_default)"}},
		{"typed put element", "int a[4]; int s;", "shmem_int_put(&a[2], &s, 1, 1);", []string{"putmem(s, (rank - rank + 1 + 1), a + 2, ctx_default)"}},
		{"get 1", "long a, b;", "shmem_long_get(&a, &b, 1, 1);", []string{"getmem(a, (rank - rank + 1 + 1), b, ctx_default)"}},
		{"get 2: nbi then one quiet", "long a[2], b[2];", "shmem_long_get(a, b, 2, 1);",
			[]string{"getmem_nbi(a, (rank - rank + 1 + 1), b, get_ctx)", "getmem_nbi(a + 1, (rank - rank + 1 + 1), b + 1, get_ctx)", "quiet get_ctx"}},
		{"g through a cell", "long x; long y;", "y = shmem_long_g(&x, 1);",
			[]string{"getmem(g_result, (rank - rank + 1 + 1), x, ctx_default)", "tmp0 <- mem[g_result]", "mem[y] <- tmp0"}},
		{"fence quiet", "", "shmem_fence(); shmem_quiet();", []string{"fence ctx_default", "quiet ctx_default"}},
		{"barrier_all", "", "shmem_barrier_all();", []string{"quiet ctx_default", "barrier"}},
		{"sync_all", "", "shmem_sync_all();", []string{"barrier"}},
		{"wait_until", "long f;", "shmem_long_wait_until(&f, SHMEM_CMP_GE, 1);", []string{"tmp0 <- mem[f] when tmp0 >= 1"}},
		{"test", "long f; long r;", "r = shmem_long_test(&f, SHMEM_CMP_EQ, 1);", []string{"tmp0 <- mem[f] when 1", "mem[r] <- (tmp0 == 1)"}},
		{"atomics", "long c; long r;", "shmem_long_atomic_inc(&c, 0); shmem_long_atomic_add(&c, 1, 0); shmem_long_atomic_set(&c, 1, 0);",
			[]string{"amo_inc((rank - rank + 0 + 1), c, ctx_default)", "amo_add(1, (rank - rank + 0 + 1), c, ctx_default)", "amo_set(1, (rank - rank + 0 + 1), c, ctx_default)"}},
		{"fetching atomics", "long c; long r;", "r = shmem_long_atomic_compare_swap(&c, 0, 1, 0);",
			[]string{"tmp0 <- amo_cswap(0, 1, (rank - rank + 0 + 1), c, ctx_default)", "mem[r] <- tmp0"}},
		{"deprecated finc", "long c; long r;", "r = shmem_long_finc(&c, 0);", []string{"tmp0 <- amo_fetch_inc((rank - rank + 0 + 1), c, ctx_default)"}},
		{"put_signal add nbi", "long d, s; uint64_t g;", "shmem_long_put_signal_nbi(&d, &s, 1, &g, 1, SHMEM_SIGNAL_ADD, 1);",
			[]string{"put_signal_add_nbi(s, (rank - rank + 1 + 1), d, g, 1, ctx_default)"}},
		{"put_signal of 2", "long d[2], s[2]; uint64_t g;", "shmem_long_put_signal_nbi(d, s, 2, &g, 1, SHMEM_SIGNAL_SET, 1);",
			[]string{"put_signal_nbi(s, (rank - rank + 1 + 1), d, g, 1, ctx_default, 2)"}},
		{"signal_wait_until", "uint64_t g; long r;", "r = shmem_signal_wait_until(&g, SHMEM_CMP_NE, 0);",
			[]string{"tmp0 <- mem[g] when tmp0 != 0", "mem[r] <- tmp0"}},
		{"contexts", "shmem_ctx_t c; long x;", "shmem_ctx_create(0, &c); shmem_ctx_long_p(c, &x, 1, 1); shmem_ctx_fence(c); shmem_ctx_quiet(c); shmem_ctx_destroy(c);",
			[]string{"putval(1, (rank - rank + 1 + 1), x, c)", "fence c", "quiet c", "quiet c"}},
		{"default context by name", "long x;", "shmem_ctx_long_p(SHMEM_CTX_DEFAULT, &x, 1, 1);", []string{"putval(1, (rank - rank + 1 + 1), x, ctx_default)"}},
		{"my_pe n_pes substituted", "long x;", "int me = shmem_my_pe(); int n = shmem_n_pes(); shmem_long_p(&x, 1, (me + 1) % n);",
			[]string{"putval(1, (((((rank - 1)) + 1) % (N)) + 1), x, ctx_default)"}},
		{"assert loads then stops", "long x;", "assert(x == 1);", []string{"tmp0 <- mem[x]", "if !((tmp0 == 1)) goto END"}},
		{"if abort", "long x;", "if (x) abort(); x = 2;", []string{"tmp0 <- mem[x]", "if !(tmp0) goto L1", "goto END"}},
		{"short circuit loads only when needed", "long x, y; long r;", "if (x == 1 && y == 1) r = 1;",
			[]string{"tmp0 <- mem[x]", "if !((tmp0 == 1)) goto L1", "tmp1 <- mem[y]", "if !((tmp1 == 1)) goto L1", "mem[r] <- 1"}},
		{"locks", "long l;", "shmem_set_lock(&l); shmem_clear_lock(&l);",
			[]string{"tmp0 <- amo_cswap(0, 1, 1, l, lock_ctx) when tmp0 == 0", "quiet ctx_default", "tmp0 <- amo_swap(0, 1, l, lock_ctx)"}},
		{"wait_until_any", "long f[2]; long r;", "r = shmem_long_wait_until_any(f, 2, NULL, SHMEM_CMP_EQ, 1);",
			[]string{"goto L2, L3"}},
		{"loop", "long x;", "for (int i = 0; i < 2; i++) shmem_long_p(&x, 1, 1);",
			[]string{"i <- 0", "if !((i < 2)) goto L3", "putval(1, (rank - rank + 1 + 1), x, ctx_default)", "i <- (i + 1)", "goto L1"}},
	} {
		lines, _ := body(t, wrap(c.globals, c.main))
		if !has(lines, c.want...) {
			t.Errorf("%s: want the lines\n  %s\nin\n  %s", c.name, strings.Join(c.want, "\n  "), strings.Join(lines, "\n  "))
		}
	}
}

func splitLines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }
