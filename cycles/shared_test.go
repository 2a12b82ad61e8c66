package cycles

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// The shared exploration against the per-type search, cycle type by cycle
// type (with All every searched type has its own outcome, and every
// NonEmpty one a witness that conclude certified in the plain semantics),
// and against the oracle's direct exploration of X(P,N) where that is
// complete. withoutHelper tests the shared search alone; with the helper
// (by turns with one job, beside it with two) its answers mix with the
// shared search's.
func TestSharedAgrees(t *testing.T) {
	type prog struct {
		p    *pgas.Program
		src  string
		maxN int
	}
	var progs []prog
	for _, p := range examplePrograms(t) {
		progs = append(progs, prog{p, "", 3})
	}
	r := rand.New(rand.NewPCG(7, 2026))
	for i := 0; i < 70; i++ {
		gp := gen.Generate(r, gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 3 + r.IntN(3), Loops: r.IntN(4) == 0})
		p, err := pgas.Compile("rand", []byte(gp.String()))
		if err != nil {
			t.Fatal(err)
		}
		maxN := 2
		if len(p.Trans) <= 7 {
			maxN = 3
		}
		progs = append(progs, prog{p, gp.String(), maxN})
	}
	verdicts := map[Verdict]int{}
	oracleChecked := 0
	for _, pr := range progs {
		p := pr.p
		for n := 2; n <= pr.maxN; n++ {
			base := Options{Jobs: 1, MaxStates: 100_000, All: true}
			per, err := Decide(p, n, base)
			if err != nil {
				t.Fatal(err)
			}
			opt := withoutHelper(base)
			opt.Exploration = Shared
			sh, err := Decide(p, n, opt)
			if err != nil {
				t.Fatalf("%s N = %d shared: %v", p.File, n, err)
			}
			if per.Verdict == Unknown || sh.Verdict == Unknown {
				continue
			}
			verdicts[sh.Verdict]++
			if per.Verdict != sh.Verdict {
				t.Fatalf("%s N = %d: per-type %v, shared %v\n%s", p.File, n, per.Verdict, sh.Verdict, pr.src)
			}
			for i := range per.Types {
				a, b := per.Types[i], sh.Types[i]
				if a.Outcome == automata.Unknown || b.Outcome == automata.Unknown {
					continue // a budget: the state bound is per type in one, for all in the other
				}
				if a.Outcome != b.Outcome {
					t.Fatalf("%s N = %d, cycle type %v: per-type %v, shared %v (%s; %d states)\n%s", p.File, n, a.Cycle, a.Outcome, b.Outcome, b.Reason, sh.Stats.States, pr.src)
				}
				if b.Outcome == automata.NonEmpty && b.SymmetricTo == nil && (b.Witness == nil || len(b.Witness.HB) == 0) {
					t.Fatalf("%s N = %d, cycle type %v: no certified witness", p.File, n, b.Cycle)
				}
			}
			// Without All: the same first feasible cycle type, alone and
			// with the helper (jobs 0: 1 without the helper).
			for _, jobs := range []int{0, 1, 2} {
				fopt := Options{Jobs: jobs, MaxStates: 100_000, Exploration: Shared}
				if jobs == 0 {
					fopt = withoutHelper(fopt)
					fopt.Jobs = 1
				}
				first, err := Decide(p, n, fopt)
				if err != nil {
					t.Fatal(err)
				}
				if first.Verdict != per.Verdict && first.Verdict != Unknown {
					t.Fatalf("%s N = %d jobs %d: shared first %v, per-type %v", p.File, n, jobs, first.Verdict, per.Verdict)
				}
				if first.Verdict == Unknown {
					continue
				}
				if per.Verdict == NotRobust && first.Witness.Cycle.String() != per.Witness.Cycle.String() {
					t.Fatalf("%s N = %d jobs %d: first cycle type %v, per-type %v", p.File, n, jobs, first.Witness.Cycle, per.Witness.Cycle)
				}
				// And the same witness: the one of the type's own search.
				if per.Verdict == NotRobust && !reflect.DeepEqual(first.Witness.Sigma, per.Witness.Sigma) {
					t.Fatalf("%s N = %d jobs %d: the witness differs from the per-type search's", p.File, n, jobs)
				}
			}
			if sh.Verdict == RunError {
				continue
			}
			o := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 50_000, MaxQueue: 4})
			switch {
			case o.Violation != nil:
				oracleChecked++
				if sh.Verdict != NotRobust {
					t.Fatalf("%s N = %d: shared %v, the oracle found a violation\n%s", p.File, n, sh.Verdict, pr.src)
				}
			case o.Complete && o.RangeErr == nil:
				oracleChecked++
				if sh.Verdict != Robust {
					t.Fatalf("%s N = %d: shared %v, the oracle explored everything without a violation\n%s", p.File, n, sh.Verdict, pr.src)
				}
			}
		}
	}
	t.Logf("verdicts %v, %d confirmed by the oracle", verdicts, oracleChecked)
	if verdicts[Robust] < 20 || verdicts[NotRobust] < 15 || oracleChecked < 60 {
		t.Fatalf("too few decided programs to mean much: %v, oracle %d", verdicts, oracleChecked)
	}
}

// Without the partial-order reduction and the symmetry, type by type, on
// random programs at N = 2 (the reduction's choice of rank uses the union
// of the started cells over the set, so it is tested on its own).
func TestSharedAgreesUnreduced(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 7))
	compared := 0
	for i := 0; i < 40; i++ {
		gp := gen.Generate(r, gen.Config{Addrs: 2, Queues: 1 + r.IntN(2), Values: 2, Cmds: 3 + r.IntN(2)})
		p, err := pgas.Compile("rand", []byte(gp.String()))
		if err != nil {
			t.Fatal(err)
		}
		for _, unreduced := range []bool{false, true} {
			opt := Options{Jobs: 1, MaxStates: 50_000, All: true, NoSymmetry: true, NoReduction: unreduced}
			per, err := Decide(p, 2, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Exploration = Shared
			sh, err := Decide(p, 2, withoutHelper(opt))
			if err != nil {
				t.Fatal(err)
			}
			for k := range per.Types {
				a, b := per.Types[k].Outcome, sh.Types[k].Outcome
				if a == automata.Unknown || b == automata.Unknown {
					continue
				}
				compared++
				if a != b {
					t.Fatalf("no reduction %v, cycle type %v: per-type %v, shared %v\n%s", unreduced, per.Types[k].Cycle, a, b, gp)
				}
			}
		}
	}
	if compared < 200 {
		t.Fatalf("only %d cycle types compared", compared)
	}
}

// Budgets end the shared exploration in UNKNOWN, never in a verdict it
// has not earned: a state bound, a memory bound too small for its tables,
// and a timeout, on the robust ring at N = 5 (ROBUST when unbounded, in
// about 30,000 states).
func TestSharedBudgets(t *testing.T) {
	p, err := pgas.Load("../examples/1to1-fixed.pgas")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opt  Options
		want string
	}{
		{"states", Options{MaxStates: 5_000}, "state budget"},
		{"memory", Options{MaxBytes: 1 << 20}, "memory budget"},
		{"time", Options{Timeout: time.Millisecond}, "time budget"},
	} {
		for _, jobs := range []int{1, 2} {
			opt := c.opt
			opt.Jobs, opt.Exploration = jobs, Shared
			r, err := Decide(p, 5, opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != Unknown || !strings.Contains(r.Reason, c.want) {
				t.Errorf("%s, %d jobs: %v (%s), want UNKNOWN for the %s", c.name, jobs, r.Verdict, r.Reason, c.want)
			}
		}
	}
	r, err := Decide(p, 5, Options{Exploration: Shared})
	if err != nil || r.Verdict != Robust {
		t.Fatalf("unbounded: %v %v, want ROBUST", r.Verdict, err)
	}
}

// withoutHelper returns opt with the shared exploration's per-type helper
// turned off, so that a test compares the shared search alone with the
// per-type search.
func withoutHelper(opt Options) Options {
	opt.noHelper = true
	return opt
}
