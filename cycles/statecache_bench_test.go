package cycles

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
)

// BenchmarkStateCache decides programs per type, one job, with a memory
// budget of 1/2, 1/5 and 1/10 of what the largest visited set of the
// unbounded decision took, with and without Options.StateCache
// (automata/overflow.go), and reports answered (1: a verdict, 0:
// UNKNOWN), states (visits beyond the budget included), cpu-s/op and
// the time factor against the unbounded decision of the same run.
// PGASROB_BENCH_BIG=1 adds the larger programs.
func BenchmarkStateCache(b *testing.B) {
	cases := []struct {
		file string
		n    int
	}{{"prodcons", 4}, {"waitq", 4}, {"1to1-fixed", 5}}
	if os.Getenv("PGASROB_BENCH_BIG") != "" {
		cases = append(cases, struct {
			file string
			n    int
		}{"prodcons", 5})
	}
	for _, c := range cases {
		p, err := pgas.Load("../examples/" + c.file + ".pgas")
		if err != nil {
			b.Fatal(err)
		}
		base := Options{Jobs: 1, Exploration: PerType, Timeout: 10 * time.Minute}
		full, err := Decide(p, c.n, base)
		if err != nil {
			b.Fatal(err)
		}
		var need int64
		for _, tr := range full.Types {
			need = max(need, tr.Stats.Bytes)
		}
		for _, f := range []int64{2, 5, 10} {
			for _, cache := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/N=%d/budget=1÷%d/cache=%v", c.file, c.n, f, cache), func(b *testing.B) {
					opt := base
					// The visited sets get 7/8 of MaxBytes (the memos an
					// eighth): the largest needs f times its share.
					opt.MaxBytes, opt.StateCache = need*8/7/f, cache
					r, cpu := decideTimed(b, "../examples/"+c.file+".pgas", c.n, opt)
					answered := 0.0
					if r.Verdict != Unknown {
						answered = 1
						if r.Verdict != full.Verdict {
							b.Fatalf("%v with the budget, %v without", r.Verdict, full.Verdict)
						}
					}
					b.ReportMetric(answered, "answered")
					b.ReportMetric(float64(r.Stats.States), "states")
					b.ReportMetric(cpu, "cpu-s/op")
					b.ReportMetric(r.Elapsed.Seconds()/full.Elapsed.Seconds(), "time-factor")
					b.ReportMetric(float64(need)/(1<<20), "need-MiB")
				})
			}
		}
	}
}
