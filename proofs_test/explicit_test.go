package proofs_test

import "slices"

// The literal constructions of Section 5.1 of pgas-theory-full.md on
// explicit automata: an n-headed automaton, its language
// comp(σ) = σ↓1 ⋯ σ↓n enumerated up to a length, and the product of
// Lemma 10 with its guessed states (Product). They live with the tests
// (lemma10_test.go) because only tests use them: the decision procedure
// never builds them, it replaces the guessing by a deterministic tracker
// (cycles/tracker.go).

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

// Product is the automaton W of the proof of Lemma 10: for an n-headed U
// and a finite automaton V (V.Heads = 1) over the same letters, L(W) =
// L(U) ∩ L(V). W guesses, by an ε-transition from its extra initial state,
// the state ω(k) in which V starts reading head k's word, runs one copy of
// V per head from there alongside U, and accepts when each copy ended
// where the next one was guessed to start and the last copy accepts.
//
// A state of W other than the initial one is (s_U, ω1, ω2): ω1 the
// current states of the n copies of V, ω2 the guess, kept unchanged. Only
// the states reachable from the initial one are built.
func Product(u, v *Explicit) *Explicit {
	n := u.Heads
	type wstate struct {
		su     int
		w1, w2 string // ω as one byte per head
	}
	index := map[wstate]int{}
	var states []wstate
	w := &Explicit{Heads: n}
	add := func(s wstate) int {
		if i, ok := index[s]; ok {
			return i
		}
		i := len(states) + 1 // 0 is the initial state s0W
		index[s] = i
		states = append(states, s)
		return i
	}
	// Every ω: 1..n -> S_V with ω(1) = s0V.
	omega := make([]byte, n)
	var guess func(k int)
	guess = func(k int) {
		if k == n {
			g := string(omega)
			w.Edges = append(w.Edges, Edge{From: 0, To: add(wstate{u.Init, g, g})})
			return
		}
		for sv := 0; sv < v.States; sv++ {
			if k == 0 && sv != v.Init {
				continue
			}
			omega[k] = byte(sv)
			guess(k + 1)
		}
	}
	guess(0)
	for i := 0; i < len(states); i++ {
		s := states[i]
		from := i + 1
		for _, ei := range u.outgoing(s.su) {
			e := u.Edges[ei]
			if e.Head == 0 {
				w.Edges = append(w.Edges, Edge{From: from, To: add(wstate{e.To, s.w1, s.w2})})
				continue
			}
			k := e.Head - 1
			for _, fi := range v.outgoing(int(s.w1[k])) {
				f := v.Edges[fi]
				if f.Head == 0 || f.Letter != e.Letter {
					continue
				}
				w1 := []byte(s.w1)
				w1[k] = byte(f.To)
				w.Edges = append(w.Edges, Edge{From: from, To: add(wstate{e.To, string(w1), s.w2}), Head: e.Head, Letter: e.Letter})
			}
		}
		for k := 0; k < n; k++ {
			for _, fi := range v.outgoing(int(s.w1[k])) {
				if f := v.Edges[fi]; f.Head == 0 {
					w1 := []byte(s.w1)
					w1[k] = byte(f.To)
					w.Edges = append(w.Edges, Edge{From: from, To: add(wstate{s.su, string(w1), s.w2})})
				}
			}
		}
	}
	w.States = len(states) + 1
	w.Final = make([]bool, w.States)
	for i, s := range states {
		ok := u.Final[s.su] && v.Final[s.w1[n-1]]
		for k := 0; k+1 < n && ok; k++ {
			ok = s.w1[k] == s.w2[k+1]
		}
		w.Final[i+1] = ok
	}
	return w
}
