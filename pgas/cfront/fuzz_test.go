package cfront

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// FuzzTranslate: whatever the bytes, the front end returns a translation
// or an error with a position in the file; it never panics. The seeds (the
// litmus suite and fragments of every construct) run in the normal suite.
func FuzzTranslate(f *testing.F) {
	files, _ := filepath.Glob("../../examples/shmem/*.c")
	more, _ := filepath.Glob("testdata/waitmany/*.c")
	files = append(files, more...)
	api, _ := filepath.Glob("testdata/api/*.c")
	files = append(files, api...)
	more, _ = filepath.Glob("testdata/clang/*.c")
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
		wrap("long s[4], d[4]; long ps[1];", "shmem_long_alltoalls(SHMEM_TEAM_WORLD, d, s, 2, 1, 1); shmem_long_sum_to_all(d, s, 1, 0, 0, shmem_n_pes(), d, ps); shmem_barrier(0, 0, shmem_team_n_pes(SHMEM_TEAM_SHARED), ps);"),
		wrap("shmem_ctx_t cs[3]; long a[4];", "int k = shmem_my_pe() % 3; shmem_ctx_create(0, &cs[k]); shmem_ctx_long_iput(cs[k], a, a, 2, 1, 1, 0); shmem_ctx_destroy(cs[k]);"),
		wrap("uint64_t g;", "int tl; shmem_init_thread(SHMEM_THREAD_FUNNELED, &tl); shmem_signal_add(&g, 1, 0); if (tl) shmem_global_exit(tl);"),
		"#define F(x) F(x) F(x)\nint main(void) { F(1); }",
		"#pragma pgasrob values\nint main(void){return 0;}",
		"#pragma pgasrob values -2..9\nint main(void){return 0;}",
		wrap("long x = -1; int y = 2147483647;", "if (x == -1) x = 1337; y = -2147483647 - 1; x = 4294967296;"),
		wrap("long x;", "x = 10000000000; x = -x;"),
		// issue 33: C11 generics, switch, bitwise, aggregates, the C library
		wrap("long x; int f;", "shmem_p(&x, 1, 1); shmem_atomic_add(SHMEM_CTX_DEFAULT, &f, 1, 0); shmem_wait_until(&f, SHMEM_CMP_GE, 1);"),
		wrap("long x;", "int me = shmem_my_pe(); switch (me & 1) { case 0: x = me >> 1; break; default: x |= 2; case 3: ; }"),
		wrap("struct p { long a[2]; long b; } s[2]; long m[2][3];", "long l[3] = {1, [2] = 2}; s[1].a[1] = l[2]; m[1][2] += s[0].b; shmem_long_put(m[0], l, 3, 1);"),
		wrap("long x, y;", "int i = 0; x = (y = 2) + i++; y = (i += 1, i * 2); x ^= 1; x <<= 1; x = ~x + 1;"),
		`#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
long a[2], b[2];
int main(int argc, char **argv) {
	memset(a, 0, sizeof a); memcpy(b, a, sizeof b); if (memcmp(a, b, 16) == 0) puts("same");
	printf("%d %s %ld\n", argc, argv[0], a[1]); fprintf(stderr, "%p\n", (void *)&a); fflush(stdout);
	usleep(1); sleep(0); if (argc > 1) exit(atoi(argv[1])); return 0;
}`,
		"#include <stdbool.h>\n#include <limits.h>\n#include <inttypes.h>\nint main(void) { bool b = 2; int x = b; x = x / 0; return INT_MAX; }",
		"#include <pthread.h>\nint main(void) { pthread_t t; pthread_join(t, 0); return 0; }",
		// issue 33, the corpora's gaps: nbi fetching atomics, getenv, fopen,
		// storage of ended blocks, dead code, per-PE collect counts
		wrap("long x;", "long f; shmem_long_atomic_fetch_add_nbi(&f, &x, 1, 1); if (f) x = 2; shmem_quiet(); for (;;) shmem_atomic_swap_nbi(&f, &x, 2, 0);"),
		wrap("long x;", "if (getenv(\"A\") == NULL || !getenv(\"A\")) x = getenv(\"B\") != 0; char *e = getenv(\"C\");"),
		"#include <stdio.h>\n" + wrap("long x;", "FILE *fp; if ((fp = fopen(\"a\", \"r\")) == NULL) exit(1); fclose(fp); fp = NULL; if (!fp) x = 1;"),
		wrap("long x; enum { OP = 1 };", "do { static long r; long o; shmem_long_get_nbi(&o, &r, 1, 0); } while (0); { long w = 1; switch (OP) { case 0: x = w; case 1: break; } } exit(0); x = 3;"),
		wrap("int d[8], s[4];", "int me = shmem_my_pe(); size_t i; i = shmem_int_test_any(s, 2, NULL, SHMEM_CMP_EQ, 1); if (i != SIZE_MAX) shmem_int_collect(SHMEM_TEAM_WORLD, d, s, me + 1);"),
		// shifts and masks of the PE, sessions, string pointers, stores at
		// a computed index (branch h4-sos)
		wrap("long x;", "int me = shmem_my_pe(); x = (1L << me) & 3; x = x >> me; x = (x & (1 << me)) | (2 << shmem_n_pes()); x = 1 << (40 * me);"),
		wrap("long x; shmem_ctx_t c; shmem_ctx_session_config_t cf;", "shmem_ctx_create(0, &c); shmem_ctx_session_start(c, SHMEM_CTX_SESSION_BATCH, &cf, 0); shmem_ctx_session_stop(c); if (c == SHMEM_CTX_INVALID) x = 1;"),
		"#include <shmem.h>\n#include <stdio.h>\n#include <string.h>\nint main(int argc, char **argv) {\n  char *pgm, *q = \"ab\";\n  if ((pgm = strrchr(argv[0], '/'))) pgm++; else pgm = argv[0];\n  q++; q++; q++; printf(\"%s %s\\n\", pgm, q);\n  char *r = \"ab\"; r += 2; return pgm == NULL;\n}\n",
		wrap("", "long chk[3] = {0}; chk[2 * shmem_my_pe()] = 1; long y = (chk[shmem_my_pe()] = 1, 2); (void)y;"),
	} {
		f.Add([]byte(s))
	}
	for _, s := range append(issue34Seeds, convSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r, err := translateWatched(t, src)
		var ie *InternalError
		if errors.As(err, &ie) || err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%v on %q", err, src)
		}
		if err != nil {
			if m := dependencyText(err.Error()); m != "" {
				t.Fatalf("a dependency's text %q reaches the user: %v", m, err)
			}
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
