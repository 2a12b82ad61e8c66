package tso

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// BenchmarkParallelFrontier: the private family (robust, every attack
// searched, breadth-first) with one job and 1 or 2 frontier workers per
// attack's search, in one run; depth-first is the sequential default for
// reference (on a robust program both orders visit the same states).
// Without the partial-order reduction: with it every search of the family
// stays below automata.ParallelAfter states (2,450 states for all 42
// attacks at N = 7), so the workers never start.
// cpu-s/op beside ns/op shows the workers' CPU cost; on a machine shared
// with other work the wall-time speedup is depressed.
//
//	go test ./tso -run '^$' -bench ParallelFrontier -count 5 | benchstat -col /search -
func BenchmarkParallelFrontier(b *testing.B) {
	for n := 6; n <= 7; n++ {
		p, err := prog.ParseProgram(fmt.Sprintf("private-%d", n), []byte(gen.Private(n)))
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			opt  Options
		}{
			{"depth-first", Options{Jobs: 1, NoReduction: true}},
			{"workers=1", Options{Jobs: 1, NoReduction: true, BreadthFirst: true, Workers: 1}},
			{"workers=2", Options{Jobs: 1, NoReduction: true, BreadthFirst: true, Workers: 2}},
		} {
			b.Run(fmt.Sprintf("N=%d/search=%s", n, c.name), func(b *testing.B) {
				if n == 7 && testing.Short() {
					b.Skip("N = 7 without -short only")
				}
				var r *Result
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					r = check(p, prog.TSO, c.opt)
					if r.Verdict != prog.Robust {
						b.Fatalf("private %d: %v (%s)", n, r.Verdict, r.Reason)
					}
				}
				b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
				reportSearch(b, r)
			})
		}
	}
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
