package automata

import "slices"

// This file and product.go are the literal constructions of Section 5.1 of
// pgas-theory-full.md on explicit automata: an n-headed automaton, its
// language comp(σ) = σ↓1 ⋯ σ↓n enumerated up to a length, and (product.go)
// the product of Lemma 10 with its guessed states. They are references for
// tests: the decision procedure never builds them, it replaces the guessing
// by a deterministic tracker (cycles/tracker.go).

// Edge is a transition of an explicit automaton. Head 0 marks an
// ε-transition (Letter is then ignored); heads count from 1.
type Edge struct {
	From, To int
	Head     int
	Letter   byte
}

// Explicit is an n-headed finite automaton (Heads = 1: an ordinary finite
// automaton) with states 0..States-1.
type Explicit struct {
	Heads  int
	States int
	Init   int
	Final  []bool
	Edges  []Edge
	out    [][]int
}

func (a *Explicit) outgoing(s int) []int {
	if a.out == nil || len(a.out) != a.States {
		a.out = make([][]int, a.States)
		for i, e := range a.Edges {
			a.out[e.From] = append(a.out[e.From], i)
		}
	}
	return a.out[s]
}

// Language returns the words comp(σ) of the paths from Init to a final
// state whose letters number at most maxLen. The enumeration keeps, per
// state, the words each head has produced so far, so it is exponential in
// maxLen: use it on small automata only.
func (a *Explicit) Language(maxLen int) map[string]bool {
	type node struct {
		s     int
		heads []string
	}
	key := func(n node) string {
		k := []byte{byte(n.s), byte(n.s >> 8)}
		for _, h := range n.heads {
			k = append(k, byte(len(h)))
			k = append(k, h...)
		}
		return string(k)
	}
	lang := map[string]bool{}
	seen := map[string]bool{}
	start := node{a.Init, make([]string, a.Heads)}
	work := []node{start}
	seen[key(start)] = true
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		total := 0
		for _, h := range n.heads {
			total += len(h)
		}
		if a.Final[n.s] {
			var w []byte
			for _, h := range n.heads {
				w = append(w, h...)
			}
			lang[string(w)] = true
		}
		for _, i := range a.outgoing(n.s) {
			e := a.Edges[i]
			m := node{e.To, slices.Clone(n.heads)}
			if e.Head > 0 {
				if total == maxLen {
					continue
				}
				m.heads[e.Head-1] += string(e.Letter)
			}
			if k := key(m); !seen[k] {
				seen[k] = true
				work = append(work, m)
			}
		}
	}
	return lang
}
