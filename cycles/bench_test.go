package cycles

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
)

// The ring family of issue 2: every rank copies x into y of its right
// neighbour, meets the others at a barrier and reads y. examples/1to1.pgas
// is not robust (the barrier does not wait for the write);
// examples/1to1-fixed.pgas waits for the write first and is robust. N is a
// parameter of the decision, so one program gives the whole family.
//
//	go test ./cycles -run '^$' -bench Ring -benchtime 1x
//
// Each benchmark reports the states explored, states per second, bytes per
// visited state, the hit rate of the shared move cache and the peak
// resident memory of the process (VmHWM; run one N per process for a
// per-N figure).
//
// Each N runs both explorations (per-type and shared, with the default
// jobs), so that one run compares them:
//
//	go test ./cycles -run '^$' -bench 'Ring/' -count 5 | benchstat -col /exploration -
func BenchmarkRing(b *testing.B) {
	for _, prog := range []string{"1to1", "1to1-fixed"} {
		for n := 2; n <= 8; n++ {
			for _, ex := range []Exploration{PerType, Shared} {
				b.Run(fmt.Sprintf("%s/N=%d/exploration=%v", prog, n, ex), func(b *testing.B) {
					if n >= 5 && os.Getenv("PGASROB_BENCH_BIG") == "" {
						b.Skip("N >= 5 takes minutes; set PGASROB_BENCH_BIG=1")
					}
					if n == 8 && (prog != "1to1" || ex != Shared) {
						b.Skip("N = 8: only the unfenced ring's first witness with the default exploration (issue 7)")
					}
					if n == 7 && os.Getenv("PGASROB_BENCH_BIG") != "7" {
						b.Skip("N = 7 takes many minutes; set PGASROB_BENCH_BIG=7")
					}
					benchDecide(b, "../examples/"+prog+".pgas", n, Options{Exploration: ex})
				})
			}
		}
	}
}

// BenchmarkRingVariants compares, in one run, the default configuration
// of the robust ring against turning off one optimisation at a time:
// the shared move cache, the rank symmetry, the partial-order reduction
// (at N = 3, since it is slow without), and parallel workers.
//
//	go test ./cycles -run '^$' -bench RingVariants -count 5 | benchstat -
func BenchmarkRingVariants(b *testing.B) {
	for _, v := range []struct {
		name string
		n    int
		opt  Options
	}{
		{"N=4/default", 4, Options{}},
		{"N=4/no-cache", 4, Options{CacheBytes: -1}},
		{"N=4/no-symmetry", 4, Options{NoSymmetry: true}},
		{"N=4/one-job", 4, Options{Jobs: 1}},
		{"N=3/default", 3, Options{}},
		{"N=3/no-reduction", 3, Options{NoReduction: true}},
	} {
		b.Run(v.name, func(b *testing.B) { benchDecide(b, "../examples/1to1-fixed.pgas", v.n, v.opt) })
	}
}

func benchDecide(b *testing.B, file string, n int, opt Options) {
	r, cpu := decideTimed(b, file, n, opt)
	// CPU time as well as wall time: on a machine shared with other work,
	// wall time measures the load more than the search.
	b.ReportMetric(cpu, "cpu-s/op")
	st := r.Stats
	b.ReportMetric(float64(st.States), "states")
	b.ReportMetric(float64(st.States)/r.Elapsed.Seconds(), "states/s")
	b.ReportMetric(st.BytesPerState(), "B/state")
	if h, m := r.CacheHits, r.CacheMiss; h+m > 0 {
		b.ReportMetric(100*float64(h)/float64(h+m), "cache-hit-%")
	}
	if hwm := peakRSS(); hwm > 0 {
		b.ReportMetric(float64(hwm)/(1<<20), "peak-MiB")
	}
	b.Logf("%s N=%d: %v, %d states, %v", file, n, r.Verdict, st.States, r.Elapsed)
}

// decideTimed decides file b.N times and returns the last result and the
// CPU seconds per decision.
func decideTimed(b *testing.B, file string, n int, opt Options) (*Result, float64) {
	p, err := pgas.Load(file)
	if err != nil {
		b.Fatal(err)
	}
	var r *Result
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if r, err = Decide(p, n, opt); err != nil {
			b.Fatal(err)
		}
	}
	return r, (cpuTime() - cpu0).Seconds() / float64(b.N)
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS reads the process's peak resident set size from /proc (0 if it
// cannot).
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkYardsticks reports, for the robust ring, how the cycle-type
// search compares with one pass over Y (issue 7): product states per
// state of reduced Y and per distinct (Y, marks) pair.
//
//	PGASROB_BENCH_BIG=1 go test ./cycles -run '^$' -bench Yardsticks -benchtime 1x
func BenchmarkYardsticks(b *testing.B) {
	for n := 2; n <= 6; n++ {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n >= 5 && os.Getenv("PGASROB_BENCH_BIG") == "" {
				b.Skip("N >= 5 takes a while; set PGASROB_BENCH_BIG=1")
			}
			p, err := pgas.Load("../examples/1to1-fixed.pgas")
			if err != nil {
				b.Fatal(err)
			}
			var r *Result
			for i := 0; i < b.N; i++ {
				if r, err = Decide(p, n, Options{Yardsticks: true}); err != nil {
					b.Fatal(err)
				}
			}
			y := r.Yardsticks
			if y == nil {
				b.Fatalf("no yardsticks: %v %s", r.Verdict, r.Reason)
			}
			b.ReportMetric(float64(y.ProductStates), "product-states")
			b.ReportMetric(float64(y.ReducedY), "reduced-Y")
			b.ReportMetric(float64(y.YMarks), "Y-marks")
			b.ReportMetric(float64(y.ProductStates)/float64(y.ReducedY), "product/reduced-Y")
			b.ReportMetric(float64(y.ProductStates)/float64(y.YMarks), "product/Y-marks")
		})
	}
}

// BenchmarkRingShared runs the shared exploration alone (one job, no
// per-type helper) on the robust ring: the figure to profile.
//
//	PGASROB_BENCH_BIG=1 go test ./cycles -run '^$' -bench RingShared -benchtime 1x -cpuprofile cpu.prof
func BenchmarkRingShared(b *testing.B) {
	for n := 3; n <= 6; n++ {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n >= 5 && os.Getenv("PGASROB_BENCH_BIG") == "" {
				b.Skip("N >= 5 takes a while; set PGASROB_BENCH_BIG=1")
			}
			benchDecide(b, "../examples/1to1-fixed.pgas", n, Options{Exploration: Shared, Jobs: 1, noHelper: true})
		})
	}
}
