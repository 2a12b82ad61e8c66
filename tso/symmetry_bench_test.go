package tso

import (
	"fmt"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// BenchmarkQueueThieves: the work-stealing queues of package family
// (queueFamilies) with 1 to 6 thieves, two puts and a buffer of 4,
// checked as "pgasrob tso --jobs 1 --timeout 10s" does, for benchstat
// against an older build (docs/measurements.md, "Work-stealing queues").
// It does not fail on UNKNOWN, which older builds give: decided/op is 1
// for the argued verdict with a replayed witness, 0 for UNKNOWN; a wrong
// verdict fails.
func BenchmarkQueueThieves(b *testing.B) {
	for _, f := range queueFamilies {
		for th := 1; th <= 6; th++ {
			if f.verdict == prog.Robust && th > 4 {
				continue // its whole space: seconds from T = 5 on
			}
			p, err := prog.ParseProgram(fmt.Sprintf("%s-%d-2-4", f.name, th), []byte(f.gen(th, 2, 4)))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/T=%d", f.name, th), func(b *testing.B) {
				var r *Result
				start := cpuTime()
				for i := 0; i < b.N; i++ {
					r = check(p, prog.TSO, Options{Jobs: 1, Timeout: 10 * time.Second})
					if r.Verdict != prog.Unknown && (r.Verdict != f.verdict || r.WitnessErr != nil) {
						b.Fatalf("%s: %v (argued %v) %v (%s)", p.File, r.Verdict, f.verdict, r.WitnessErr, r.Reason)
					}
				}
				decided := 0.0
				if r.Verdict != prog.Unknown {
					decided = 1
				}
				reportCPU(b, start)
				b.ReportMetric(float64(r.Stats.States), "states/op")
				b.ReportMetric(decided, "decided/op")
			})
		}
	}
}
