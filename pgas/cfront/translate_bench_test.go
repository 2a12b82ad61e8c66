package cfront_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// BenchmarkTranslateExamples translates every C litmus file of
// examples/shmem at N = 2: the front end's cost per file (preprocessing,
// parsing and type-checking with our headers, translation), for benchstat
// between builds (docs/measurements.md, "The test suite's time").
func BenchmarkTranslateExamples(b *testing.B) {
	files, _ := filepath.Glob("../../examples/shmem/*.c")
	if len(files) < 10 {
		b.Fatalf("only %d files", len(files))
	}
	srcs := make([][]byte, len(files))
	for i, f := range files {
		var err error
		if srcs[i], err = os.ReadFile(f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, f := range files {
			if _, err := cfront.Translate(f, srcs[i], cfront.Options{N: 2}); err != nil {
				b.Fatalf("%s: %v", f, err)
			}
		}
	}
	b.ReportMetric(float64(len(files)), "files/op")
}
