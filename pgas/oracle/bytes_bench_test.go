package oracle_test

import (
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// BenchmarkExploreBytes runs the oracle, without its reduction, on
// examples without contexts (issue 35: the bytes per state the context
// fields of XState cost such programs) and reports states, states/s,
// alloc-B/state (bytes allocated per state expanded) and B/state (the
// peak live heap, sampled every 10 ms, per state expanded).
func BenchmarkExploreBytes(b *testing.B) {
	for _, c := range []struct {
		file string
		n    int
	}{{"prodcons.pgas", 4}, {"n4/loop-waitq.pgas", 3}} {
		b.Run(c.file, func(b *testing.B) {
			p, err := pgas.Load(filepath.Join("../../examples", c.file))
			if err != nil {
				b.Fatal(err)
			}
			var states, alloc, peak int64
			var took time.Duration
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				var top atomic.Int64
				done := make(chan struct{})
				go sampleHeap(&top, done)
				start := time.Now()
				res := oracle.Explore(p, c.n, oracle.Bounds{MaxNodes: 2_000_000, Timeout: time.Minute})
				took += time.Since(start)
				close(done)
				runtime.ReadMemStats(&m1)
				states += res.Explored
				alloc += int64(m1.TotalAlloc - m0.TotalAlloc)
				peak += top.Load() - int64(m0.HeapAlloc)
			}
			b.ReportMetric(float64(states)/float64(b.N), "states")
			b.ReportMetric(float64(states)/took.Seconds(), "states/s")
			b.ReportMetric(float64(alloc)/float64(states), "alloc-B/state")
			b.ReportMetric(float64(peak)/float64(states), "B/state")
		})
	}
}

func sampleHeap(top *atomic.Int64, done chan struct{}) {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	var m runtime.MemStats
	for {
		select {
		case <-done:
			return
		case <-t.C:
			runtime.ReadMemStats(&m)
			if v := int64(m.HeapAlloc); v > top.Load() {
				top.Store(v)
			}
		}
	}
}
