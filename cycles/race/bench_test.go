package race_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// benchPrograms are the repository's examples the comparison runs on:
// the C message-passing and ordering tests at N = 2 and 3.
func benchPrograms(b testing.TB) []*pgas.Program {
	fs, _ := filepath.Glob("../../examples/shmem/*.c")
	var ps []*pgas.Program
	for _, f := range fs {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		p, err := cfront.Compile(f, src, cfront.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// BenchmarkCriteriaPGAS decides robustness (cycles.Decide, one job) and
// race freedom (race.Decide) on the same programs, reporting the states
// of each; the target is a race check within 2× of robustness.
func BenchmarkCriteriaPGAS(b *testing.B) {
	all := benchPrograms(b)
	// the race-free ones: their race search visits everything, as the
	// robustness search of a robust program does
	var free []*pgas.Program
	for _, p := range all {
		if race.Decide(p, 2, race.Options{}).Verdict == race.RaceFree {
			free = append(free, p)
		}
	}
	for _, set := range []struct {
		name string
		ps   []*pgas.Program
	}{{"all", all}, {"racefree", free}} {
		benchSet(b, set.name, set.ps)
	}
}

func benchSet(b *testing.B, name string, ps []*pgas.Program) {
	for _, n := range []int{2, 3} {
		b.Run(name+"/robustness/N="+string(rune('0'+n)), func(b *testing.B) {
			var states int64
			for b.Loop() {
				states = 0
				for _, p := range ps {
					r, err := cycles.Decide(p, n, cycles.Options{Jobs: 1, All: true})
					if err != nil {
						b.Fatal(err)
					}
					states += r.Stats.States
				}
			}
			b.ReportMetric(float64(states), "states")
		})
		b.Run(name+"/race/N="+string(rune('0'+n)), func(b *testing.B) {
			var states int64
			for b.Loop() {
				states = 0
				for _, p := range ps {
					states += race.Decide(p, n, race.Options{}).Stats.States
				}
			}
			b.ReportMetric(float64(states), "states")
		})
	}
}
