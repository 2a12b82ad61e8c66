package cfront

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// FuzzHeap: the memory layout (heap, pointers, indices) on any input gives
// a translation that compiles, or errors with positions; never a panic
// nor an internal error. The seeds, testdata/heap and fragments of every
// pointer construct, run in the normal suite, with N = 2.
func FuzzHeap(f *testing.F) {
	files, _ := filepath.Glob("testdata/heap/*.c")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		wrap("long y[4];", "shmem_long_p(&y[-1], 1, 1); y[4] = 0; long *p = y + 4; p--; *p = 1;"),
		wrap("long *g;", "g = shmem_malloc(2 * sizeof(long)); long *q = g; for (int i = 0; i < 2; i++) { *q++ = i; } shmem_free(g);"),
		wrap("", "int n = shmem_n_pes(); long *a = shmem_calloc(n, sizeof(long)); long *b = shmem_align(64, n * 8); long *c = malloc(16); free(c); free(NULL); shmem_free(NULL);"),
		wrap("long x;", "long *p = shmem_ptr(&x, 1); if (!p) shmem_long_p(&x, 1, 1); long r = shmem_addr_accessible(&x, 1) + (p == NULL);"),
		wrap("long a, b; long *pick(long *u, long *v, int c) { if (c) return u; return v; }", "long *r = pick(&a, &b, 1); *r = 1;"),
		wrap("long a[3]; long *mid(void) { return &a[1]; }", "long *m = mid(); m[1] = 1; m[-1] = 1; long d = m - a;"),
		wrap("long a[2];", "long *p = a; if (shmem_my_pe()) p = p + 1; else p += 1; *p = (p != a) + (p > a);"),
		wrap("", "long *p = shmem_malloc(8); p = shmem_realloc(p, 16);"),
		wrap("", "long **pp; int (*fp)(void); void *v = 0; long *p = (long *) v;"),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r, err := Translate("f.c", src, Options{N: 2})
		if err != nil {
			if strings.Contains(err.Error(), "internal") {
				t.Fatalf("%v on %q", err, src)
			}
			var list pgas.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					if e.Pos.Line < 1 || e.Msg == "" {
						t.Fatalf("error without a position: %v", e)
					}
				}
			}
			return
		}
		if _, err := pgas.Compile("f.c.pgas", r.Source); err != nil {
			t.Fatalf("the translation does not compile: %v\n%s", err, r.Source)
		}
	})
}
