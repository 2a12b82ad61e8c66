package proofs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas/gen"
)

// Theorem 16 on programs whose values are a wide window with negative
// values and sentinels up to C's int (gen.Config.Wide: windows -3..2,
// -1..1337, INT_MIN..INT_MAX, 0..INT_MAX, the checker's widest). The
// decision packs such values in two's complement (normalform) and wraps
// atomic adds into LO..HI (pgas.Program.WrapValue); the oracle keeps them
// as int64 and shares none of that code. Both must agree verdict for
// verdict, run-time errors (values that leave the window, adds that wrap)
// included.
func TestTheorem16Wide(t *testing.T) {
	theorem16(t, count(400), func(r *rand.Rand) gen.Config {
		c := small(r)
		c.Wide, c.Regs = true, 1+r.IntN(2)
		return c
	})
}

// The same with the OpenSHMEM commands: atomic adds, swaps and compare-
// and-swaps of sentinels, awaits comparing with them.
func TestTheorem16WideShmem(t *testing.T) {
	theorem16(t, count(300), func(r *rand.Rand) gen.Config {
		c := smallShmem(r)
		c.Wide = true
		return c
	})
}
