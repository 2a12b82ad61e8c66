package cycles

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// TestStateCacheAgrees decides the examples and random programs (with and
// without contexts) per type and shared, with a memory budget far below
// what their visited sets need and Options.StateCache: every verdict
// given is the unbounded one, and some decisions must have gone beyond
// the budget (more states than the unbounded one visited) and answered.
func TestStateCacheAgrees(t *testing.T) {
	progs := append(examplePrograms(t), randomPrograms(t, rand.New(rand.NewPCG(35, 3)), 15, mixedConfig)...)
	progs = append(progs, shmemSymPrograms(t, 20)...)
	beyond, compared := 0, 0
	for i, p := range progs {
		n := 2 + i%2
		if pgas.CheckN(p, n) != nil {
			continue
		}
		ex := PerType
		if i%3 == 0 {
			ex = Shared
		}
		full, err := Decide(p, n, Options{Jobs: 1, Exploration: ex, Timeout: time.Minute})
		if err != nil || full.Verdict == Unknown {
			continue
		}
		small, err := Decide(p, n, Options{Jobs: 1, Exploration: ex, Timeout: time.Minute, MaxBytes: 40 << 10, StateCache: true})
		if err != nil {
			t.Fatalf("%s N = %d: %v", p.File, n, err)
		}
		if small.Verdict == Unknown {
			continue
		}
		compared++
		if small.Verdict != full.Verdict {
			t.Fatalf("%s N = %d %v: %v with the state cache, %v without\n%s", p.File, n, ex, small.Verdict, full.Verdict, p)
		}
		if small.Stats.States > full.Stats.States {
			beyond++
		}
	}
	t.Logf("%d decisions compared, %d went beyond the budget", compared, beyond)
	if compared < 20 || beyond < 3 {
		t.Errorf("the test exercises too little: %d compared, %d beyond", compared, beyond)
	}
}

// TestStateCacheUnderPressure: with the memory pressure signal on from
// the start (automata.Pressure; the command's guard sets it), every
// search of the decision freezes its visited set at its floor (an eighth
// of its share, here of 64 KiB) and goes on beyond it, the move table
// stores nothing and the memos keep to their pressed size; the verdicts
// are the unbounded ones, per type and shared. (Unknown is allowed by
// time only, and for the shared exploration by its tables' budget.)
func TestStateCacheUnderPressure(t *testing.T) {
	progs := append(examplePrograms(t), randomPrograms(t, rand.New(rand.NewPCG(35, 4)), 10, mixedConfig)...)
	on := new(automata.Pressure)
	on.Set(true)
	compared, beyond := 0, 0
	for i, p := range progs {
		n := 2 + i%2
		if pgas.CheckN(p, n) != nil {
			continue
		}
		ex := PerType
		if i%3 == 0 {
			ex = Shared
		}
		full, err := Decide(p, n, Options{Jobs: 1, Exploration: ex, Timeout: 20 * time.Second})
		if err != nil || full.Verdict == Unknown || full.Stats.States > 200_000 {
			continue
		}
		pressed, err := Decide(p, n, Options{Jobs: 1, Exploration: ex, Timeout: time.Minute, MaxBytes: 64 << 10, StateCache: true, Pressure: on})
		if err != nil {
			t.Fatalf("%s N = %d: %v", p.File, n, err)
		}
		if pressed.Verdict == Unknown {
			// The shared exploration's memo tables have a budget of their
			// own, which the cache does not relieve.
			if !strings.Contains(pressed.Reason, "time") && ex != Shared {
				t.Fatalf("%s N = %d %v: UNKNOWN under pressure, not by time: %s", p.File, n, ex, pressed.Reason)
			}
			continue
		}
		compared++
		if pressed.Verdict != full.Verdict {
			t.Fatalf("%s N = %d %v: %v under pressure, %v without\n%s", p.File, n, ex, pressed.Verdict, full.Verdict, p)
		}
		if pressed.Stats.Beyond > 0 {
			beyond++
		}
	}
	t.Logf("%d decisions compared, %d went beyond the visited set", compared, beyond)
	if compared < 15 || beyond < 5 {
		t.Errorf("the test exercises too little: %d compared, %d beyond", compared, beyond)
	}
}

// TestMoveTableUnderPressure: while the signal is on the move table
// gives the moves without storing them, and stores again once it is off.
func TestMoveTableUnderPressure(t *testing.T) {
	p, err := pgas.Load("../examples/prodcons.pgas")
	if err != nil {
		t.Fatal(err)
	}
	y, err := normalform.New(p, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := make(automata.State, y.Words())
	y.Initial(s)
	pr := new(automata.Pressure)
	tab := newMoveTable(y, 1<<20)
	tab.pressure = pr
	pr.Set(true)
	mv, e := tab.entry(s)
	if e != nil || tab.bytes.Load() != 0 || len(mv) == 0 {
		t.Fatalf("under pressure: entry %v, %d bytes stored, %d moves; want no entry, nothing stored, the moves", e, tab.bytes.Load(), len(mv))
	}
	pr.Set(false)
	if _, e := tab.entry(s); e == nil || tab.bytes.Load() == 0 {
		t.Fatal("the signal off: the table still stores nothing")
	}
}
