package cycles

import (
	"github.com/pgasrob/pgasrob/automata"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// TestParallelFrontierAgrees: the per-type searches with two frontier
// workers (automata's parallel breadth-first search on forks of the
// product) give the sequential searches' verdict and, type by type, the
// same outcome, states, transitions and witness, on the examples (with
// three jobs and the workers chosen by Decide) and on random programs;
// also the run-time error check, which runs alone and takes every job as
// a worker. Any difference is a bug of product.Fork (a scratch
// tracker or reducer shared between goroutines).
func TestParallelFrontierAgrees(t *testing.T) {
	defer func(n int) { automata.ParallelAfter = n }(automata.ParallelAfter)
	automata.ParallelAfter = 0
	progs := examplePrograms(t)
	// A run-time error after three rounds: its SC computation is the
	// witness of the run-time check, which must not depend on the workers.
	rterr, err := pgas.Compile("rterr", []byte(`program rterr
values 3
address x, y
queue q
register r
    write(x, rank % N + 1, y, q)
    barrier
    r <- mem[y]
    mem[x] <- r + 1
    barrier
    r <- mem[x]
    mem[x] <- r + 1
    barrier
    r <- mem[x]
    mem[x] <- r + 1
`))
	if err != nil {
		t.Fatal(err)
	}
	progs = append(progs, rterr)
	progs = append(progs, randomPrograms(t, rand.New(rand.NewPCG(11, 2026)), 40, mixedConfig)...)
	var states int64
	runErrors := 0
	for _, p := range progs {
		for n := 2; n <= 3; n++ {
			opt := Options{Jobs: 1, Workers: 1, MaxStates: 20_000, All: true}
			seq, err := Decide(p, n, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Workers = 2
			if p.File != "rand" {
				// The automatic split: three jobs, the last types'
				// searches take the idle slots as workers.
				opt.Jobs, opt.Workers = 3, 0
			}
			par, err := Decide(p, n, opt)
			if err != nil {
				t.Fatal(err)
			}
			if seq.Verdict == RunError {
				runErrors++
			}
			if !reflect.DeepEqual(seq.RunError, par.RunError) || seq.Stats.States != par.Stats.States {
				t.Fatalf("%s N = %d: run-time errors %v and %v, %d and %d states in all", p.File, n, seq.RunError, par.RunError, seq.Stats.States, par.Stats.States)
			}
			if seq.Verdict != par.Verdict || seq.Reason != par.Reason || len(seq.Types) != len(par.Types) {
				t.Fatalf("%s N = %d: sequential %v (%s), parallel %v (%s)", p.File, n, seq.Verdict, seq.Reason, par.Verdict, par.Reason)
			}
			for i := range seq.Types {
				a, b := seq.Types[i], par.Types[i]
				if a.Outcome != b.Outcome || a.Reason != b.Reason || a.Stats.States != b.Stats.States ||
					a.Stats.Transitions != b.Stats.Transitions || !reflect.DeepEqual(a.Witness, b.Witness) {
					t.Fatalf("%s N = %d type %v: sequential %v %d states %d transitions, parallel %v %d states %d transitions (or witnesses differ)",
						p.File, n, a.Cycle, a.Outcome, a.Stats.States, a.Stats.Transitions, b.Outcome, b.Stats.States, b.Stats.Transitions)
				}
			}
			states += seq.Stats.States
		}
	}
	t.Logf("%d states, %d run-time errors", states, runErrors)
	if runErrors < 2 {
		t.Errorf("%d run-time errors found, want 2 (rterr at N = 2 and 3)", runErrors)
	}
	if states < 100_000 {
		t.Errorf("only %d states searched: the test exercises too little", states)
	}
}
