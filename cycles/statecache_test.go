package cycles

import (
	"math/rand/v2"
	"testing"
	"time"

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
