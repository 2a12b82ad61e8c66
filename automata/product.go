package automata

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
