package tso

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
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

// BenchmarkRing: the ring family of issue 4, N = 2..7 (N = 7 only without
// -short). "check" is the robustness check as run by default: the fences
// refute every attack syntactically, so it searches nothing. "search"
// decides every attack by SC reachability anyway (NoPrune), which is the
// exponential part, and "sc" explores the plain SC state space.
func BenchmarkRing(b *testing.B) {
	for n := 2; n <= 7; n++ {
		if n == 7 && testing.Short() {
			continue
		}
		p, err := ParseProgram(fmt.Sprintf("ring-%d", n), []byte(Ring(n)))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("check/N=%d", n), func(b *testing.B) {
			var r *Result
			for i := 0; i < b.N; i++ {
				r = Check(p, TSO, Options{Jobs: 1})
				if r.Verdict != Robust {
					b.Fatalf("ring %d: %v", n, r.Verdict)
				}
			}
			reportSearch(b, r)
		})
		b.Run(fmt.Sprintf("search/N=%d", n), func(b *testing.B) {
			var r *Result
			for i := 0; i < b.N; i++ {
				r = Check(p, TSO, Options{Jobs: runtime.NumCPU(), NoPrune: true, MaxBytes: 1536 << 20})
				if r.Verdict != Robust {
					b.Fatalf("ring %d: %v (%s)", n, r.Verdict, r.Reason)
				}
			}
			reportSearch(b, r)
		})
		b.Run(fmt.Sprintf("sc/N=%d", n), func(b *testing.B) {
			var st int64
			for i := 0; i < b.N; i++ {
				res := ReachSC(p, nil, Options{MaxBytes: 1536 << 20})
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
		for _, m := range []Model{TSO, PSO} {
			b.Run(e.file+"/"+m.String(), func(b *testing.B) {
				var r *Result
				for i := 0; i < b.N; i++ {
					r = Check(p, m, Options{Jobs: 1, All: true})
				}
				b.ReportMetric(float64(r.Stats.States), "states")
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
		p, err := ParseProgram(fmt.Sprintf("uring-%d", n), []byte(UnfencedRing(n)))
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
					r = Check(p, TSO, Options{Jobs: 1, BreadthFirst: s.bfs})
					if r.Verdict != NotRobust || r.WitnessErr != nil {
						b.Fatalf("ring %d: %v %v", n, r.Verdict, r.WitnessErr)
					}
				}
				reportSearch(b, r)
			})
		}
	}
}
