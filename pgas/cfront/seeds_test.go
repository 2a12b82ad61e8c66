package cfront

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// issue34Seeds are the inputs of issue 34 (and the refusals of issue 33,
// item 6) for FuzzTranslate and the tests that run over its corpus.
var issue34Seeds = []string{
	wrap("long x;", "#pragma omp parallel for\nfor (int i = 0; i < 2; i++) shmem_long_p(&x, i, 0);"),
	wrap("long x;", "_Pragma(\"omp barrier\") shmem_long_p(&x, 1, 0);"),
	"#pragma GCC unroll 4\n" + wrap("long x;", "shmem_long_p(&x, 1, 0);"),
	wrap("long données;", "shmem_long_p(&données, 1, 0);"),
	wrap("long x; long y[4];", "shmem_long_p(&y[-1], 1, 1);"),
	"#include <shmem.h>\nlong x;\nint main(void) {\n#if __STDC_VERSION__ >= 201112L\n  shmem_long_p(&x, 1, 0);\n#endif\n  return 0;\n}\n",
	wrap("long x;", "foo(1); x = 99999999999999999999;"),
	wrap("long x;", "x = 0x1p99999999999;"),
	wrap("long x;", "x = "+strings.Repeat("(", 300)+"1"+strings.Repeat(")", 300)+";"),
	wrap("long x;", "x = 1;"+strings.Repeat(" ", 20000)+"x = 2;"),
	wrap("long x, y;", "pthread_t th; pthread_create(&th, 0, 0, 0); undefined_thing = 3; int q = y / 0;"),
	"int *", "struct { int *", "int (*",
}

// Two inputs of issue 34 are made legal or refused by other parts of the
// front end (value domains: negative constants; the C language: division
// by a constant zero); they join issue34Seeds when those parts are merged:
//
//	wrap("long x;", "long y = -1; x = -1; shmem_long_p(&x, y, 0);")
//	wrap("long x;", "x = 1 / 0;")

// translateWatched runs Translate, failing the test if it has not
// returned after a minute: cc looping is a failure, not an answer.
func translateWatched(t *testing.T, src []byte) (*Result, error) {
	type res struct {
		r   *Result
		err error
	}
	done := make(chan res, 1)
	go func() {
		r, err := Translate("f.c", src, Options{})
		done <- res{r, err}
	}()
	select {
	case x := <-done:
		return x.r, x.err
	case <-time.After(time.Minute):
		t.Fatalf("the front end did not return on %q", src)
		return nil, nil
	}
}

// depRE finds what only a dependency would write: a Go file:line, a Go
// type of cc, a strconv function, a TODO.
var depRE = regexp.MustCompile(`[A-Za-z0-9_]+\.go:[0-9]+|\bcc\.[A-Z]|strconv\.|TODO|missed/failed|panic:|goroutine [0-9]`)

func dependencyText(msg string) string { return depRE.FindString(msg) }
