package cycles

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkPerState measures the cost of one product state (issue 7,
// "Cheaper successors"): one job, one worker, no helper, so that the
// figures are those of a single search loop and CPU time is the number to
// compare on a loaded machine.
//
//	PGASROB_BENCH_BIG=1 go test ./cycles -run '^$' -bench PerState -benchtime 1x -count 3
func BenchmarkPerState(b *testing.B) {
	for _, c := range []struct {
		prog string
		n    int
		big  bool
	}{
		{"1to1-fixed", 4, false},
		{"1to1-fixed", 5, true},
		{"1to1-fixed", 6, true},
		{"prodcons", 3, false},
		{"prodcons", 4, true},
	} {
		for _, ex := range []Exploration{PerType, Shared} {
			b.Run(fmt.Sprintf("%s/N=%d/exploration=%v", c.prog, c.n, ex), func(b *testing.B) {
				if c.big && os.Getenv("PGASROB_BENCH_BIG") == "" {
					b.Skip("takes a while; set PGASROB_BENCH_BIG=1")
				}
				benchPerState(b, "../examples/"+c.prog+".pgas", c.n,
					Options{Exploration: ex, Jobs: 1, Workers: 1, noHelper: true, Procedure: Automata})
			})
		}
	}
}

// benchPerState is benchDecide with the figures per state in CPU time,
// which a loaded machine does not inflate as it does wall time: CPU
// nanoseconds per state (and the states per CPU second it makes),
// transitions per state, and bytes per state of the visited sets.
func benchPerState(b *testing.B, file string, n int, opt Options) {
	r, cpu := decideTimed(b, file, n, opt)
	st := r.Stats
	b.ReportMetric(cpu, "cpu-s/op")
	b.ReportMetric(float64(st.States), "states")
	b.ReportMetric(float64(st.Transitions)/float64(st.States), "trans/state")
	b.ReportMetric(float64(st.States)/cpu, "states/cpu-s")
	b.ReportMetric(float64(st.States)/r.Elapsed.Seconds(), "states/s")
	b.ReportMetric(st.BytesPerState(), "B/state")
	if hwm := peakRSS(); hwm > 0 {
		b.ReportMetric(float64(hwm)/(1<<20), "peak-MiB")
	}
	b.Logf("%s N=%d: %v, %d states, %v", file, n, r.Verdict, st.States, r.Elapsed)
}
