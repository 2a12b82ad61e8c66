package tso

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/family"
	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// symmetryDisagreement compares, on one random program with identical
// threads, the per-attack check with the thread symmetry and without
// (each attack's outcome must be the same: every P_A's goal is reachable
// with it iff without, symmetry.go), the default check (combined search
// and pre-pass rounds, with the symmetry) against the per-attack verdict,
// and, when oracle is set, the brute-force oracle. Every NOT ROBUST must
// carry a witness that replays, and no goal path of the symmetry may
// lack a counterpart in the program (unfold). It returns "" or what
// differs.
// twin says whether some instrumented system of the program had a class.
func symmetryDisagreement(p *prog.Program, m prog.Model, withOracle bool) (diff string, twin bool) {
	anomalies := combinedAnomalies.Load()
	defer func() {
		if diff == "" && combinedAnomalies.Load() != anomalies {
			diff = "a goal of the combined search did not replay or unfold"
		}
	}()
	twin = planSymmetry(newCombinedSystem(p, nil, false, 4)) != nil
	base := Options{Jobs: 1, All: true, CombinedStates: -1, MaxStates: 200_000}
	off := base
	off.NoSymmetry = true
	a, b := check(p, m, base), check(p, m, off)
	if strings.Contains(a.Reason, unfoldFailed) {
		return a.Reason, twin
	}
	if a.Verdict != b.Verdict {
		return fmt.Sprintf("per attack: %v with symmetry, %v without", a.Verdict, b.Verdict), twin
	}
	for i := range a.Attacks {
		if x, y := a.Attacks[i].Outcome, b.Attacks[i].Outcome; x != y {
			return fmt.Sprintf("attack %s: %v with symmetry, %v without", a.Attacks[i].Attack.Format(p), x, y), twin
		}
	}
	if a.WitnessErr != nil {
		return fmt.Sprintf("witness with symmetry: %v", a.WitnessErr), twin
	}
	d := check(p, m, Options{Jobs: 1, MaxStates: 200_000})
	if d.Verdict != a.Verdict && a.Verdict != prog.Unknown && d.Verdict != prog.Unknown {
		return fmt.Sprintf("default check %v, per attack %v", d.Verdict, a.Verdict), twin
	}
	if d.WitnessErr != nil {
		return fmt.Sprintf("default check's witness: %v", d.WitnessErr), twin
	}
	if withOracle && a.Verdict != prog.Unknown {
		o := oracle.Robustness(p, m, oracle.Budget{MaxNodes: 200_000})
		if o.Verdict != prog.Unknown && o.Verdict != a.Verdict {
			return fmt.Sprintf("oracle %v, check %v", o.Verdict, a.Verdict), twin
		}
	}
	return "", twin
}

// twinPrograms are the random programs of the symmetry tests: up to four
// threads, half of them copies of earlier ones (gen.Config.Twins).
func twinProgram(seed uint64) (*prog.Program, string) {
	r := rand.New(rand.NewPCG(seed, 36))
	src := gen.Generate(r, gen.Config{Threads: 4, Instrs: 4, Fences: seed%3 == 0, Twins: true})
	p, err := prog.ParseProgram(fmt.Sprintf("seed%d", seed), []byte(src))
	if err != nil {
		panic(err)
	}
	return p, src
}

// TestSymmetryAgrees: on random programs with identical threads, the
// searches with the thread symmetry decide every attack as the searches
// without it, under TSO and PSO; the check's verdicts agree with the
// oracle's on every fifth program of at most three threads (four take
// the oracle seconds; pgasrob difftest --tso compares more); every
// witness replays, also those of the combined search's stages with
// twins frozen (stages.go).
func TestSymmetryAgrees(t *testing.T) {
	count, twins := sized(300, 3000), 0
	anomalies := combinedAnomalies.Load()
	for i := 0; i < count; i++ {
		seed := uint64(360000 + i)
		p, src := twinProgram(seed)
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			diff, twin := symmetryDisagreement(p, m, i%5 == 0 && len(p.Threads) <= 3)
			if diff != "" {
				t.Fatalf("%s %v: %s\n%s", p.File, m, diff, src)
			}
			if twin && m == prog.TSO {
				twins++
			}
		}
	}
	t.Logf("%d programs, %d with twins", count, twins)
	if n := combinedAnomalies.Load() - anomalies; n > 0 {
		t.Errorf("%d goals of the combined search (or its stages) named no attack left or did not replay", n)
	}
	if twins < count/4 {
		t.Errorf("only %d of %d programs have identical threads", twins, count)
	}
}

// TestSymmetryMutantCaught breaks the canonical form (the twins' labels
// are sorted but their registers stay where they were, so a state is
// replaced by one outside its orbit) and requires the comparison of
// TestSymmetryAgrees to catch it within its programs: the test of the
// symmetry can fail.
func TestSymmetryMutantCaught(t *testing.T) {
	symMutant = true
	defer func() { symMutant = false }()
	for i := 0; i < sized(300, 3000); i++ {
		p, _ := twinProgram(uint64(360000 + i))
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			if diff, _ := symmetryDisagreement(p, m, false); diff != "" {
				t.Logf("caught at %s %v: %s", p.File, m, diff)
				return
			}
		}
	}
	t.Fatal("the broken canonical form went unnoticed")
}

// TestQueueManyThieves: the queues of package family with four and six
// identical thieves, where the thieves' interleavings made the search
// UNKNOWN before the thread symmetry and the stages: the verdict argued
// next to each generator, with a witness that replays and whose attack
// the check counts as feasible.
func TestQueueManyThieves(t *testing.T) {
	for _, f := range queueFamilies {
		thieves := []int{4, 6}
		switch f.name {
		case "idemlifo-packed":
			thieves = []int{3} // robust: its whole space, 0.15 s here
		case "idemlifo-loop":
			thieves = []int{3} // the looping owner: 1.5 s here
		}
		for _, th := range thieves {
			p, err := prog.ParseProgram(fmt.Sprintf("%s-%d-2-4", f.name, th), []byte(f.gen(th, 2, 4)))
			if err != nil {
				t.Fatal(err)
			}
			r := check(p, prog.TSO, Options{Jobs: 1, Timeout: 2 * time.Minute})
			if r.Verdict != f.verdict || r.WitnessErr != nil {
				t.Fatalf("%s: %v (argued %v) %v %s", p.File, r.Verdict, f.verdict, r.WitnessErr, r.Reason)
			}
			if r.Verdict == prog.NotRobust && !slices.Contains(r.FeasibleAttacks(), r.Witness.Attack) {
				t.Errorf("%s: the witness's attack %s is not among the feasible ones", p.File, r.Witness.Attack.Format(p))
			}
		}
	}
}

// TestCanonOrbit: on states the combined program of a queue with three
// identical thieves reaches (random walks), canon gives every member of an orbit (the
// thieves permuted at random, the lock's owner renamed) the same state,
// and is idempotent.
func TestCanonOrbit(t *testing.T) {
	p, err := prog.ParseProgram("idemlifo-3", []byte(family.IdemLIFO(3, 2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	sys := newCombinedSystem(p, nil, true, 8)
	y := planSymmetry(sys)
	if y == nil || len(y.classes) != 1 || len(y.classes[0]) != 3 {
		t.Fatalf("classes %v, want the three thieves", y)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var start automata.State
	sys.Initial(func(s automata.State) { start = slices.Clone(s) })
	checked, locked := 0, 0
	// Random walks, so that deep states (a thief inside its CAS, holding
	// the lock, with the others elsewhere) are among those checked.
	for walk := 0; walk < 300; walk++ {
		st := start
		for step := 0; step < 80; step++ {
			perm := slices.Clone(y.classes[0])
			r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			moved := slices.Clone(st)
			owner := int(sys.lock.Get(st)) - 1
			for k, from := range y.classes[0] {
				to := perm[k]
				sys.pc[to].Set(moved, sys.pc[from].Get(st))
				for ri := range sys.regs[from] {
					sys.regs[to][ri].Set(moved, sys.regs[from][ri].Get(st))
				}
				if owner == from {
					sys.lock.Set(moved, uint64(to+1))
					locked++
				}
			}
			a, b := slices.Clone(st), slices.Clone(moved)
			y.canon(a)
			y.canon(b)
			if !automata.Equal(a, b) {
				t.Fatalf("state %x and its permutation %x have canonical forms %x and %x", st, moved, a, b)
			}
			c := slices.Clone(a)
			if y.canon(c); !automata.Equal(a, c) {
				t.Fatalf("canon is not idempotent on %x", a)
			}
			checked++
			var next []automata.State
			sys.Successors(st, func(_ automata.Label, s automata.State) { next = append(next, slices.Clone(s)) })
			if len(next) == 0 {
				break
			}
			st = next[r.IntN(len(next))]
		}
	}
	if locked < 100 {
		t.Fatalf("only %d of %d states checked have a thief holding the lock", locked, checked)
	}
	if checked < 1000 {
		t.Fatalf("only %d states checked", checked)
	}
}
