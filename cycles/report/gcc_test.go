package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- want\n%s--- got\n%s", path, want, got)
	}
}

// The diagnostics of --format gcc for each kind of verdict. The verdicts
// are argued in the examples' comments: flag-put.c is store buffering
// through two puts (not robust), mp-unsync.pgas message passing over two
// queues (not robust), mp-quiet.c robust (no diagnostic), the two
// testdata files reach a run-time error. The golden files were checked by
// hand: the error sits at the put (or write) whose completion is delayed
// past a later access of its PE, and each note at the line of its step.
func TestGCCGolden(t *testing.T) {
	for _, tc := range []struct{ file, golden string }{
		{"shmem/flag-put.c", "gcc/flag-put.txt"},
		{"mp-unsync.pgas", "gcc/mp-unsync.txt"},
		{"shmem/mp-quiet.c", "gcc/mp-quiet.txt"},
		{"../cycles/report/testdata/pe-out-of-range.c", "gcc/pe-out-of-range.txt"},
		{"../cycles/report/testdata/value-out-of-range.pgas", "gcc/value-out-of-range.txt"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			p, o := decided(t, tc.file, 2)
			var b bytes.Buffer
			WriteGCC(&b, tc.file, p, []Outcome{o})
			golden(t, tc.golden, b.Bytes())
		})
	}
}

// Every line is one diagnostic a compiler-output parser reads:
// FILE:LINE:COL: error|warning|note: text; errors end with their rule id.
func TestGCCShape(t *testing.T) {
	p, o := decided(t, "shmem/flag-put.c", 2)
	p.Warnings = append(p.Warnings, Diag(3, 1, "PE 2 communicates nothing"))
	var b bytes.Buffer
	WriteGCC(&b, "flag-put.c", p, []Outcome{o})
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if got, want := len(lines), 1+1+len(o.Res.Witness.HB); got != want {
		t.Fatalf("%d lines, want %d (a warning, the error, a note per step):\n%s", got, want, b.String())
	}
	for i, l := range lines {
		parts := strings.SplitN(l, ": ", 3)
		if len(parts) < 3 || strings.Count(parts[0], ":") != 2 {
			t.Errorf("line %d is not FILE:LINE:COL: SEVERITY: text: %q", i+1, l)
			continue
		}
		want := "note"
		switch i {
		case 0:
			want = "warning"
		case 1:
			want = "error"
		}
		if parts[1] != want {
			t.Errorf("line %d: severity %q, want %q", i+1, parts[1], want)
		}
	}
	if !strings.HasSuffix(lines[1], "["+RuleNotRobust+"]") {
		t.Errorf("the error does not end with its rule id: %q", lines[1])
	}
}
