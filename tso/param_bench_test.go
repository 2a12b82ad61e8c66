package tso

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// BenchmarkParamCorpus measures the parameterized check on the marked
// corpus (testdata/param/MARKED) and the examples: per program, the states
// of the counter abstraction (abstract states of the forward exploration,
// global and local states = places, net transitions) and of the backward
// coverability search (markings stored, basis left), summed over the
// attacks the syntactic check leaves. The budgets (200,000 states per
// attack, 20 s per program) stop the one program with unbounded data
// (cilk-the-wsq-wrongdoing); its figures are those of the budget, not of
// a decision.
func BenchmarkParamCorpus(b *testing.B) {
	type named struct {
		name string
		p    *prog.Program
	}
	var progs []named
	for _, m := range readMarked(b) {
		progs = append(progs, named{m.file, loadMarked(b, m)})
	}
	files, _ := filepath.Glob(filepath.Join("..", "examples", "tso", "param-*.txt"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		p, err := prog.ParseProgram(f, src)
		if err != nil {
			b.Fatal(err)
		}
		progs = append(progs, named{filepath.Base(f), p})
	}
	for _, pr := range progs {
		for _, noPrune := range []bool{false, true} {
			name := pr.name
			if noPrune {
				name += "/noprune"
			}
			b.Run(name, func(b *testing.B) { benchParam(b, pr.name, pr.p, noPrune) })
		}
	}
}

// benchParam runs one program; noPrune also decides the attacks the
// syntactic check refutes, so that the coverability search has work on
// templates whose attacks are all refuted before any search.
func benchParam(b *testing.B, name string, p *prog.Program, noPrune bool) {
	{
		pr := struct {
			name string
			p    *prog.Program
		}{name, p}
		{
			var r *ParamResult
			for i := 0; i < b.N; i++ {
				r = checkParameterized(pr.p, Options{MaxStates: 200_000, MaxBytes: 512 << 20, Jobs: 1, Timeout: 20 * time.Second, NoPrune: noPrune}, 0)
			}
			s := r.Stats
			b.ReportMetric(float64(s.Abstract), "abstract")
			b.ReportMetric(float64(s.Globals), "globals")
			b.ReportMetric(float64(s.Locals), "locals")
			b.ReportMetric(float64(s.NetTransitions), "net-trans")
			b.ReportMetric(float64(s.Markings), "markings")
			b.ReportMetric(float64(s.Basis), "basis")
			b.ReportMetric(float64(r.Generated), "attacks")
			b.ReportMetric(float64(r.Undecided), "undecided")
			b.Logf("%s: %v", pr.name, r.Verdict)
		}
	}
}
