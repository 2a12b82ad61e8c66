package automata

import (
	"testing"
)

// TestPressureFreezes: with the pressure signal on, a search with
// CacheOverflow freezes its visited set at its floor (an eighth of its
// share), earlier than its share alone would, and still answers as the
// unbounded search. The signal turned on halfway (by Progress, as the
// command's guard turns it on during a search) freezes it there. Without
// CacheOverflow the signal changes nothing: the same states, the same
// outcome (the signal only trades memory for time where the cache can
// take over).
func TestPressureFreezes(t *testing.T) {
	frozen := 0
	for seed := int64(0); seed < 12; seed++ {
		g := layeredGraph(seed, 6, 400+int(seed)*20)
		want := Search(g, Options{})
		on := new(Pressure)
		on.Set(true)
		for _, strat := range []Strategy{BreadthFirst, DepthFirst} {
			budget := Budget{MaxBytes: 64 << 10}
			r := Search(g, Options{Strategy: strat, Budget: budget, CacheOverflow: true, Pressure: on})
			if r.Outcome != want.Outcome {
				t.Fatalf("seed %d %v: %v under pressure, %v without", seed, strat, r.Outcome, want.Outcome)
			}
			free := Search(g, Options{Strategy: strat, Budget: budget, CacheOverflow: true})
			if in, freeIn := r.Stats.States-r.Beyond, free.Stats.States-free.Beyond; want.Outcome == Empty && want.Stats.States > 1024 && (r.Beyond == 0 || in >= freeIn) {
				t.Fatalf("seed %d %v: under pressure %d states in the visited set and %d beyond; without it %d in it: want fewer in it", seed, strat, in, r.Beyond, freeIn)
			}
			if r.Stats.Beyond != r.Beyond {
				t.Fatalf("seed %d %v: Stats.Beyond %d, Result.Beyond %d", seed, strat, r.Stats.Beyond, r.Beyond)
			}
			if r.Outcome == NonEmpty {
				checkGraphPath(t, g, r.Path)
			}
			late := new(Pressure)
			r = Search(g, Options{Strategy: strat, Budget: budget, CacheOverflow: true, Pressure: late,
				ProgressEvery: 64, Progress: func(s Stats) { late.Set(s.States >= 256) }})
			if r.Outcome != want.Outcome {
				t.Fatalf("seed %d %v: %v with pressure from state 256, %v without", seed, strat, r.Outcome, want.Outcome)
			}
			if want.Outcome == Empty && want.Stats.States > 1024 && r.Beyond == 0 {
				t.Fatalf("seed %d %v: an empty graph of %d states searched without freezing after the pressure at 256", seed, strat, want.Stats.States)
			}
			if r.Beyond > 0 {
				frozen++
				if r.Stats.States-r.Beyond > 256+8*64 {
					t.Fatalf("seed %d %v: %d states in the visited set, the pressure came at 256", seed, strat, r.Stats.States-r.Beyond)
				}
			}
			if r.Outcome == NonEmpty {
				checkGraphPath(t, g, r.Path)
			}
			plain := Search(g, Options{Strategy: strat, Pressure: on})
			ref := Search(g, Options{Strategy: strat})
			if plain.Outcome != ref.Outcome || plain.Stats.States != ref.Stats.States || plain.Beyond != 0 {
				t.Fatalf("seed %d %v: without CacheOverflow the signal changed the search: %v %d states, want %v %d", seed, strat, plain.Outcome, plain.Stats.States, ref.Outcome, ref.Stats.States)
			}
		}
	}
	if frozen < 8 {
		t.Errorf("the pressure from state 256 froze %d of 24 searches, want at least 8", frozen)
	}
}

// TestPressureNil: a nil signal is never on, and the zero one is off.
func TestPressureNil(t *testing.T) {
	var nilP *Pressure
	if nilP.On() || new(Pressure).On() {
		t.Fatal("a nil or zero Pressure reads on")
	}
	p := new(Pressure)
	p.Set(true)
	if !p.On() {
		t.Fatal("Set(true) does not read on")
	}
}
