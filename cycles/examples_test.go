package cycles_test

import (
	"path/filepath"
	"testing"

	"pgasrob/pgas"
)

// loadExamples compiles every program of examples/, the fixed inputs most
// tests of this package run beside their random ones.
func loadExamples(tb testing.TB) []*pgas.Program {
	tb.Helper()
	files, _ := filepath.Glob("../examples/*.pgas")
	if len(files) < 10 {
		tb.Fatalf("only %d examples found in ../examples", len(files))
	}
	var progs []*pgas.Program
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			tb.Fatal(err)
		}
		progs = append(progs, p)
	}
	return progs
}
