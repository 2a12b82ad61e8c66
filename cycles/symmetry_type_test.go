package cycles

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// symPrograms are the examples and random programs, whose rank arguments
// (rank, 1, N, N - rank + 1, rank % N + 1) give every kind of group: all
// permutations, every rank but a constant one, rotations, none.
func symPrograms(t *testing.T, random int) []*pgas.Program {
	t.Helper()
	return append(examplePrograms(t), randomPrograms(t, rand.New(rand.NewPCG(23, 2026)), random, mixedConfig)...)
}

// TestTypeSymCanon: the canonical form of the symmetry inside a cycle
// type is a fixed point and the same for every member of an orbit (the
// state renamed by random permutations of the free ranks, turned or not).
func TestTypeSymCanon(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	checked, differ := 0, 0
	for _, p := range symPrograms(t, 30) {
		for n := 3; n <= 4; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			c, d, _, err := typeSymOrbits(p, n, rng)
			if err != nil {
				t.Fatalf("%s N = %d: %v", p.File, n, err)
			}
			checked, differ = checked+c, differ+d
		}
	}
	t.Logf("%d renamed states checked, %d of them differ from the original", checked, differ)
	if differ < 1000 {
		t.Errorf("only %d renamed states differ from their original: the test exercises too little", differ)
	}
}

// TestTypeSymAgrees: every cycle type has the same outcome searched up
// to the symmetry inside it as without, on the examples and random
// programs; a violation found up to symmetry comes with a witness that
// certifies (searched again without the symmetry).
func TestTypeSymAgrees(t *testing.T) {
	reduced, feasible, fewer := 0, 0, 0
	for _, p := range symPrograms(t, 120) {
		for n := 2; n <= 3; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			for _, c := range CycleTypes(n) {
				with, active, err := typeSymSearch(p, n, c, true, 30_000)
				if err != nil || !active {
					continue
				}
				reduced++
				without, _, _ := typeSymSearch(p, n, c, false, 30_000)
				if with.Outcome == automata.Unknown || without.Outcome == automata.Unknown {
					continue
				}
				if with.Outcome != without.Outcome {
					t.Fatalf("%s N = %d %v: %v up to symmetry, %v without", p.File, n, c, with.Outcome, without.Outcome)
				}
				if with.Outcome == automata.NonEmpty {
					feasible++
					if err := with.Witness.certify(p, n, false); err != nil {
						t.Fatalf("%s N = %d %v: witness: %v", p.File, n, c, err)
					}
				} else if with.Stats.States < without.Stats.States {
					fewer++
				}
			}
		}
	}
	t.Logf("%d cycle types with a symmetry inside, %d feasible, %d infeasible ones with fewer states", reduced, feasible, fewer)
	if reduced < 200 || feasible < 20 || fewer < 50 {
		t.Errorf("the test exercises too little: %d types, %d feasible, %d with fewer states", reduced, feasible, fewer)
	}
}

// reachable returns up to max states of prod reachable from its initial
// state, without any reduction: the first levels breadth first, then
// the states along random walks, which reach the later parts where
// written-cell bits are set.
func reachable(prod *product, max int, rng *rand.Rand) []automata.State {
	var out []automata.State
	seen := map[string]bool{}
	add := func(t automata.State) {
		if k := key(t); !seen[k] {
			seen[k] = true
			out = append(out, slices.Clone(t))
		}
	}
	prod.Initial(add)
	init := out[0]
	for i := 0; i < len(out) && len(out) < max/2; i++ {
		prod.Successors(out[i], func(_ automata.Label, t automata.State) { add(t) })
	}
	for walk := 0; walk < 4*max && len(out) < max; walk++ {
		s := init
		for range 60 {
			var next []automata.State
			prod.Successors(s, func(_ automata.Label, t automata.State) { next = append(next, slices.Clone(t)) })
			if len(next) == 0 {
				break
			}
			s = next[rng.IntN(len(next))]
			add(s)
		}
	}
	return out
}

func key(s automata.State) string {
	b := make([]byte, 0, 8*len(s))
	for _, w := range s {
		for i := 0; i < 8; i++ {
			b = append(b, byte(w>>(8*i)))
		}
	}
	return string(b)
}

// typeSymOrbits checks the canonical form of the symmetry inside each
// cycle type of p at N = n on up to 300 reachable states per type: it is
// a fixed point, and the same for the state renamed by random permutations
// of the free ranks, turned or not. It returns the renamed states checked,
// how many differ from their original and how many have another canonical
// form than their original, an error for a program without contexts
// (with contexts the canonical form may keep several states of one orbit:
// symmetry_ctx.go).
func typeSymOrbits(p *pgas.Program, n int, rng *rand.Rand) (checked, differ, split int, err error) {
	y, err := normalform.New(p, n)
	if err != nil {
		return 0, 0, 0, nil
	}
	cache := newMoveTable(y, 64<<20)
	for _, c := range CycleTypes(n) {
		prod := newProduct(y, c, cache.moves)
		ts := newTypeSym(prod, classesOf(p, n), turnsOf(p, n, c))
		if ts == nil {
			continue
		}
		check := newTypeSym(newProduct(y, c, cache.moves), ts.classes, ts.turns)
		for _, s := range reachable(prod, 300, rng) {
			want := slices.Clone(ts.canon(s))
			if got := ts.canon(want); !slices.Equal(got, want) {
				return checked, differ, split, fmt.Errorf("%v: canon is not a fixed point", c)
			}
			for range 3 {
				perm := make([]int, n+1)
				for r := range perm {
					perm[r] = r
				}
				for _, cl := range ts.classes {
					sh := slices.Clone(cl)
					rng.Shuffle(len(sh), func(i, j int) { sh[i], sh[j] = sh[j], sh[i] })
					for i, r := range cl {
						perm[r] = sh[i]
					}
				}
				other := slices.Clone(check.rename(s, perm, 0, check.out))
				turned := -1
				if len(ts.turns) > 0 && rng.IntN(2) == 0 {
					turned = rng.IntN(len(ts.turns))
					tn := ts.turns[turned]
					other = slices.Clone(check.rename(other, tn.perm, tn.k, check.turned))
				}
				_ = turned
				if !slices.Equal(other, s) {
					differ++
					// The renaming maps the product onto itself: the
					// successors of the renamed state are the renamed
					// successors, and acceptance is kept.
					if err := equivariant(prod, check, s, other, perm, ts.turns); err != nil {
						return checked, differ, split, fmt.Errorf("%v: %v", c, err)
					}
				}
				if err := renameSpec(check, s, perm, ts.turns, rng); err != nil {
					return checked, differ, split, fmt.Errorf("%v: %v", c, err)
				}
				if got := ts.canon(other); !slices.Equal(got, want) {
					if !p.HasCtx() {
						return checked, differ, split, fmt.Errorf("%v: two members of one orbit have different canonical forms", c)
					}
					split++
				}
				checked++
			}
		}
	}
	return checked, differ, split, nil
}

// typeSymSearch searches cycle type c of p at N = n with the symmetry
// inside it (sym) or without, reporting whether there is such a symmetry.
func typeSymSearch(p *pgas.Program, n int, c CycleType, sym bool, maxStates int64) (tr TypeResult, active bool, err error) {
	y, err := normalform.New(p, n)
	if err != nil {
		return tr, false, err
	}
	cache := newMoveTable(y, 64<<20)
	active = newTypeSym(newProduct(y, c, cache.moves), classesOf(p, n), turnsOf(p, n, c)) != nil
	opt := Options{MaxStates: maxStates, Workers: 1, NoSymmetry: !sym}
	return searchType(p, y, c, cache, opt, context.Background(), 1<<30, nil, nil), active, nil
}

// equivariant checks that other, which is s renamed by perm and then
// possibly turned, has as successors exactly the successors of s renamed
// the same way (found by renaming each and comparing sets), and accepts
// exactly when s does. The renaming is recovered by trying perm alone and
// perm followed by each turn.
func equivariant(prod *product, ts *typeSym, s, other automata.State, perm []int, turns []turn) error {
	if prod.Accepting(s) != prod.Accepting(other) {
		return fmt.Errorf("acceptance not kept by a renaming")
	}
	maps := []func(automata.State) automata.State{func(x automata.State) automata.State {
		return slices.Clone(ts.rename(x, perm, 0, ts.out))
	}}
	for _, tn := range turns {
		maps = append(maps, func(x automata.State) automata.State {
			return slices.Clone(ts.rename(slices.Clone(ts.rename(x, perm, 0, ts.out)), tn.perm, tn.k, ts.turned))
		})
	}
	succ := func(x automata.State) map[string]bool {
		m := map[string]bool{}
		prod.Successors(x, func(_ automata.Label, t automata.State) { m[key(t)] = true })
		return m
	}
	want := succ(other)
	for _, f := range maps {
		if !slices.Equal(f(s), other) {
			continue
		}
		got := map[string]bool{}
		prod.Successors(s, func(_ automata.Label, t automata.State) { got[key(f(t))] = true })
		if len(got) != len(want) {
			return fmt.Errorf("a renamed state has %d successors, the renamed successors are %d", len(want), len(got))
		}
		for k := range got {
			if !want[k] {
				return fmt.Errorf("a renamed successor is not a successor of the renamed state")
			}
		}
		return nil
	}
	return fmt.Errorf("no renaming found that maps the state onto its image")
}

// renameSpec checks rename against its definition on s with random
// written-cell bits added (any bits decode): after renaming by perm and
// turning by each turn (or none), rank r's block of Y and its μ are those
// of perm's image, pair i is pair i+k with its cell renamed, and the bit
// of cell (r, a) is the bit of cell (perm(r), a), read back through the
// tracker's own decoding.
func renameSpec(ts *typeSym, s automata.State, perm []int, turns []turn, rng *rand.Rand) error {
	p := ts.prod
	s = slices.Clone(s)
	for h := 2; h <= normalform.Heads; h++ {
		for _, f := range p.tl.written[h] {
			f.Set(s, rng.Uint64())
		}
	}
	n := p.y.N
	cases := []turn{{perm: perm}}
	for _, tn := range turns {
		// perm followed by the turn, as one renaming.
		comp := make([]int, n+1)
		for r := range comp {
			comp[r] = tn.perm[perm[r]]
		}
		cases = append(cases, turn{perm: comp, k: tn.k})
	}
	var before, after tracker
	before, after = p.newTracker(), p.newTracker()
	p.tl.load(s, &before)
	for _, tc := range cases {
		out := slices.Clone(ts.rename(s, tc.perm, tc.k, ts.out))
		p.tl.load(out, &after)
		for r := 1; r <= n; r++ {
			q := tc.perm[r]
			fr, fq := ts.fields[r], ts.fields[q]
			for i := range fr {
				if fr[i].Get(s) != fq[i].Get(out) {
					return fmt.Errorf("field %d of rank %d not moved to rank %d", i, r, q)
				}
			}
			if p.mu[r-1].Get(s) != p.mu[q-1].Get(out) {
				return fmt.Errorf("μ of rank %d not moved to rank %d", r, q)
			}
			for k := 1; k <= n; k++ {
				fr, fq := p.y.TargetFields(r, k), p.y.TargetFields(q, tc.perm[k])
				for i := range fr {
					if fr[i].Get(s) != fq[i].Get(out) {
						return fmt.Errorf("field %d of rank %d about %d not moved to rank %d about %d", i, r, k, q, tc.perm[k])
					}
				}
			}
			for a := 0; a < ts.addrs; a++ {
				from, to := (r-1)*ts.addrs+a, (q-1)*ts.addrs+a
				for h := 2; h <= normalform.Heads; h++ {
					if before.wrote(h, from) != after.wrote(h, to) {
						return fmt.Errorf("written bit of cell (%d,%d) in part %d not moved to (%d,%d)", r, a, h, q, a)
					}
				}
			}
		}
		L := len(before.pairs)
		for i, pr := range before.pairs {
			got := after.pairs[(i+tc.k)%L]
			want := pr
			if cellOf(p.tl.pair[i].Get(s)) >= 0 {
				want.cell = int32((tc.perm[int(pr.cell)/ts.addrs+1]-1)*ts.addrs + int(pr.cell)%ts.addrs)
			}
			want.r1, want.r2 = got.r1, got.r2
			if got != want {
				return fmt.Errorf("pair %d: %+v renamed to %+v, want %+v", i, pr, got, want)
			}
		}
	}
	return nil
}
