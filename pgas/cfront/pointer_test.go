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
			[]string{"p_off <- 0", "i <- 0", "if !((i < 2)) goto L3", "tmp0 <- p_off", "p_off <- (p_off + 1)", "mem[a + (tmp0 + ((tmp0 < 0) || (tmp0 >= 2)) * 64)] <- i"}},
		{"moved in a branch", "long a[2];", "long *p = a; if (shmem_my_pe()) p += 1; *p = 1;",
			[]string{"p_off <- 0", "if !((rank - 1)) goto L1", "p_off <- (p_off + 1)", "mem[a + (p_off + ((p_off < 0) || (p_off >= 2)) * 64)] <- 1"}},
		{"truth, NULL, comparisons and difference", "long a[2]; long r;", "long *p = &a[1]; long *n = NULL; r = (p != NULL) + !n + (p > a) + (p - a);",
			[]string{"mem[r] <- (((1 + (!0)) + (1 > 0)) + (1 - 0))"}},
		{"a heap block, its barrier, and shmem_free's", "", "long *d = shmem_calloc(2, sizeof(long)); d[1] = 1; shmem_free(d);",
			[]string{"quiet ctx_default", "barrier", "mem[heap_d + 1] <- 1", "quiet ctx_default", "barrier"}},
		{"shmem_align: the alignment changes no cell", "", "long *b = shmem_align(64, 2 * sizeof(long)); b[1] = 1;",
			[]string{"quiet ctx_default", "barrier", "mem[heap_b + 1] <- 1"}},
		{"a private block: no barrier", "long x;", "int *b = malloc(2 * sizeof(int)); b[0] = 1; free(b); x = 1;",
			[]string{"mem[heap_b] <- 1", "mem[x] <- 1"}},
		{"size 0: NULL and no barrier", "long x;", "long *z = shmem_malloc(0); x = (z == NULL);",
			[]string{"mem[x] <- 1"}},
		{"shmem_ptr: the object for the caller, NULL for another PE", "long x; long r;",
			"long *m = shmem_ptr(&x, shmem_my_pe()); *m = 1; long *o = shmem_ptr(&x, 1); r = (o == NULL);",
			[]string{"mem[x] <- 1", "mem[r] <- (!((1) == rank - 1))"}},
		{"shmem_addr_accessible", "long x; long r;", "long l; r = shmem_addr_accessible(&x, 1) + shmem_addr_accessible(&l, 1);",
			[]string{"mem[r] <- (((1 >= 0) && (1 < N)) + 0)"}},
		{"a computed offset passed to a helper is used as it is (the helper cannot change i)",
			"long a[3]; static void set(long *d) { *d = 1; }", "for (int i = 0; i < 3; i++) set(&a[i]);",
			[]string{"mem[a + (i + ((i < 0) || (i >= 3)) * 64)] <- 1"}},
		{"a returned offset read into a temporary of the helper is kept in one of the caller; a variable keeps it in its register",
			"long a[3]; long k; static long *pick(void) { return &a[k]; }", "long *q = pick(); k = 0; *q = 1;",
			[]string{"tmp1 <- mem[k]", "tmp0 <- tmp1", "goto L1", "q_off <- tmp0", "mem[k] <- 0", "mem[a + (q_off + ((q_off < 0) || (q_off >= 3)) * 64)] <- 1"}},
		{"(p = shmem_malloc(...)) == NULL in the condition of a top-level if: the allocation runs once, and succeeds",
			"long x; long *p;", "if ((p = shmem_malloc(sizeof(long))) == NULL) x = 1; *p = 1;",
			[]string{"quiet ctx_default", "barrier", "if !((!1)) goto L1", "mem[x] <- 1", "mem[heap_p] <- 1"}},
		{"a pointer to a string literal is passed, compared and tested", "long x;", "const char *s = \"ab\"; x = (s != NULL) + (s != 0);",
			[]string{"mem[x] <- (1 + 1)"}},
		{"pointer in and out of a helper", "long a[3]; static long *at(long *b, int i) { return b + 1; }", "long *q = at(a, 0); *q = 1;",
			[]string{"mem[a + 1] <- 1"}},
	} {
		lines, _ := body(t, wrap(c.globals, c.main))
		if !has(lines, c.want...) {
			t.Errorf("%s: want\n  %v\nin\n  %v", c.name, c.want, lines)
		}
	}
}
