package cycles_test

import (
	"math/rand/v2"
	"testing"

	"pgasrob/cycles"
)

// TestHintRandom is TestHintChangesNothing on random programs of the
// generator, at N = 2 and 3.
func TestHintRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 7))
	cycles.HintOver(t, randomPrograms(t, r, 12, mixedConfig), 3)
}
