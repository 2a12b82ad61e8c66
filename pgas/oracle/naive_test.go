package oracle_test

import (
	"flag"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// naive enumerates every computation prefix of X(p, n) by depth-first
// search, with no memoisation, and asks pgas.HappensBefore of each prefix
// whether it is violating. It stops a branch at the first violating prefix
// (a violating prefix stays violating when extended and can always be
// extended to a final state by its pending pops). It is the slowest
// possible reading of the definitions, used to test Explore.
type naive struct {
	m        *pgas.Machine
	maxEv    int // longest prefix, in events; 0 for no bound
	budget   int
	violates bool
	rangeErr bool
	gaveUp   bool
	comm     *pgas.Program // if set, violations are under cf_c (HappensBeforeCommuting)
}

func (nv *naive) walk(s *pgas.XState, evs []pgas.Event) {
	if nv.violates || nv.gaveUp {
		return
	}
	nv.budget--
	if nv.budget < 0 {
		nv.gaveUp = true
		return
	}
	h := pgas.HappensBefore(evs)
	if nv.comm != nil {
		h = pgas.HappensBeforeCommuting(nv.comm, evs)
	}
	if h.Violating() {
		nv.violates = true
		return
	}
	steps, errs := nv.m.Steps(s)
	if len(errs) > 0 {
		nv.rangeErr = true
	}
	for _, st := range steps {
		next, e, wrap, err := nv.m.ApplyWrap(s, st.Move)
		if err != nil {
			panic(err)
		}
		if wrap != nil {
			// A run-time error from a state within the bound, like a
			// command that fails: the step executes, but no verdict may
			// rest on it (oracle.Result.RangeErr).
			nv.rangeErr = true
			continue
		}
		if nv.maxEv > 0 && len(evs)+len(e) > nv.maxEv {
			continue
		}
		nv.walk(next, append(evs[:len(evs):len(evs)], e...))
	}
}

var (
	naiveCount = flag.Int("naive.count", 200, "random programs TestAgainstNaive compares (raise for a longer run)")
	naiveSeed  = flag.Uint64("naive.seed", 11, "seed of TestAgainstNaive's programs")
)

// TestAgainstNaive compares Explore with the naive enumeration on random
// programs small enough for the naive search to finish: loop-free ones
// without bounds, and looping ones with both searches cut at the same
// number of events (Explore expands every state whose shortest path is
// within the bound, so it finds a violation of that length iff one
// exists). The verdicts must agree, and so must the reachability of range
// errors when there is no violation (Explore stops at a violation).
func TestAgainstNaive(t *testing.T) {
	rng := progbuild.NewRand(*naiveSeed)
	count := *naiveCount
	if testing.Short() {
		count = min(count, 50)
	}
	compared, violating, withErr := 0, 0, 0
	for i := 0; i < count; i++ {
		loops := i%4 == 3
		p := progbuild.Random(rng, 2+rng.IntN(2), loops, i%3 == 0)
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
			t.Fatalf("seed %d, program %d: %v\n%v", *naiveSeed, i, res.Err, p)
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
	}
	t.Logf("compared %d programs: %d violating, %d with range errors", compared, violating, withErr)
	if compared < count/2 || violating == 0 || violating == compared || withErr == 0 {
		t.Errorf("the sample does not exercise both verdicts and range errors")
	}
}

// TestSemanticDefinition checks the criterion of papers/README.md on every
// final computation of small programs: a computation's class graph has a
// cycle iff no sequentially consistent computation (each read/write
// followed at once by its popa and popb) has the same happens-before
// relation. This tests HappensBefore's Violating against the definition it
// replaces.
func TestSemanticDefinition(t *testing.T) {
	rng := progbuild.NewRand(13)
	checked, violating := 0, 0
	for i := 0; i < 80; i++ {
		p := progbuild.Random(rng, 2+rng.IntN(2), false, false)
		n := 1 + rng.IntN(2)
		m := pgas.NewMachine(p, n)
		var all [][]pgas.Event
		budget := 100_000
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
		if budget < 0 {
			continue
		}
		sc := map[string]bool{}
		for _, evs := range all {
			if isSC(evs) {
				sc[pgas.HappensBefore(evs).Key()] = true
			}
		}
		for _, evs := range all {
			h := pgas.HappensBefore(evs)
			if h.Violating() == sc[h.Key()] {
				t.Fatalf("violating %v but an SC computation with the same hb exists: %v\n%v", h.Violating(), sc[h.Key()], evs)
			}
			checked++
			if h.Violating() {
				violating++
			}
		}
	}
	t.Logf("checked %d computations, %d violating", checked, violating)
	if violating == 0 {
		t.Errorf("no violating computation in the sample")
	}
}

// isSC: every read/write is followed at once by its popa and popb.
func isSC(evs []pgas.Event) bool {
	for i, e := range evs {
		if e.Kind == pgas.KRead || e.Kind == pgas.KWrite {
			if i+2 >= len(evs) || evs[i+1].Kind != pgas.KPopa || evs[i+2].Kind != pgas.KPopb ||
				evs[i+1].Rank != e.Rank || evs[i+1].Queue != e.Queue || evs[i+2].Rank != e.Rank || evs[i+2].Queue != e.Queue {
				return false
			}
		}
	}
	return true
}
