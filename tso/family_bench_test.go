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

// BenchmarkQueueFamily: the work-stealing queues of package family
// (order_test.go's queueFamilies; issue 35 item 4), thieves 1..3, 2..4
// puts, a buffer of 4, checked as "pgasrob tso --jobs 1" does.
// states/op is the states the check stored; each check must give the
// argued verdict and, for NOT ROBUST, a replayed witness.
func BenchmarkQueueFamily(b *testing.B) {
	for _, f := range queueFamilies {
		for th := 1; th <= 3; th++ {
			for ops := 2; ops <= 4; ops++ {
				if f.verdict == prog.Robust && th+ops > 5 {
					continue // robust: the whole space, over a minute from here
				}
				if f.name == "idemlifo-loop" && (ops > 2 || th > 2) {
					// Its owner loops: ops plays no part. More thieves:
					// BenchmarkQueueThieves.
					continue
				}
				p, err := prog.ParseProgram(fmt.Sprintf("%s-%d-%d", f.name, th, ops), []byte(f.gen(th, ops, 4)))
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("%s/T=%d/ops=%d", f.name, th, ops), func(b *testing.B) {
					var r *Result
					for i := 0; i < b.N; i++ {
						r = check(p, prog.TSO, Options{Jobs: 1})
						if r.Verdict != f.verdict || r.WitnessErr != nil {
							b.Fatalf("%s: %v (argued %v) %v (%s)", p.File, r.Verdict, f.verdict, r.WitnessErr, r.Reason)
						}
					}
					b.ReportMetric(float64(r.Stats.States), "states/op")
				})
			}
		}
	}
}
