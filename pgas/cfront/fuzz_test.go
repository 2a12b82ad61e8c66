package cfront

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
)

// FuzzTranslate: whatever the bytes, the front end returns a translation
// or an error with a position in the file; it never panics. The seeds (the
// litmus suite and fragments of every construct) run in the normal suite.
func FuzzTranslate(f *testing.F) {
	files, _ := filepath.Glob("../../examples/shmem/*.c")
	more, _ := filepath.Glob("testdata/waitmany/*.c")
	files = append(files, more...)
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "int main(void) {", "int main(void) { return 0; }",
		wrap("long x[3];", "for (int i = 0; i < 3; i++) x[i] = i;"),
		wrap("long x; shmem_ctx_t c;", "shmem_ctx_create(0, &c); shmem_ctx_long_atomic_add(c, &x, 1, 0); shmem_ctx_destroy(c);"),
		wrap("long f[3];", "shmem_long_wait_until_all(f, 3, NULL, SHMEM_CMP_EQ, 1);"),
		wrap("long f[3]; long x[3];", "int st[3]; size_t ix[3]; long w[3]; size_t i = shmem_long_test_any(f, 3, st, SHMEM_CMP_GE, 1); "+
			"if (i != SIZE_MAX && i == 1) shmem_long_test_some_vector(f, 3, ix, NULL, SHMEM_CMP_NE, w); x[0] = i;"),
		wrap("long x; static void put1(long *d, int pe) { shmem_long_p(d, 1, pe); }", "put1(&x, 1); put1(&x, 0);"),
		wrap("long x;", "int r = 0; L: r = r + 1; if (r < 2) goto L; do { r--; } while (r > 0 && x == 0);"),
		wrap("long x, y;", "x = y ? 1 : (x && y);"),
		"#define F(x) F(x) F(x)\nint main(void) { F(1); }",
		"#pragma pgasrob values\nint main(void){return 0;}",
		"#pragma pgasrob values -2..9\nint main(void){return 0;}",
		wrap("long x = -1; int y = 2147483647;", "if (x == -1) x = 1337; y = -2147483647 - 1; x = 4294967296;"),
		wrap("long x;", "x = 10000000000; x = -x;"),
	} {
		f.Add([]byte(s))
	}
	// A parse that does not finish is a failure here, though Translate
	// turns it into an error: it leaves a goroutine spinning.
	parseTimeout = 5 * time.Second
	f.Fuzz(func(t *testing.T, src []byte) {
		r, err := Translate("f.c", src, Options{})
		if err != nil && strings.Contains(err.Error(), "did not finish") {
			t.Fatalf("cc hangs on %q", src)
		}
		if err != nil && strings.Contains(err.Error(), "internal error of the C front end") {
			t.Fatalf("%v on %q", err, src)
		}
		if err != nil {
			var list pgas.ErrorList
			if !errors.As(err, &list) {
				if !strings.HasPrefix(err.Error(), "f.c") {
					t.Fatalf("error without a position: %v", err)
				}
				return
			}
			for _, e := range list {
				if e.Pos.Line < 1 || e.Msg == "" {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		if len(r.Lines) != len(splitLines(string(r.Source))) {
			t.Fatalf("%d origins for %d lines", len(r.Lines), len(splitLines(string(r.Source))))
		}
		// What the front end accepts, the .pgas compiler accepts.
		if _, err := pgas.Compile("f.c.pgas", r.Source); err != nil {
			t.Fatalf("the translation does not compile: %v\n%s", err, r.Source)
		}
	})
}
