package oracle_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// BenchmarkExplore runs the oracle on random loop-free programs of four
// commands (the size the differential tests use), for N = 2 and 3. It
// reports states expanded per program.
func BenchmarkExplore(b *testing.B) {
	for _, n := range []int{2, 3} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			rng := progbuild.NewRand(17)
			progs := make([]*pgas.Program, 64)
			for i := range progs {
				progs[i] = progbuild.Random(rng, 4, false, false)
			}
			var states int64
			var slowest time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				res := oracle.Explore(progs[i%len(progs)], n, oracle.Bounds{Timeout: 10 * time.Second})
				if d := time.Since(start); d > slowest {
					slowest = d
				}
				if !res.Complete && res.Violation == nil {
					b.Fatalf("incomplete: %s", res.Truncated)
				}
				states += res.Explored
			}
			b.ReportMetric(float64(states)/float64(b.N), "states/op")
			b.ReportMetric(slowest.Seconds()*1000, "slowest-ms")
		})
	}
}

// BenchmarkExploreCtx is BenchmarkExplore on random programs with the
// OpenSHMEM commands (progbuild.RandomCtx), N = 2.
func BenchmarkExploreCtx(b *testing.B) {
	rng := progbuild.NewRand(17)
	progs := make([]*pgas.Program, 64)
	for i := range progs {
		progs[i] = progbuild.RandomCtx(rng, 4, false, false)
	}
	var states int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := oracle.Explore(progs[i%len(progs)], 2, oracle.Bounds{Timeout: 10 * time.Second})
		if !res.Complete && res.Violation == nil {
			b.Fatalf("incomplete: %s", res.Truncated)
		}
		states += res.Explored
	}
	b.ReportMetric(float64(states)/float64(b.N), "states/op")
}
