package tso

import (
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// reportCPU reports the process's CPU seconds per operation since start
// (cpuTime): on a machine shared with other work, CPU says more than wall
// time.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkCorpusFirst: the Trencher corpus under TSO checked as
// "pgasrob tso --jobs 1" does (the probe, the pre-pass rounds and the
// combined search, the first feasible attack ending the check), against
// the verdicts of EXPECTED (the reference tool's); BenchmarkCorpus runs
// every attack (All) and so none of those. states/op is the states the
// check stored.
func BenchmarkCorpusFirst(b *testing.B) {
	dir := corpusDir(b)
	for _, e := range readExpected(b, dir) {
		p := loadCorpus(b, dir, e.file)
		want := prog.NotRobust
		if e.robust {
			want = prog.Robust
		}
		b.Run(e.file, func(b *testing.B) {
			var r *Result
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				r = check(p, prog.TSO, Options{Jobs: 1})
				if r.Verdict != want || r.WitnessErr != nil {
					b.Fatalf("%s: %v, EXPECTED %v (%v; %s)", e.file, r.Verdict, want, r.WitnessErr, r.Reason)
				}
			}
			reportCPU(b, start)
			b.ReportMetric(float64(r.Stats.States), "states/op")
		})
	}
}
