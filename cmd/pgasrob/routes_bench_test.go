package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/translate"
	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// BenchmarkRoutes runs both routes to PGAS robustness on the examples
// (N = 2, 3) and on the robust ring 1to1-fixed and the unfenced ring 1to1
// (N = 2..6) in one run (docs/translate.md, "Speed"). The exact route is
// decide's cycle-type search (--procedure automata); the instrumentation
// route is translate + tso.Check under the framework's semantics,
// translation included. Run with -benchtime=1x for the large N.
// routeBenchTimeout bounds one run; a run that hits it reports unknown=1
// and the states it explored.
const routeBenchTimeout = 5 * time.Minute

func BenchmarkRoutes(b *testing.B) {
	type prog struct {
		file string
		ns   []int
	}
	progs := []prog{{"1to1-fixed.pgas", []int{2, 3, 4, 5, 6}}, {"1to1.pgas", []int{2, 3, 4, 5, 6}}}
	files, _ := filepath.Glob("../../examples/*.pgas")
	for _, f := range files {
		base := filepath.Base(f)
		if base != "1to1.pgas" && base != "1to1-fixed.pgas" {
			progs = append(progs, prog{base, []int{2, 3}})
		}
	}
	for _, pr := range progs {
		p, err := pgas.Load(filepath.Join("../../examples", pr.file))
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(pr.file, ".pgas")
		for _, n := range pr.ns {
			b.Run(fmt.Sprintf("%s/N=%d/exact", name, n), func(b *testing.B) {
				var states int64
				for i := 0; i < b.N; i++ {
					r, err := cycles.Decide(p, n, cycles.Options{Jobs: 1, Procedure: cycles.Automata, Timeout: routeBenchTimeout})
					if err != nil {
						b.Fatal(err)
					}
					states = r.Stats.States
					if r.Verdict == cycles.Unknown {
						b.ReportMetric(1, "unknown")
					}
				}
				b.ReportMetric(float64(states), "states")
			})
			b.Run(fmt.Sprintf("%s/N=%d/instrumentation", name, n), func(b *testing.B) {
				var states int64
				for i := 0; i < b.N; i++ {
					tr, err := translate.Translate(p, n)
					if err != nil {
						b.Fatal(err)
					}
					tp, err := tsoprog.ParseProgram(pr.file, tr.Text)
					if err != nil {
						b.Fatal(err)
					}
					r, err := tso.Check(tp, tsoprog.PSO, tso.Options{Jobs: 1, Timeout: routeBenchTimeout})
					if err != nil {
						b.Fatal(err)
					}
					states = r.Stats.States
					if r.Verdict == tsoprog.Unknown {
						b.ReportMetric(1, "unknown")
					}
				}
				b.ReportMetric(float64(states), "states")
			})
		}
	}
}
