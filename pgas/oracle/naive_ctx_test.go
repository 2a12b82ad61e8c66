package oracle_test

import (
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestAgainstNaiveCtx is TestAgainstNaive on random programs with the
// OpenSHMEM commands: unordered items, fences, quiet, atomics, blocking
// and immediate sends and put-with-signal. The memo of Explore leaves the
// issue indices of items out of its keys and numbers pending classes by
// item position; the naive search has no memo at all, so agreement checks
// both.
func TestAgainstNaiveCtx(t *testing.T) {
	rng := progbuild.NewRand(*naiveSeed + 100)
	count := *naiveCount
	if testing.Short() {
		count = min(count, 50)
	}
	compared, violating, withErr, wraps, loopsDone := 0, 0, 0, 0, 0
	for i := 0; i < count; i++ {
		loops := i%4 == 3
		p := progbuild.RandomCtx(rng, 2+rng.IntN(3), loops, i%5 == 0)
		n := 1 + rng.IntN(3)
		nv := &naive{m: pgas.NewMachine(p, n), budget: 20_000}
		b := oracle.Bounds{Timeout: 20 * time.Second}
		if loops {
			nv.maxEv, b.MaxEvents = 10, 10
		}
		nv.walk(nv.m.Initial(), nil)
		if nv.gaveUp {
			continue
		}
		res := oracle.Explore(p, n, b)
		if res.Err != nil {
			t.Fatalf("program %d: %v\n%v", i, res.Err, p)
		}
		if !loops && !res.Complete {
			t.Fatalf("program %d: loop-free program explored incompletely (%s)\n%v", i, res.Truncated, p)
		}
		if (res.Violation != nil) != nv.violates {
			t.Fatalf("program %d, N=%d: oracle violation %v, naive %v\n%v", i, n, res.Violation, nv.violates, p)
		}
		if !nv.violates && (res.RangeErr != nil) != nv.rangeErr {
			t.Fatalf("program %d, N=%d: oracle range error %v, naive %v\n%v", i, n, res.RangeErr, nv.rangeErr, p)
		}
		compared++
		if nv.violates {
			violating++
		}
		if nv.rangeErr {
			withErr++
		}
		if res.RangeErr != nil && res.RangeErr.What == "atomic" {
			wraps++
		}
		if loops {
			loopsDone++
		}
	}
	t.Logf("compared %d programs (%d with loops): %d violating, %d with range errors (%d a wrap)", compared, loopsDone, violating, withErr, wraps)
	// Wraps are rarer (a few in 180 programs): a short sample may have none.
	if compared < count/2 || violating == 0 || violating == compared || withErr == 0 || (wraps == 0 && compared >= 150) || loopsDone == 0 {
		t.Errorf("the sample does not exercise both verdicts, loops, range errors and wraps")
	}
}

// TestSemanticDefinitionCtx is TestSemanticDefinition on random context
// programs: a final computation's class graph has a cycle iff no
// sequentially consistent computation (each ↔-class's events adjacent)
// has the same happens-before relation. -naive.seed and -naive.count
// change its sample too.
func TestSemanticDefinitionCtx(t *testing.T) {
	rng := progbuild.NewRand(*naiveSeed + 6)
	checked, violating, programs := 0, 0, 0
	total := sized(80, max(120, *naiveCount/2)) // -naive.count counts at full size
	for i := 0; i < total; i++ {
		p := progbuild.RandomCtx(rng, 2+rng.IntN(3), false, false)
		n := 1 + rng.IntN(2)
		all, ok := finals(pgas.NewMachine(p, n), 100_000)
		if !ok {
			continue
		}
		programs++
		sc := map[string]bool{}
		for _, evs := range all {
			if h := pgas.HappensBefore(evs); classesAdjacent(h) {
				sc[h.Key()] = true
			}
		}
		for _, evs := range all {
			h := pgas.HappensBefore(evs)
			if h.Violating() == sc[h.Key()] {
				t.Fatalf("violating %v but an SC computation with the same hb exists: %v\n%v\n%v", h.Violating(), sc[h.Key()], evs, p)
			}
			checked++
			if h.Violating() {
				violating++
			}
		}
	}
	t.Logf("checked %d computations of %d programs, %d violating", checked, programs, violating)
	if violating == 0 || programs < total/2 {
		t.Errorf("the sample is too small or has no violating computation")
	}
}

// finals lists every final computation of m, or reports false when there
// are more than budget prefixes.
func finals(m *pgas.Machine, budget int) ([][]pgas.Event, bool) {
	var all [][]pgas.Event
	var walk func(s *pgas.XState, evs []pgas.Event)
	walk = func(s *pgas.XState, evs []pgas.Event) {
		if budget--; budget < 0 {
			return
		}
		if s.Final() {
			all = append(all, evs)
		}
		moves, _ := m.Moves(s)
		for _, mv := range moves {
			next, e, _ := m.Apply(s, mv)
			walk(next, append(evs[:len(evs):len(evs)], e...))
		}
	}
	walk(m.Initial(), nil)
	return all, budget >= 0
}

// classesAdjacent: the events of each ↔-class are consecutive.
func classesAdjacent(h *pgas.HB) bool {
	last := map[int]int{}
	for i, c := range h.Class {
		if j, ok := last[c]; ok && j != i-1 {
			return false
		}
		last[c] = i
	}
	return true
}
