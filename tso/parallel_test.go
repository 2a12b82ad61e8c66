package tso

import (
	"github.com/pgasrob/pgasrob/automata"
	"reflect"
	"testing"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestParallelFrontierAgrees: on the reference corpus, every attack's
// breadth-first search with 2 frontier workers gives the sequential
// search's outcome, state and transition counts and SC path, and the
// checks their verdict and witness (automata's parallel frontier is exact,
// so any difference is a bug of Fork: a shared scratch buffer, a lost
// overflow).
func TestParallelFrontierAgrees(t *testing.T) {
	defer func(n int) { automata.ParallelAfter = n }(automata.ParallelAfter)
	automata.ParallelAfter = 0
	dir := corpusDir(t)
	for _, e := range readExpected(t, dir) {
		p := loadCorpus(t, dir, e.file)
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			opt := Options{Jobs: 1, All: true, BreadthFirst: true, NoPrune: true, MaxStates: 5000}
			seq := check(p, m, opt)
			opt.Workers = 2
			par := check(p, m, opt)
			if seq.Verdict != par.Verdict || seq.Reason != par.Reason {
				t.Fatalf("%s %v: sequential %v (%s), parallel %v (%s)", e.file, m, seq.Verdict, seq.Reason, par.Verdict, par.Reason)
			}
			if seq.Stats.States != par.Stats.States || seq.Stats.Transitions != par.Stats.Transitions {
				t.Fatalf("%s %v: %d/%d states/transitions sequential, %d/%d parallel", e.file, m,
					seq.Stats.States, seq.Stats.Transitions, par.Stats.States, par.Stats.Transitions)
			}
			for i := range seq.Attacks {
				a, b := &seq.Attacks[i], &par.Attacks[i]
				if a.Outcome != b.Outcome || a.Bits != b.Bits || !reflect.DeepEqual(a.path, b.path) {
					t.Fatalf("%s %v attack %d: sequential %v (%d bits, path of %d), parallel %v (%d bits, path of %d)",
						e.file, m, i, a.Outcome, a.Bits, len(a.path), b.Outcome, b.Bits, len(b.path))
				}
			}
			if (seq.Witness == nil) != (par.Witness == nil) || seq.Witness != nil && !reflect.DeepEqual(seq.Witness.Steps, par.Witness.Steps) {
				t.Fatalf("%s %v: witnesses differ", e.file, m)
			}
		}
	}
}
