package tso

import (
	"fmt"
	"testing"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// BenchmarkCriteria compares the three criteria on the same inputs in one
// run (docs/criteria.md, "Cost"). Every pattern is decided (All), so a
// violation found early does not make a criterion look cheap; the ring
// families also run without the syntactic refutation (NoPrune), which is
// where the searches themselves are compared.
//
//	go test ./tso -run '^$' -bench Criteria -count 5 | benchstat -col /criterion -
func BenchmarkCriteria(b *testing.B) {
	type input struct {
		name string
		p    *prog.Program
		opt  Options
	}
	var inputs []input
	dir := corpusDir(b)
	for _, e := range readExpected(b, dir) {
		inputs = append(inputs, input{"corpus/" + e.file, loadCorpus(b, dir, e.file), Options{}})
	}
	for n := 2; n <= 5; n++ {
		for _, f := range []struct {
			name string
			src  func(int) string
			opt  Options
		}{
			{"ring-search", gen.Ring, Options{NoPrune: true}},
			{"unfenced-ring", gen.UnfencedRing, Options{}},
			{"private", gen.Private, Options{}},
		} {
			p, err := prog.ParseProgram(fmt.Sprintf("%s-%d", f.name, n), []byte(f.src(n)))
			if err != nil {
				b.Fatal(err)
			}
			inputs = append(inputs, input{fmt.Sprintf("%s/N=%d", f.name, n), p, f.opt})
		}
	}
	for _, in := range inputs {
		for _, c := range Criteria() {
			b.Run(fmt.Sprintf("%s/criterion=%s", in.name, c), func(b *testing.B) {
				opt := in.opt
				opt.Jobs, opt.All, opt.Criterion, opt.MaxStates = 1, true, c, 5_000_000
				var r *Result
				for i := 0; i < b.N; i++ {
					r = check(in.p, prog.TSO, opt)
					if r.Verdict == prog.Unknown || r.WitnessErr != nil {
						b.Fatalf("%v: %s %v", r.Verdict, r.Reason, r.WitnessErr)
					}
				}
				reportSearch(b, r)
				b.ReportMetric(float64(r.Generated), "patterns")
				b.ReportMetric(float64(r.Generated-r.RefutedSyntactic), "searched")
			})
		}
	}
}
