package cfront

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Pruning shmem.h must not change any translation: every C file of the
// repository (examples, test data, fuzz seeds) and, when it is unpacked
// here, the public corpus, translated with the pruned and the full header,
// gives the same .pgas text or the same errors.
func TestPrunedHeaderTranslatesAlike(t *testing.T) {
	// the full header costs a quarter of a second a file: every fifth
	// file of the repository in CI, all with PGASROB_FULL=1; and every C
	// file under PGASROB_C_CORPUS, a directory of unpacked public code
	// (README, "Testing")
	roots, step := []string{"../../examples", "testdata"}, 5
	if os.Getenv("PGASROB_FULL") != "" {
		step = 1
	}
	if dir := os.Getenv("PGASROB_C_CORPUS"); dir != "" {
		roots, step = append(roots, dir), 1
	}
	var files []string
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".c") {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) < 50 {
		t.Fatalf("only %d C files found", len(files))
	}
	pruned := 0
	for i, f := range files {
		if i%step != 0 {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{N: 2}
		if namedRoutines(src, opt) != nil {
			pruned++
		}
		a, errA := Translate(f, src, opt)
		pruneHeaders = false
		b, errB := Translate(f, src, opt)
		pruneHeaders = true
		switch {
		case (errA == nil) != (errB == nil):
			t.Errorf("%s: pruned: %v; full: %v", f, errA, errB)
		case errA != nil && errA.Error() != errB.Error() && !(expansionRE.MatchString(errA.Error()) && expansionRE.MatchString(errB.Error())):
			// (the expansion limit counts the header's tokens too, so
			// where it is reached moves; that it is reached does not)
			t.Errorf("%s: errors differ\npruned: %v\nfull:   %v", f, errA, errB)
		case errA == nil && string(a.Source) != string(b.Source):
			t.Errorf("%s: translations differ", f)
		}
	}
	t.Logf("%d files (every %d-th compared), %d with a pruned header", len(files), step, pruned)
	if pruned < len(files)/step/2 {
		t.Errorf("only %d of %d files got a pruned header", pruned, len(files)/step)
	}
}

// The cases where the text cannot tell which routines a file names.
func TestNamedRoutines(t *testing.T) {
	for _, c := range []struct {
		src  string
		defs []string
		full bool
	}{
		{"#include <shmem.h>\nint main(void) { shmem_init(); }", nil, false},
		{"#include <shmem.h>\n#define P(T) shmem_##T##_p\n", nil, true},
		{"#include <shmem.h>\n#include \"mine.h\"\n", nil, true},
		{"#include <shmem.h>\n#define H <shmem.h>\n#include H\n", nil, true},
		{"#include <shmem.h>\n#include <stdio.h>\n#include <sys/time.h>\n", nil, false},
		{"#include <shmem.h>\n", []string{"CAT(a,b)=a##b"}, true},
	} {
		got := namedRoutines([]byte(c.src), Options{Defines: c.defs}) == nil
		if got != c.full {
			t.Errorf("%q with %v: full header %v, want %v", c.src, c.defs, got, c.full)
		}
	}
	// a generic name brings every typed form its _Generic names
	n := namedRoutines([]byte("shmem_put(&x, &y, 1, 1);"), Options{})
	for _, want := range []string{"shmem_long_put", "shmem_ctx_uint_put", "shmem_put"} {
		if !n[want] {
			t.Errorf("shmem_put does not bring %s", want)
		}
	}
	if n["shmem_long_get"] {
		t.Error("shmem_put brings shmem_long_get")
	}
	if h := shmemHFor(n); strings.Contains(h, "shmem_long_get(") || !strings.Contains(h, "shmem_long_put(") || len(h) > len(fullShmemH())/4 {
		t.Errorf("pruned header of %d bytes (full %d) keeps the wrong prototypes", len(h), len(fullShmemH()))
	}
}

// A macro that doubles at each level reaches the preprocessing limit; the
// message is ours, with no name of the parser's configuration.
func TestExpansionLimitMessage(t *testing.T) {
	src := "#define A0 x x\n"
	for i := 1; i <= 24; i++ {
		src += fmt.Sprintf("#define A%d A%d A%d\n", i, i-1, i-1)
	}
	src += "int main(void) { A24; return 0; }\n"
	_, err := Translate("exp.c", []byte(src), Options{N: 2})
	if err == nil {
		t.Fatal("an expansion of 2^25 tokens is accepted")
	}
	msg := err.Error()
	if !strings.Contains(msg, "exp.c:") || !strings.Contains(msg, "macros expand to more than") || strings.Contains(msg, "Config") || strings.Contains(msg, "ExpansionLimit") {
		t.Errorf("message: %s", msg)
	}
}
