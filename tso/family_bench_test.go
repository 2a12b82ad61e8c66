package tso

import (
	"fmt"
	"testing"

	"github.com/pgasrob/pgasrob/tso/family"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// BenchmarkNearViolation: the not-robust families of issue 27 (package
// family), N = 2..12, checked as "pgasrob tso --jobs 1" does (the
// combined first search, then per attack). states/op is the states the
// check stored; scripts/nearviol runs the same programs as whole
// processes beside the reference tool.
func BenchmarkNearViolation(b *testing.B) {
	for _, f := range []struct {
		name string
		gen  func(int) string
	}{{"flagring", family.FlagRing}, {"dijkstra", family.Dijkstra}, {"burns", family.Burns},
		{"peterson", family.Peterson}, {"wsq", family.WorkSteal}} {
		for n := 2; n <= 12; n++ {
			p, err := prog.ParseProgram(fmt.Sprintf("%s-%d", f.name, n), []byte(f.gen(n)))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/N=%d", f.name, n), func(b *testing.B) {
				var r *Result
				for i := 0; i < b.N; i++ {
					r = check(p, prog.TSO, Options{Jobs: 1})
					if r.Verdict != prog.NotRobust || r.WitnessErr != nil {
						b.Fatalf("%s: %v %v (%s)", p.File, r.Verdict, r.WitnessErr, r.Reason)
					}
				}
				b.ReportMetric(float64(r.Stats.States), "states/op")
			})
		}
	}
}
