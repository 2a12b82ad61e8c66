package cfront

import "testing"

// The translation of pointer constructs, line by line: a pointer is its
// object and an offset, constant while the translation can follow it and
// a register once it moves in a loop or a branch.
func TestPointerMapping(t *testing.T) {
	for _, c := range []struct {
		name, globals, main string
		want                []string
	}{
		{"constant offset", "long a[3];", "long *p = a + 1; p++; *p = 1; p[-2] = 1;",
			[]string{"mem[a + 2] <- 1", "mem[a] <- 1"}},
		{"*p++ in a loop: the old offset, then the step", "long a[2];", "long *p = a; for (int i = 0; i < 2; i++) *p++ = i;",
			[]string{"p_off <- 0", "i <- 0", "if !((i < 2)) goto L3", "tmp0 <- p_off", "p_off <- (p_off + 1)", "mem[a + tmp0] <- i"}},
		{"moved in a branch", "long a[2];", "long *p = a; if (shmem_my_pe()) p += 1; *p = 1;",
			[]string{"p_off <- 0", "if !((rank - 1)) goto L1", "p_off <- (p_off + 1)", "mem[a + p_off] <- 1"}},
		{"truth, NULL, comparisons and difference", "long a[2]; long r;", "long *p = &a[1]; long *n = NULL; r = (p != NULL) + !n + (p > a) + (p - a);",
			[]string{"mem[r] <- (((1 + (!0)) + (1 > 0)) + (1 - 0))"}},
		{"a heap block, its barrier, and shmem_free's", "", "long *d = shmem_calloc(2, sizeof(long)); d[1] = 1; shmem_free(d);",
			[]string{"quiet ctx_default", "barrier", "mem[heap_d + 1] <- 1", "quiet ctx_default", "barrier"}},
		{"a private block: no barrier", "long x;", "int *b = malloc(2 * sizeof(int)); b[0] = 1; free(b); x = 1;",
			[]string{"mem[heap_b] <- 1", "mem[x] <- 1"}},
		{"size 0: NULL and no barrier", "long x;", "long *z = shmem_malloc(0); x = (z == NULL);",
			[]string{"mem[x] <- 1"}},
		{"shmem_ptr: the object for the caller, NULL for another PE", "long x; long r;",
			"long *m = shmem_ptr(&x, shmem_my_pe()); *m = 1; long *o = shmem_ptr(&x, 1); r = (o == NULL);",
			[]string{"mem[x] <- 1", "mem[r] <- (!((1) == rank - 1))"}},
		{"shmem_addr_accessible", "long x; long r;", "long l; r = shmem_addr_accessible(&x, 1) + shmem_addr_accessible(&l, 1);",
			[]string{"mem[r] <- (((1 >= 0) && (1 < N)) + 0)"}},
		{"pointer in and out of a helper", "long a[3]; static long *at(long *b, int i) { return b + 1; }", "long *q = at(a, 0); *q = 1;",
			[]string{"mem[a + 1] <- 1"}},
	} {
		lines, _ := body(t, wrap(c.globals, c.main))
		if !has(lines, c.want...) {
			t.Errorf("%s: want\n  %v\nin\n  %v", c.name, c.want, lines)
		}
	}
}
