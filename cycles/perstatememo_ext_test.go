package cycles_test

import (
	"math/rand/v2"
	"testing"

	"pgasrob/cycles"
)

// TestMoveMemoRandom is TestMoveMemoChangesNothing on random programs of
// the generator, at N = 2 and 3: the memo of move outcomes changes no
// search of any cycle type (states, transitions, outcome, witness).
func TestMoveMemoRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	types, nonEmpty := 0, 0
	var hits int64
	for _, p := range randomPrograms(t, r, 16, mixedConfig) {
		ty, ne, h, err := cycles.MoveMemoAgrees(p, 3)
		if err != "" {
			t.Fatal(err)
		}
		types, nonEmpty, hits = types+ty, nonEmpty+ne, hits+h
	}
	if types < 100 || nonEmpty < 5 || hits == 0 {
		t.Fatalf("%d cycle types compared, %d non-empty, %d moves replayed", types, nonEmpty, hits)
	}
	t.Logf("%d cycle types, %d non-empty, %d moves replayed", types, nonEmpty, hits)
}
