package tso

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// peakRSS reads the process's peak resident set size (Linux only; 0
// elsewhere).
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

func reportSearch(b *testing.B, r *Result) {
	b.ReportMetric(float64(r.Stats.States), "states")
	b.ReportMetric(r.Stats.StatesPerSecond(), "states/s")
	b.ReportMetric(r.Stats.BytesPerState(), "B/state")
	b.ReportMetric(float64(peakRSS())/(1<<20), "peakRSS-MiB")
}

// BenchmarkRing: the ring family of issue 4, N = 2..8 (N = 7 only without
// -short, N = 8 only "check"). "check" is the robustness check as run by
// default: the fences refute every attack syntactically, so it searches
// nothing. "search" decides every attack by SC reachability anyway
// (NoPrune), which is the exponential part, and "sc" explores the plain SC
// state space.
func BenchmarkRing(b *testing.B) {
	for n := 2; n <= 8; n++ {
		if n == 7 && testing.Short() {
			continue
		}
		p, err := prog.ParseProgram(fmt.Sprintf("ring-%d", n), []byte(gen.Ring(n)))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("check/N=%d", n), func(b *testing.B) {
			var r *Result
			for i := 0; i < b.N; i++ {
				r = check(p, prog.TSO, Options{Jobs: 1})
				if r.Verdict != prog.Robust {
					b.Fatalf("ring %d: %v", n, r.Verdict)
				}
			}
			reportSearch(b, r)
		})
		if n == 8 {
			continue // the search alone takes minutes and most of the memory
		}
		b.Run(fmt.Sprintf("search/N=%d", n), func(b *testing.B) {
			var r *Result
			for i := 0; i < b.N; i++ {
				r = check(p, prog.TSO, Options{Jobs: runtime.NumCPU(), NoPrune: true, MaxBytes: 1536 << 20})
				if r.Verdict != prog.Robust {
					b.Fatalf("ring %d: %v (%s)", n, r.Verdict, r.Reason)
				}
			}
			reportSearch(b, r)
		})
		b.Run(fmt.Sprintf("sc/N=%d", n), func(b *testing.B) {
			var st int64
			for i := 0; i < b.N; i++ {
				res := reachSC(p, nil, Options{MaxBytes: 1536 << 20})
				st = res.Stats.States
				if res.Outcome != 0 {
					b.Fatalf("ring %d: %v", n, res.Outcome)
				}
				b.ReportMetric(res.Stats.StatesPerSecond(), "states/s")
				b.ReportMetric(res.Stats.BytesPerState(), "B/state")
			}
			b.ReportMetric(float64(st), "states")
		})
	}
}

// BenchmarkCorpus checks every corpus file under TSO and PSO.
func BenchmarkCorpus(b *testing.B) {
	dir := corpusDir(b)
	for _, e := range readExpected(b, dir) {
		p := loadCorpus(b, dir, e.file)
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			b.Run(e.file+"/"+m.String(), func(b *testing.B) {
				var r *Result
				for i := 0; i < b.N; i++ {
					r = check(p, m, Options{Jobs: 1, All: true})
				}
				reportSearch(b, r)
			})
		}
	}
}

// BenchmarkUnfencedRing: the not-robust ring of issue 10, where a
// violation is near, under both search strategies in one run.
//
//	go test ./tso -run '^$' -bench UnfencedRing -count 5 | benchstat -col /strategy -
func BenchmarkUnfencedRing(b *testing.B) {
	for n := 2; n <= 8; n++ {
		p, err := prog.ParseProgram(fmt.Sprintf("uring-%d", n), []byte(gen.UnfencedRing(n)))
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range []struct {
			name string
			bfs  bool
		}{{"depth-first", false}, {"breadth-first", true}} {
			b.Run(fmt.Sprintf("N=%d/strategy=%s", n, s.name), func(b *testing.B) {
				var r *Result
				for i := 0; i < b.N; i++ {
					r = check(p, prog.TSO, Options{Jobs: 1, BreadthFirst: s.bfs})
					if r.Verdict != prog.NotRobust || r.WitnessErr != nil {
						b.Fatalf("ring %d: %v %v", n, r.Verdict, r.WitnessErr)
					}
				}
				reportSearch(b, r)
			})
		}
	}
}

// BenchmarkPrivate: the private family of issue 10 (robust, every attack
// searched), N = 2..8, with the partial-order reduction (the default) and
// without it (N <= 6; N = 6 only without -short).
func BenchmarkPrivate(b *testing.B) {
	for n := 2; n <= 8; n++ {
		p, err := prog.ParseProgram(fmt.Sprintf("private-%d", n), []byte(gen.Private(n)))
		if err != nil {
			b.Fatal(err)
		}
		for _, off := range []bool{false, true} {
			if off && (n > 6 || n == 6 && testing.Short()) {
				continue
			}
			b.Run(fmt.Sprintf("N=%d/reduction=%v", n, !off), func(b *testing.B) {
				var r *Result
				start := cpuTime()
				for i := 0; i < b.N; i++ {
					r = check(p, prog.TSO, Options{Jobs: 1, NoReduction: off})
					if r.Verdict != prog.Robust {
						b.Fatalf("private %d: %v (%s)", n, r.Verdict, r.Reason)
					}
				}
				reportCPU(b, start)
				reportSearch(b, r)
			})
		}
	}
}

// BenchmarkTrencher runs the reference tool (PGASROB_TRENCHER, the path of
// a binary you built from its sources) with -r on the same families, side by
// side "go test -bench"; ns/op is wall time including its process start.
// scripts/trencher-compare measures CPU time of both tools instead.
func BenchmarkTrencher(b *testing.B) {
	bin := os.Getenv("PGASROB_TRENCHER")
	if bin == "" {
		b.Skip("PGASROB_TRENCHER is not set (a binary of the reference tool, built by you from its own sources)")
	}
	if _, err := os.Stat(bin); err != nil {
		b.Skipf("PGASROB_TRENCHER: %v", err)
	}
	dir := b.TempDir()
	for _, f := range []struct {
		name string
		gen  func(int) string
		max  int
	}{{"uring", gen.UnfencedRing, 8}, {"private", gen.Private, 6}, {"ring", gen.Ring, 5}} {
		for n := 2; n <= f.max; n++ {
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.txt", f.name, n))
			if err := os.WriteFile(file, []byte(f.gen(n)), 0o644); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/N=%d", f.name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if out, err := exec.Command(bin, "-r", file).CombinedOutput(); err != nil {
						b.Fatalf("%s -r %s: %v\n%s", bin, file, err, out)
					}
				}
			})
		}
	}
}
