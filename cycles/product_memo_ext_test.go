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
	cycles.MoveMemoOver(t, randomPrograms(t, r, 16, mixedConfig), 5)
}
