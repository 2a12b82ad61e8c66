package proofs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// tiny programs: every computation of X(P,N) is enumerated, so they must
// stay very small (3 statements, 2 addresses).
func tiny(r *rand.Rand) gen.Config {
	return gen.Config{Addrs: 2, Queues: 1 + r.IntN(2), Values: 2, Cmds: 3}
}

const (
	maxEvents = 60    // loop-free tiny programs never get near this
	maxComps  = 20000 // computations per program before it is skipped
)

// For every tiny program, over all of C(P,N):
//
//   - Theorem 5: some computation is violating iff some violating
//     computation is in normal form (Definition 4, normalForm);
//   - Lemma 13 (as corrected, docs/deviations.md): a computation is
//     violating iff it has a (CYC) cycle through at least two ↔-classes;
//   - Lemma 12: the set of comp(σ) over the paths σ of normalform.Y is the
//     set of normal-form computations;
//   - the enumeration agrees with the oracle's verdict (a check of both).
func TestTheorem5Lemma12Lemma13(t *testing.T) {
	theorem5Lemma12Lemma13(t, count(600), tiny)
}

// tinyShmem is tiny with the OpenSHMEM commands (contexts, puts, gets,
// fences, quiets, atomics, signals, awaits): Theorem 5 and Lemma 12 with
// contexts (docs/deviations.md, "The normal form with contexts").
func tinyShmem(r *rand.Rand) gen.Config {
	c := tiny(r)
	c.Queues, c.Shmem = 1, true
	return c
}

func TestTheorem5Lemma12Lemma13Shmem(t *testing.T) {
	theorem5Lemma12Lemma13(t, count(300), tinyShmem)
}

func theorem5Lemma12Lemma13(t *testing.T, total int, cfg func(*rand.Rand) gen.Config) {
	skipped, violating, checked := 0, 0, 0
	for seed := uint64(1); seed <= uint64(total); seed++ {
		g, p, n := program(t, seed, cfg)
		n = 2
		comps, ok := computations(p, n, maxEvents, maxComps)
		if !ok {
			skipped++
			continue
		}
		lang, ok := yLanguage(p, n, maxEvents, 4*maxComps, false)
		if !ok {
			skipped++
			continue
		}
		checked++
		anyViol, anyNF := false, false
		nfSet := map[string]bool{}
		for _, tau := range comps {
			hb := pgas.HappensBefore(tau)
			viol := hb.Violating()
			_, nf := normalForm(tau, hb.Class)
			if nf {
				nfSet[key(tau)] = true
			}
			anyViol = anyViol || viol
			anyNF = anyNF || viol && nf
			if c := cyc(tau, hb.Class, n, true); c != viol {
				report(t, seed, n, g, func(p *pgas.Program) bool { return lemma13Fails(p, n) },
					"Lemma 13: violating="+yes(viol)+" but (CYC) cycle found="+yes(c)+" on\n"+formatTau(p, tau))
				return
			}
		}
		if anyViol {
			violating++
		}
		if anyViol != anyNF {
			report(t, seed, n, g, func(p *pgas.Program) bool { return theorem5Fails(p, n) },
				"Theorem 5: violating computation exists="+yes(anyViol)+", violating normal-form computation exists="+yes(anyNF))
			return
		}
		o := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 100_000})
		// The oracle does not explore past an atomic add that wraps (the
		// answer is then that run-time error, docs/shmem-calculus.md), while
		// the enumeration runs X's total semantics through it: with a wrap
		// reached, only "oracle violation ⇒ enumeration violation" holds.
		wrapped := o.RangeErr != nil && o.RangeErr.What == "atomic"
		if o.Complete && (o.Violation != nil) != anyViol && !(wrapped && anyViol) {
			t.Errorf("seed %d: oracle violation %v, enumeration %v\n%s", seed, o.Violation != nil, anyViol, g)
		}
		for k := range nfSet {
			if !lang[k] {
				report(t, seed, n, g, func(p *pgas.Program) bool { return lemma12Fails(p, n) },
					"Lemma 12: a normal-form computation that Y does not generate")
				return
			}
		}
		for k := range lang {
			if !nfSet[k] {
				report(t, seed, n, g, func(p *pgas.Program) bool { return lemma12Fails(p, n) },
					"Lemma 12: Y generates a computation that is not a normal-form computation of X")
				return
			}
		}
	}
	t.Logf("%d programs: %d checked (%d with a violation), %d skipped (too many computations)", total, checked, violating, skipped)
	if !testing.Short() && skipped*3 > total {
		t.Errorf("%d of %d programs skipped", skipped, total)
	}
	if !testing.Short() && violating*20 < checked {
		t.Errorf("only %d of %d programs violating: the check proves little", violating, checked)
	}
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func formatTau(p *pgas.Program, tau []pgas.Event) string {
	s := ""
	for i, e := range tau {
		s += "  " + string(rune('0'+i%10)) + " " + p.Describe(e) + "\n"
	}
	return s
}

func lemma13Fails(p *pgas.Program, n int) bool {
	comps, ok := computations(p, n, maxEvents, maxComps)
	if !ok {
		return false
	}
	for _, tau := range comps {
		hb := pgas.HappensBefore(tau)
		if cyc(tau, hb.Class, n, true) != hb.Violating() {
			return true
		}
	}
	return false
}

func theorem5Fails(p *pgas.Program, n int) bool {
	comps, ok := computations(p, n, maxEvents, maxComps)
	if !ok {
		return false
	}
	anyViol, anyNF := false, false
	for _, tau := range comps {
		hb := pgas.HappensBefore(tau)
		_, nf := normalForm(tau, hb.Class)
		anyViol = anyViol || hb.Violating()
		anyNF = anyNF || hb.Violating() && nf
	}
	return anyViol != anyNF
}

func lemma12Fails(p *pgas.Program, n int) bool {
	comps, ok := computations(p, n, maxEvents, maxComps)
	if !ok {
		return false
	}
	lang, ok := yLanguage(p, n, maxEvents, 4*maxComps, false)
	if !ok {
		return false
	}
	nf := map[string]bool{}
	for _, tau := range comps {
		if _, ok := normalForm(tau, pgas.HappensBefore(tau).Class); ok {
			nf[key(tau)] = true
		}
	}
	if len(nf) != len(lang) {
		return true
	}
	for k := range nf {
		if !lang[k] {
			return true
		}
	}
	return false
}
