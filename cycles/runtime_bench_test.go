package cycles

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// BenchmarkRunErrCheckC runs decide's run-time error check alone on the
// realistic C programs of examples/shmem/real and the halo kernel at
// N = 4 (issue 35's targets), with reduce.go's reducer, which never takes
// a rank alone inside a loop (reduce=old, what the check had before), and
// with reduce_err.go's (reduce=new), in one run for benchstat (-col
// /reduce). The value domain is first widened as decide widens it
// (cmd/pgasrob/widen.go), outside the timed region, so that both rows
// check the program decide checks last. Each check stops at 60 s
// (PGASROB_BENCH_TIMEOUT, a duration); "answered" is 1 when it
// finished. PGASROB_BENCH_REAL=FILE,… picks files (base names without
// .c); PGASROB_BENCH_N5=1 adds N = 5. Metrics: states, states/s, CPU
// seconds (one worker), B/state and the peak RSS of the process (reset per run where
// Linux allows).
func BenchmarkRunErrCheckC(b *testing.B) {
	files, _ := filepath.Glob("../examples/shmem/real/*.c")
	files = append(files, "../examples/shmem/kernels/halo.c")
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
		if f != "" {
			pick[f] = true
		}
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".c")
		name := filepath.Base(filepath.Dir(f)) + "/" + base
		if len(pick) > 0 && !pick[base] && !pick[name] {
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
			p = widenedForCheck(b, p, n, timeout)
			for _, how := range []errReduction{errAcyclic, errLoops} {
				tag := map[errReduction]string{errAcyclic: "old", errLoops: "new"}[how]
				b.Run(fmt.Sprintf("%s/N=%d/reduce=%s", name, n, tag), func(b *testing.B) {
					benchCheck(b, p, n, how, timeout)
				})
			}
		}
	}
}

func benchCheck(b *testing.B, p *pgas.Program, n int, how errReduction, timeout time.Duration) {
	var states, answered int64
	var bytes, peak int64
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		y, err := normalform.New(p, n)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		resetPeakRSS()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		cpu0 := cpuTime()
		rerr, st, why := findRuntimeErrorBy(ctx, y, Options{Jobs: 1}, automata.DefaultMaxBytes, how)
		cpu += cpuTime() - cpu0
		cancel()
		if rerr != nil {
			b.Fatalf("run-time error after widening: %v", rerr.Err)
		}
		if why == "" {
			answered++
		}
		states += st.States
		bytes += st.Bytes
		peak = max(peak, peakRSS())
	}
	b.ReportMetric(float64(states)/float64(b.N), "states")
	b.ReportMetric(float64(states)/max(b.Elapsed().Seconds(), 1e-9), "states/s")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s")
	b.ReportMetric(float64(bytes)/float64(max(states, 1)), "B/state")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(float64(answered)/float64(b.N), "answered")
}

// widenedForCheck is p with its inferred value domain widened as decide
// does, until the check meets no value that leaves it.
func widenedForCheck(b *testing.B, p *pgas.Program, n int, timeout time.Duration) *pgas.Program {
	for p.Widen != nil {
		y, err := normalform.New(p, n)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		rerr, _, _ := findRuntimeErrorBy(ctx, y, Options{Jobs: 1}, automata.DefaultMaxBytes, errLoops)
		cancel()
		var re *pgas.RangeError
		if rerr == nil || !errors.As(rerr.Err, &re) {
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
