package cycles_test

import (
	"math/rand/v2"
	"testing"

	"pgasrob/cycles"
	"pgasrob/pgas"
)

// TestTurnCompiled: a turn compiled into moves of bit ranges renames
// exactly as the field-by-field renaming does, on the examples and
// random programs at N = 3..5.
func TestTurnCompiled(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	total := 0
	for _, p := range symPrograms(t, 20) {
		for n := 3; n <= 5; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			k, err := cycles.TurnRenames(p, n, rng)
			if err != nil {
				t.Fatalf("%s N = %d: %v", p.File, n, err)
			}
			total += k
		}
	}
	t.Logf("%d renamings compared", total)
	if total < 1000 {
		t.Errorf("only %d renamings compared: the test exercises too little", total)
	}
}
