package oracle_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// BenchmarkRealC runs the oracle on the realistic C programs of
// examples/shmem/real and the halo kernel (issue 35's targets at N = 4
// and 5), with commuting updates (decide's default), without its
// reduction (reduce=old, what every OpenSHMEM program had before
// reduce_ctx.go) and with it (reduce=new), in one run for benchstat
// (-col /reduce). Each exploration stops at 60 s
// (PGASROB_BENCH_TIMEOUT, a duration); the metric "answered" is 1 for a
// verdict, 0 for a cut. PGASROB_BENCH_REAL=FILE,… picks files (base
// names without .c); PGASROB_BENCH_N5=1 adds N = 5.
func BenchmarkRealC(b *testing.B) {
	files, _ := filepath.Glob("../../examples/shmem/real/*.c")
	files = append(files, "../../examples/shmem/kernels/halo.c")
	timeout := time.Minute
	if d, err := time.ParseDuration(os.Getenv("PGASROB_BENCH_TIMEOUT")); err == nil {
		timeout = d
	}
	ns := []int{4}
	if os.Getenv("PGASROB_BENCH_N5") != "" {
		ns = append(ns, 5)
	}
	pick := map[string]bool{}
	for _, f := range strings.Split(os.Getenv("PGASROB_BENCH_REAL"), ",") {
		if f == "" {
			continue
		}
		pick[f] = true
	}
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f[:len(f)-2])
		if len(pick) > 0 && !pick[filepath.Base(f[:len(f)-2])] && !pick[name] {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range ns {
			p, err := cfront.Compile(f, src, cfront.Options{N: n})
			if err != nil {
				b.Fatalf("%s: %v", f, err)
			}
			p = widened(p, n, timeout)
			for _, red := range []bool{false, true} {
				tag := map[bool]string{false: "old", true: "new"}[red]
				b.Run(fmt.Sprintf("%s/N=%d/reduce=%s", name, n, tag), func(b *testing.B) {
					var states, peak, answered int64
					var took time.Duration
					for i := 0; i < b.N; i++ {
						runtime.GC()
						var m0 runtime.MemStats
						runtime.ReadMemStats(&m0)
						var top atomic.Int64
						done := make(chan struct{})
						go sampleHeap(&top, done)
						start := time.Now()
						res := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 20_000_000, Timeout: timeout, Reduce: red, Commuting: true})
						took += time.Since(start)
						close(done)
						if res.Err != nil {
							b.Fatal(res.Err)
						}
						if res.RangeErr != nil {
							b.Fatalf("%s N=%d: run-time error %v", name, n, res.RangeErr)
						}
						if res.Violation != nil || res.Complete {
							answered++
						}
						states += res.Explored
						peak += max(0, top.Load()-int64(m0.HeapAlloc))
					}
					b.ReportMetric(float64(states)/float64(b.N), "states")
					b.ReportMetric(float64(states)/took.Seconds(), "states/s")
					b.ReportMetric(float64(peak)/float64(max(states, 1)), "B/state")
					b.ReportMetric(float64(peak)/float64(b.N)/(1<<20), "peak-MiB")
					b.ReportMetric(float64(answered)/float64(b.N), "answered")
				})
			}
		}
	}
}

// widened is p with its inferred value domain widened, as decide does
// (cmd/pgasrob/widen.go), until the reduced oracle meets no value that
// leaves it, so that both rows explore the program decide explores.
func widened(p *pgas.Program, n int, timeout time.Duration) *pgas.Program {
	for p.Widen != nil {
		res := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 20_000_000, Timeout: timeout, Reduce: true, Commuting: true})
		re := res.RangeErr
		if re == nil || re.What != "value" && re.What != "atomic" {
			return p
		}
		q, err := p.WidenFor(re)
		if err != nil || q == nil {
			return p
		}
		p = q
	}
	return p
}
