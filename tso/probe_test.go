package tso

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/tso/family"
	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestProbeStops: the probe (probe.go) on two programs whose attacks
// were measured one by one (docs/measurements.md, "Work-stealing
// queues"). `private` N = 6 has 36 attacks of 50 or 51 states each,
// below its cap of 4 × 30 transitions: the probe settles every one
// infeasible and leaves none open. The Chase-Lev queue with one thief
// has 58 transitions and 41 attacks, the first of which needs 471
// states: the probe stops at it, so every attack is left open, reset to
// be searched again, and the one capped search (232 states) is the
// waste.
func TestProbeStops(t *testing.T) {
	for _, c := range []struct {
		name, src string
		open      bool
	}{{"private-6", gen.Private(6), false}, {"chaselev-1-2-4", family.ChaseLev(1, 2, 4), true}} {
		p, err := prog.ParseProgram(c.name, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		opt := Options{Jobs: 1}
		res, todo, err := newResult(ctx, p, prog.TSO, opt)
		if err != nil {
			t.Fatal(err)
		}
		capStates := probeCap(p, DefaultPrepassStates)
		open, used, wasted := res.probe(ctx, todo, 1, opt, capStates, func(ctx context.Context, i int, o *Options) AttackResult {
			return checkAttack(ctx, p, criteria[Robustness], res.Attacks[i].Attack, res.Attacker, *o, defaultMaxBytes)
		})
		if !c.open {
			if len(open) != 0 || wasted.States != 0 {
				t.Fatalf("%s: %d attacks open, %d states wasted; want none", c.name, len(open), wasted.States)
			}
			for _, i := range todo {
				if o := res.Attacks[i].Outcome; o != Infeasible {
					t.Fatalf("%s: attack %s %v after the probe", c.name, res.Attacks[i].Attack.Format(p), o)
				}
			}
			continue
		}
		if !slices.Equal(open, todo) || wasted.States != capStates || used.States != capStates {
			t.Fatalf("%s: open %d of %d, used %d, wasted %d; want all open and %d states", c.name, len(open), len(todo), used.States, wasted.States, capStates)
		}
		for _, i := range open {
			if ar := res.Attacks[i]; ar.Outcome != RefutedSyntactically || ar.Stats.States != 0 {
				t.Fatalf("%s: open attack %s not reset: %v", c.name, ar.Attack.Format(p), ar.Outcome)
			}
		}
	}
}

// TestProbeCheapPaysNothing: a program whose attacks all end within the
// probe's cap costs exactly its per-attack searches (the combined search
// never runs): `private` N = 2..8, whose attacks need 8N+2 or 8N+3
// states against a cap of 20N.
func TestProbeCheapPaysNothing(t *testing.T) {
	for n := 2; n <= 8; n += 2 {
		p, err := prog.ParseProgram(fmt.Sprintf("private-%d", n), []byte(gen.Private(n)))
		if err != nil {
			t.Fatal(err)
		}
		d := check(p, prog.TSO, Options{Jobs: 1})
		a := check(p, prog.TSO, Options{Jobs: 1, All: true, CombinedStates: -1})
		if d.Verdict != prog.Robust || d.Stats.States != a.Stats.States {
			t.Errorf("%s: %v in %d states; per attack %v in %d", p.File, d.Verdict, d.Stats.States, a.Verdict, a.Stats.States)
		}
	}
}

// TestProbeAgrees: on random programs, with the probe's cap at its
// default (4 states per transition) or eager (1, on every other program)
// and its combined search small (16 states, so that it often finds
// nothing and the pre-pass rounds go on),
// the check gives the per-attack check's verdict, with one job and with
// two (the probe settles the same attacks whatever the scheduling), and
// its witness's attack is feasible per attack. The probe must have
// stopped on some programs and settled all attacks of others, so that a
// probe that never runs cannot pass.
func TestProbeAgrees(t *testing.T) {
	defer func(f, b int64) { probeFactor, probeCombined = f, b }(probeFactor, probeCombined)
	probeCombined = 16
	count := sized(1000, 10000)
	if testing.Short() {
		count = 300
	}
	stopped, settled := 0, 0
	for i := 0; i < count; i++ {
		probeFactor = []int64{4, 1}[i%2]
		r := rand.New(rand.NewPCG(uint64(35000+i), 35))
		src := gen.Generate(r, gen.Config{Threads: 2 + i%3, Instrs: 3 + i%3, Fences: i%2 == 0})
		p, err := prog.ParseProgram(fmt.Sprintf("seed%d", 35000+i), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		a := check(p, prog.TSO, Options{Jobs: 1, All: true, CombinedStates: -1})
		for _, jobs := range []int{1, 2} {
			d := check(p, prog.TSO, Options{Jobs: jobs})
			if d.Verdict != a.Verdict || d.WitnessErr != nil {
				t.Fatalf("%s, %d jobs: %v (%v), per attack %v\n%s", p.File, jobs, d.Verdict, d.WitnessErr, a.Verdict, src)
			}
			if d.Verdict == prog.NotRobust && !slices.Contains(a.FeasibleAttacks(), d.Witness.Attack) {
				t.Fatalf("%s: witness's attack %s is not feasible per attack\n%s", p.File, d.Witness.Attack.Format(p), src)
			}
		}
		res, todo, err := newResult(context.Background(), p, prog.TSO, Options{})
		if err != nil || len(todo) < 2 {
			continue
		}
		open, _, _ := res.probe(context.Background(), todo, 1, Options{}, probeCap(p, DefaultPrepassStates), func(ctx context.Context, i int, o *Options) AttackResult {
			return checkAttack(ctx, p, criteria[Robustness], res.Attacks[i].Attack, res.Attacker, *o, defaultMaxBytes)
		})
		if len(open) > 0 {
			stopped++
		} else if !res.anyFeasible(todo) {
			settled++
		}
	}
	t.Logf("stopped %d, settled %d", stopped, settled)
	if stopped == 0 || settled == 0 {
		t.Errorf("the probe stopped on %d and settled every attack of %d of %d programs; want some of each", stopped, settled, count)
	}
	if n := combinedAnomalies.Load(); n > 0 {
		t.Errorf("%d goals of the combined search named no attack to search or did not replay", n)
	}
}
