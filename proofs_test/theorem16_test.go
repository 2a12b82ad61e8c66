package proofs_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

var budget = cycles.CompareBudget{
	DecideStates: 100_000,
	DecideTime:   5 * time.Second,
	Oracle:       oracle.Bounds{MaxQueue: 4, MaxNodes: 100_000, Timeout: 5 * time.Second},
}

// Theorem 16: (P, N) is robust iff every product Y^M × Z^cyc is empty.
// cycles.Decide implements the right-hand side; the oracle explores X(P,N)
// and applies the definition of a violation. On loop-free programs the
// oracle is complete, so the two must agree verdict for verdict.
func TestTheorem16(t *testing.T) {
	theorem16(t, count(1200), small)
}

// smallShmem is small with the OpenSHMEM commands.
func smallShmem(r *rand.Rand) gen.Config {
	c := small(r)
	c.Queues, c.Shmem = 1, true
	return c
}

// Theorem 16 with contexts (docs/deviations.md, "The normal form with
// contexts").
func TestTheorem16Shmem(t *testing.T) {
	theorem16(t, count(600), smallShmem)
}

func theorem16(t *testing.T, total int, cfg func(*rand.Rand) gen.Config) {
	stats := map[string]int{}
	skipped := 0
	for seed := uint64(1); seed <= uint64(total); seed++ {
		g, p, n := program(t, seed, cfg)
		c := cycles.Compare(p, n, budget)
		stats[c.Decide]++
		switch c.Status {
		case cycles.Skipped:
			skipped++
		case cycles.Disagree:
			report(t, seed, n, g, func(p *pgas.Program) bool {
				return cycles.Compare(p, n, budget).Status == cycles.Disagree
			}, "decide says "+c.Decide+", oracle says "+c.Oracle+": "+c.Detail)
		}
	}
	t.Logf("%d programs: %v, %d skipped", total, stats, skipped)
	if !testing.Short() && skipped*50 > total {
		t.Errorf("%d of %d programs skipped (more than 2%%)", skipped, total)
	}
	// Both verdicts must be well represented, or the test proves little.
	if !testing.Short() && (stats["ROBUST"]*10 < total || stats["NOT ROBUST"]*10 < total) {
		t.Errorf("verdicts too one-sided: %v", stats)
	}
}

// Programs with loops: the oracle is not always complete there, so only
// decided pairs count, and skips are allowed.
func TestTheorem16Loops(t *testing.T) {
	total := count(300)
	decided := 0
	for seed := uint64(1); seed <= uint64(total); seed++ {
		g, p, n := program(t, seed, func(r *rand.Rand) gen.Config {
			c := small(r)
			c.Loops = true
			return c
		})
		c := cycles.Compare(p, n, budget)
		switch c.Status {
		case cycles.Agree:
			decided++
		case cycles.Disagree:
			report(t, seed, n, g, func(p *pgas.Program) bool {
				return cycles.Compare(p, n, budget).Status == cycles.Disagree
			}, "decide says "+c.Decide+", oracle says "+c.Oracle+": "+c.Detail)
		}
	}
	t.Logf("%d programs with loops, %d decided by both", total, decided)
	if !testing.Short() && decided*2 < total {
		t.Errorf("only %d of %d looping programs decided by both sides", decided, total)
	}
}

// Rank symmetry (cycles/symmetry.go) must not change a verdict: Decide
// with and without it must agree on every program. (This found the bug of
// symmetry_bug_test.go.)
func TestSymmetry(t *testing.T) {
	total := count(500)
	for seed := uint64(1); seed <= uint64(total); seed++ {
		g, p, n := program(t, seed, small)
		opt := cycles.Options{Jobs: 1, MaxStates: budget.DecideStates, Timeout: budget.DecideTime}
		a, err1 := cycles.Decide(p, n, opt)
		opt.NoSymmetry = true
		b, err2 := cycles.Decide(p, n, opt)
		if err1 != nil || err2 != nil {
			t.Fatalf("seed %d: %v %v", seed, err1, err2)
		}
		if a.Verdict == cycles.Unknown || b.Verdict == cycles.Unknown || a.Verdict == b.Verdict {
			continue
		}
		report(t, seed, n, g, func(p *pgas.Program) bool {
			opt := cycles.Options{Jobs: 1, MaxStates: budget.DecideStates, Timeout: budget.DecideTime}
			a, _ := cycles.Decide(p, n, opt)
			opt.NoSymmetry = true
			b, _ := cycles.Decide(p, n, opt)
			return a != nil && b != nil && a.Verdict != b.Verdict
		}, "symmetry changes the verdict: "+a.Verdict.String()+" with, "+b.Verdict.String()+" without")
		return
	}
}
