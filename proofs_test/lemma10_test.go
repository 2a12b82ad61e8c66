package proofs_test

import (
	"math/rand/v2"
	"testing"
)

func randomExplicit(r *rand.Rand, heads, states, edges int) *Explicit {
	a := &Explicit{Heads: heads, States: states, Final: make([]bool, states)}
	for i := range a.Final {
		a.Final[i] = r.IntN(3) == 0
	}
	for i := 0; i < edges; i++ {
		e := Edge{From: r.IntN(states), To: r.IntN(states), Head: 1 + r.IntN(heads), Letter: 'a' + byte(r.IntN(2))}
		if r.IntN(6) == 0 {
			e.Head = 0 // ε
		}
		a.Edges = append(a.Edges, e)
	}
	return a
}

// Hand-checked language: two heads, head 1 reads a's and head 2 b's in
// lockstep (one transition each per round), so comp(σ) = a^p b^p.
func TestLanguageLockstep(t *testing.T) {
	u := &Explicit{Heads: 2, States: 2, Final: []bool{true, false}, Edges: []Edge{
		{From: 0, To: 1, Head: 1, Letter: 'a'},
		{From: 1, To: 0, Head: 2, Letter: 'b'},
	}}
	got := u.Language(6)
	want := map[string]bool{"": true, "ab": true, "aabb": true, "aaabbb": true}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for w := range want {
		if !got[w] {
			t.Fatalf("missing %q in %v", w, got)
		}
	}
}

// Lemma 10: L(Product(U, V)) = L(U) ∩ L(V), on random automata with
// ε-transitions, compared on all words up to length 6.
func TestLemma10Product(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	nonEmpty := 0
	for i := 0; i < 600; i++ {
		heads := 1 + r.IntN(3)
		u := randomExplicit(r, heads, 2+r.IntN(3), 3+r.IntN(6))
		v := randomExplicit(r, 1, 1+r.IntN(3), 3+r.IntN(5))
		const L = 6
		lu, lv, lw := u.Language(L), v.Language(L), Product(u, v).Language(L)
		for w := range lu {
			if lv[w] != lw[w] {
				t.Fatalf("case %d: %q: in U, V %v, W %v\nU=%+v\nV=%+v", i, w, lv[w], lw[w], u, v)
			}
		}
		for w := range lw {
			if !lu[w] {
				t.Fatalf("case %d: W accepts %q, U does not\nU=%+v\nV=%+v", i, w, u, v)
			}
		}
		if len(lw) > 1 {
			nonEmpty++
		}
	}
	if nonEmpty < 30 {
		t.Fatalf("only %d products with non-trivial languages", nonEmpty)
	}
}
