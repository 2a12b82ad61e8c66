package cfront

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The memory layout refuses, by name and at the construct, what it cannot
// translate exactly: indices outside their object, pointers that would
// have to select between objects at run time, NULL and freed blocks,
// allocations that may run more or less than once, sizes that are not
// fixed, and shmem_realloc.
func TestHeapRefusals(t *testing.T) {
	for _, c := range []refusalCase{
		// issue 34: y[-1] is not x, whatever the layout
		{"long x; long y[4];", "shmem_long_p(&y[-1], 1, 1);", 6, 15, "access to element -1 of y: a negative index"},
		{"long x; long y[4];", "y[-1] = 1;", 6, 1, "access to element -1 of y"},
		{"long x; long y[4];", "shmem_long_p(&y[4], 1, 1);", 6, 15, "access to element 4..4 of y, which has 4"},
		{"long y[4];", "long *p = y + 5;", 6, 11, "pointer to element 5 of y, which has 4"},
		{"long y[4];", "long *p = y - 1;", 6, 11, "pointer to element -1 of y"},
		{"long y[4];", "long *p = y + 2; p[2] = 1;", 6, 18, "access to element 4..4 of y, which has 4"},
		{"", "long *p; *p = 1;", 6, 11, "pointer p is used before it is set"},
		{"long *g;", "*g = 1;", 6, 2, "g is NULL here"},
		{"long a, b;", "long *p = &a; if (shmem_my_pe()) p = &b; *p = 1;", 6, 34, "pointer p set to b in a loop or a branch, where it designated a"},
		{"long a;", "long *p; if (shmem_my_pe()) p = &a;", 6, 29, "pointer p set in a loop or a branch while it holds no object"},
		{"long a;", "long *p = &a; while (1) { p = NULL; }", 6, 27, "pointer p set to NULL in a loop"},
		{"", "long *p = shmem_malloc(8); shmem_free(p); *p = 1;", 6, 44, "use after free"},
		{"", "long *p = shmem_malloc(8); shmem_free(p); shmem_free(p);", 6, 43, "a second time"},
		{"long x;", "shmem_free(&x);", 6, 1, "shmem_free of x, which shmem_malloc did not allocate"},
		{"", "long *p = malloc(8); shmem_free(p);", 6, 22, "which shmem_malloc did not allocate"},
		{"", "long *p = shmem_malloc(16); shmem_free(p + 1);", 6, 29, "not its start"},
		{"", "long *p = shmem_malloc(8); for (int i = 0; i < 1; i++) shmem_free(p);", 6, 56, "shmem_free in a loop"},
		{"", "long *p = shmem_malloc(8); p = shmem_realloc(p, 16);", 6, 32, "shmem_realloc: the specification says it \"may call barriers"},
		{"", "long *p = shmem_malloc(shmem_my_pe() * 8 + 8);", 6, 24, "depends on the calling PE"},
		{"", "long *p = shmem_malloc(shmem_n_pes() * sizeof(long));", 6, 24, "depends on the number of PEs"},
		{"", "int n = 2; n = n + 1; long *p = shmem_malloc(n * 8);", 6, 46, "computed at run time"},
		{"", "long *p = shmem_malloc(100 * sizeof(long));", 6, 11, "shmem_malloc of 100 elements: at most 32"},
		{"", "long *p = shmem_malloc(12);", 6, 11, "not a whole number of elements"},
		{"", "int *p = shmem_malloc(8); long *q = (long *) p;", 6, 37, "reinterpreting cast"},
		{"long x; long r;", "r = (long) &x;", 6, 5, "pointer converted to long"},
		{"long a, b; long r;", "r = &a < &b;", 6, 5, "< on pointers into different objects"},
		{"void f(void) { long *p = shmem_malloc(8); shmem_free(p); }", "for (int i = 0; i < 2; i++) f();", 4, 26, "shmem_malloc in a loop"},
		{"void f(void) { again: ; long *p = shmem_malloc(8); if (!p) goto again; }", "f();", 4, 35, "shmem_malloc in a loop (or in a function with labels"},
		{"long a, b; long *pick(int c) { if (c) return &a; return &b; }", "*pick(shmem_my_pe()) = 1;", 4, 50, "pick returns different pointers"},
		{"long x;", "int v; long *q = shmem_ptr(&x, v);", 6, 32, "shmem_ptr for a PE computed at run time"},
		{"long x;", "long *q = shmem_ptr(&x, 1); shmem_long_p(q, 1, 1);", 6, 42, "q, from shmem_ptr, passed to an OpenSHMEM routine"},
		{"", "long l; long *q = shmem_ptr(&l, 0);", 6, 29, "shmem_ptr of l, which is not symmetric"},
		{"long x;", "const char *s = \"ab\"; shmem_long_p((long *) s, 1, 1);", 6, 36, "pointer cast to elements of 8 bytes"},
		{"char c[2];", "char *s = \"ab\"; shmem_char_p(s, 1, 1);", 6, 30, "a string literal used as memory"},
	} {
		c.run(t)
	}
}

type refusalCase struct {
	globals, main string
	line, col     int // of the refused construct, in wrap's layout (main's body is line 6)
	want          string
}

func (c refusalCase) run(t *testing.T) {
	t.Helper()
	_, err := Translate("t.c", []byte(wrap(c.globals, c.main)), Options{})
	var list pgas.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Errorf("%s / %s: want an error list, got %v", c.globals, c.main, err)
		return
	}
	e := list[0]
	if !strings.Contains(e.Msg, c.want) || e.Pos.File != "t.c" || e.Pos.Line != c.line || e.Pos.Col != c.col {
		t.Errorf("%s / %s: got %v, want t.c:%d:%d: …%s…", c.globals, c.main, e, c.line, c.col, c.want)
	}
}
