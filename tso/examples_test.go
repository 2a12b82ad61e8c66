package tso

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

var expectRE = regexp.MustCompile(`(?m)^# expect: tso=(robust|not-robust) pso=(robust|not-robust)$`)

// TestExamples checks the hand-derived verdicts written in the header of
// every program in examples/tso, under both models, and cross-checks them
// with the oracle where it terminates (loop-free programs).
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "tso", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found in ../examples/tso: %v", err)
	}
	for _, file := range files {
		if strings.HasPrefix(filepath.Base(file), "param-") {
			continue // parameterized programs: TestParamExamples
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m := expectRE.FindSubmatch(src)
			if m == nil {
				t.Fatalf("no \"# expect: tso=... pso=...\" header")
			}
			p, err := prog.ParseProgram(file, src)
			if err != nil {
				t.Fatal(err)
			}
			for i, model := range []prog.Model{prog.TSO, prog.PSO} {
				want := prog.Robust
				if string(m[i+1]) == "not-robust" {
					want = prog.NotRobust
				}
				r := check(p, model, Options{MaxStates: 1_000_000, Jobs: 2, All: true})
				if r.Verdict != want {
					t.Errorf("%v: verdict %v, want %v (%s)", model, r.Verdict, want, r.Reason)
				}
				if want == prog.NotRobust && (r.Witness == nil || r.WitnessErr != nil) {
					t.Errorf("%v: no replayed witness: %v", model, r.WitnessErr)
				}
				o := oracle.Robustness(p, model, oracle.Budget{MaxNodes: 100_000})
				if o.Verdict != prog.Unknown && o.Verdict != want {
					t.Errorf("%v: oracle says %v, header says %v", model, o.Verdict, want)
				}
			}
		})
	}
}
