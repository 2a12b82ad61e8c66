package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShmemDecide runs decide through the command on every example of
// examples/shmem-calculus at N = 2 and 3: the exit code is the verdict
// argued in the file, and the output has no note about contexts: the
// reductions hold for them (cycles/plan.go).
func TestShmemDecide(t *testing.T) {
	files, _ := filepath.Glob("../../examples/shmem-calculus/*.pgas")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	expected := regexp.MustCompile(`Expected verdict for N = 2: (NOT ROBUST|ROBUST) \(and for N = 3`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := expected.FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s: no expected verdict", f)
		}
		want := exitRobust
		if string(m[1]) == "NOT ROBUST" {
			want = exitNotRobust
		}
		code, out, errs := runCmd("decide", f, "-n", "2..3", "--procedure", "automata")
		if code != want || strings.Contains(out, "note: OpenSHMEM commands") {
			t.Errorf("%s: exit %d, want %d\n%s%s", f, code, want, out, errs)
		}
	}
}

// TestShmemMerge: shards of a decision of a program with contexts merge
// into the unsharded result; the merged witness is certified again, with
// its items numbered from the shard file's letters.
func TestShmemMerge(t *testing.T) {
	for _, f := range []string{"fence-two-pes.pgas", "quiet.pgas"} {
		checkMerge(t, "decide", filepath.Join("../../examples/shmem-calculus", f), "-n", "3")
	}
}
