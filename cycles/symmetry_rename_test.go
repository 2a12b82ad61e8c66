package cycles

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
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
			k, err := turnRenames(p, n, rng)
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

// turnRenames checks the compiled turns of every cycle type of p at N = n
// (symmetry_rename.go) against rename, field by field, on reachable states and
// on such states with random values in the fields of Y, μ and the
// written-cell bits (the renamings only move bits, so any values will
// do). It returns the number of renamings compared.
func turnRenames(p *pgas.Program, n int, rng *rand.Rand) (int, error) {
	y, err := normalform.New(p, n)
	if err != nil {
		return 0, nil
	}
	cache := newMoveTable(y, 64<<20)
	checked := 0
	for _, c := range CycleTypes(n) {
		prod := newProduct(y, c, cache.moves)
		ts := newTypeSym(prod, classesOf(p, n), turnsOf(p, n, c))
		if ts == nil || len(ts.turns) == 0 {
			continue
		}
		states := reachable(prod, 20, rng)
		for i := range 20 {
			s := slices.Clone(states[i%len(states)])
			for r := 1; r <= n; r++ {
				for _, f := range ts.fields[r] {
					f.Set(s, rng.Uint64())
				}
				prod.mu[r-1].Set(s, rng.Uint64())
			}
			for h := 2; h <= normalform.Heads; h++ {
				for _, f := range prod.tl.written[h] {
					f.Set(s, rng.Uint64())
				}
			}
			states = append(states, s)
		}
		want, got := make(automata.State, prod.width), make(automata.State, prod.width)
		for _, s := range states {
			for j, tn := range ts.turns {
				ts.rename(s, tn.perm, tn.k, want)
				ts.renameTurn(s, j, got)
				if !slices.Equal(want, got) {
					return checked, fmt.Errorf("%v turn %v: compiled %x, field by field %x", c, tn.perm, got, want)
				}
				checked++
			}
		}
	}
	return checked, nil
}
