package cfront

import (
	"context"
	"errors"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// bufSeeds are programs of the forms of buffer.go, some outside them
// (bounds past the end, offsets out of range, nested loops, sizeof).
var bufSeeds = []string{
	"#include <shmem.h>\n#include <stdio.h>\nstatic long d[40];\nint main(void) { long s[40] = {1, 2}; shmem_long_put(d, s, 40, 0); printf(\"%ld\\n\", d[0]); return 0; }",
	"#include <shmem.h>\n#include <stdio.h>\nstatic long d[40];\nint main(void) { for (int i = 0; i < 41; i++) d[i] = i; return 0; }",
	"#include <shmem.h>\n#include <stdio.h>\nstatic long d[40];\nint main(void) { for (int i = 39; i >= 0; i--) printf(\"%d %ld\\n\", i, d[i]); return 0; }",
	"#include <shmem.h>\n#include <string.h>\nstatic int d[40], e[40];\nint main(void) { memcpy(d + 3, e + 3, 37 * sizeof(int)); memset(e, 255, sizeof e); return 0; }",
	"#include <shmem.h>\nstatic long d[40], e[40];\nint main(void) { shmem_long_put_nbi(&d[39], &e[39], 2, 0); return 0; }",
	"#include <shmem.h>\nstatic long d[40];\nint main(void) { int i; for (int r = 0; r < 2; r++) for (i = 0; i < sizeof d / sizeof d[0]; i++) d[i] = r; return i; }",
	"#include <shmem.h>\nstatic long d[40];\nint main(void) { d[-1] = 2; d[39] = 1; return d[39]; }",
	"#include <shmem.h>\n#include <stdlib.h>\nint main(void) { long *u = shmem_calloc(50, 4); int *v = (int *) malloc(50 * sizeof(int)); shmem_long_put(u + 1, u + 1, 48, 0); free(v); shmem_free(u); return 0; }",
	"#include <shmem.h>\n#include <stdlib.h>\nint main(void) { long *u = shmem_align(64, 0); long *w = malloc(3); w[1] = 1; return 0; }",
	// dead checks (tailcheck.go) and the shapes of buffer_assign.go
	"#include <shmem.h>\n#include <stdio.h>\nint main(void) { long s[10] = {1}; long *t; int i, failed = 0; t = (long *) shmem_calloc(10, sizeof(long)); if (!t) shmem_global_exit(1); for (i = 0; i < 2; i++) shmem_long_put(t, s, 10, i); for (i = 0; i < 10; i++) if (t[i] != s[i]) { fprintf(stderr, \"%d %ld\\n\", i, t[i]); failed = 1; } shmem_free(t); if (failed) exit(1); return failed; }",
	"#include <shmem.h>\nstatic long d[12]; static uint64_t g;\nint main(void) { long s[12], sum = 0; int e = 0; shmem_long_put_signal(d, s, 12, &g, 1, SHMEM_SIGNAL_ADD, 0); for (int i = 0; i < 12; i++) sum += d[i]; if (sum / 2 != d[0] || e) e++; return e; }",
	"#include <shmem.h>\nstatic long d[12];\nint main(void) { int f = 0; if (d[3] != 1 && d[4]) f = d[5]; d[f] = 1; if (d[0] ? d[1] : 2) abort(); return f; }",
	// blocks of a per-PE buffer (buffer_block.go), sizes in locals
	"#include <shmem.h>\n#include <stdlib.h>\nint main(void) { int me = shmem_my_pe(), npes = shmem_n_pes(); long *a = shmem_malloc(40 * npes * sizeof(long)); long *m = malloc(40 * sizeof(long)); size_t *ix = calloc(npes, sizeof(size_t)); int st[4] = {0}; static long f[4]; long s = 0; shmem_long_put_nbi(&a[me * 40], m, 40, 0); size_t n = shmem_long_test_some(f, npes, ix, st, SHMEM_CMP_NE, 0); for (size_t i = 0; i < n; i++) for (int j = 0; j < 40; j++) s += a[ix[i] * 40 + j]; if (s != 1) shmem_global_exit(1); return 0; }",
	"#include <shmem.h>\n#include <stdio.h>\nint main(void) { int npes = shmem_n_pes(); long *a = shmem_calloc(npes * 33, sizeof(long)); long k = a[0]; for (int i = 32; i >= 0; i--) printf(\"%ld\\n\", a[33 * k + i]); a[k * 33 + 33] = 1; a[2 * 33] = 0; return 0; }",
	"#include <shmem.h>\n#include <stdlib.h>\nint main(void) { const int size = 48; size_t n = 3; long *d = shmem_malloc(size * n * sizeof(long)); long *s = malloc(n * size * 8); shmem_long_get(s, &d[shmem_my_pe() * 48], size, 0); return 0; }",
}

// FuzzBuffers: the analysis and the plan never panic, and a translation
// for one N with buffers shrunk is accepted by the .pgas compiler.
func FuzzBuffers(f *testing.F) {
	for _, s := range bufSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		pr, err := parseC(context.Background(), "f.c", src, Options{})
		if err != nil {
			return
		}
		planBuffers(analyseBuffersWith(pr.ast, analyseDead(pr.ast)), 3) // no recover here: a panic fails
		r, err := Translate("f.c", src, Options{N: 3})
		var ie *InternalError
		if errors.As(err, &ie) {
			t.Fatalf("%v on %q", err, src)
		}
		if err != nil {
			return
		}
		if _, err := pgas.Compile("f.c.pgas", r.Source); err != nil {
			t.Fatalf("the translation does not compile: %v\n%s", err, r.Source)
		}
	})
}
