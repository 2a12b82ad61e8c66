package cycles

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkParallelFrontier: the robust ring with 1 or 2 frontier workers
// per search, in one run. per-type: one job, every cycle type's search
// with the given workers. shared: the default decision (two jobs: the
// shared exploration and its per-type helper), sequential (workers=1)
// against the default (auto): the run-time error check, which runs alone
// before the exploration, then takes both jobs as workers (the shared
// exploration does not fork: docs/design.md, "Parallel frontier").
// cpu-s/op beside ns/op shows what the workers cost in CPU; on a machine
// shared with other work the wall-time speedup is depressed.
//
//	PGASROB_BENCH_BIG=1 go test ./cycles -run '^$' -bench ParallelFrontier -count 5 | benchstat -col /workers -
func BenchmarkParallelFrontier(b *testing.B) {
	for _, c := range []struct {
		file    string
		search  string
		n       int
		opt     Options
		workers []int
	}{
		{"1to1-fixed", "per-type", 4, Options{Jobs: 1}, []int{1, 2}},
		{"1to1-fixed", "per-type", 5, Options{Jobs: 1}, []int{1, 2}},
		{"1to1-fixed", "shared", 5, Options{Jobs: 2, Exploration: Shared}, []int{1, 0}},
		{"1to1-fixed", "shared", 6, Options{Jobs: 2, Exploration: Shared}, []int{1, 0}},
		{"1to1-fixed", "shared-alone", 6, Options{Jobs: 2, Exploration: Shared, noHelper: true}, []int{1, 2}},
		{"1to1-fixed", "shared-alone", 7, Options{Jobs: 2, Exploration: Shared, noHelper: true}, []int{1, 2}},
		{"prodcons", "shared-alone", 4, Options{Jobs: 2, Exploration: Shared, noHelper: true}, []int{1, 2}},
		{"prodcons", "shared-alone", 5, Options{Jobs: 2, Exploration: Shared, noHelper: true}, []int{1, 2}},
	} {
		for _, w := range c.workers {
			name := fmt.Sprint(w)
			if w == 0 {
				name = "auto" // the default: what the jobs leave idle
			}
			b.Run(fmt.Sprintf("%s/%s/N=%d/workers=%s", c.file, c.search, c.n, name), func(b *testing.B) {
				if c.n >= 5 && os.Getenv("PGASROB_BENCH_BIG") == "" {
					b.Skip("N >= 5 takes a while; set PGASROB_BENCH_BIG=1")
				}
				opt := c.opt
				opt.Workers = w
				benchDecide(b, "../examples/"+c.file+".pgas", c.n, opt)
			})
		}
	}
}
