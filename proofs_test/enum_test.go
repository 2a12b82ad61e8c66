package proofs_test

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// computations enumerates C(P,N) by brute force over pgas.Machine: every
// event sequence from the initial state that ends with every queue empty,
// with at most maxEvents events. It stops and reports false after limit
// computations (or a run-time error), so callers can skip big programs.
func computations(p *pgas.Program, n, maxEvents, limit int) ([][]pgas.Event, bool) {
	m := pgas.NewMachine(p, n)
	var out [][]pgas.Event
	ok := true
	var path []pgas.Event
	var rec func(x *pgas.XState)
	rec = func(x *pgas.XState) {
		if !ok {
			return
		}
		if x.Final() {
			out = append(out, append([]pgas.Event(nil), path...))
			if len(out) > limit {
				ok = false
				return
			}
		}
		steps, errs := m.Steps(x)
		if len(errs) > 0 {
			ok = false
			return
		}
		for _, st := range steps {
			if len(path)+len(st.Events) > maxEvents {
				continue
			}
			k := len(path)
			path = append(path, st.Events...)
			rec(st.Next)
			path = path[:k]
		}
	}
	rec(m.Initial())
	return out, ok
}

// yLanguage enumerates comp(σ) for the paths σ of normalform.Y with at
// most maxEvents letters (every state of Y is final; the auxiliary states
// are collapsed into the moves). Lemma 12 says these are the normal-form
// computations.
func yLanguage(p *pgas.Program, n, maxEvents, limit int, sc bool) (map[string]bool, bool) {
	y, err := normalform.New(p, n)
	if err != nil {
		return nil, false
	}
	y.AllParts = true // Lemma 12 is about the paper's Y (no settled-popa rule)
	y.SC = sc
	lang := map[string]bool{}
	ok := true
	var sigma []normalform.HEvent
	var rec func(s automata.State)
	rec = func(s automata.State) {
		if !ok {
			return
		}
		tau, _ := y.Computation(sigma)
		lang[key(tau)] = true
		if len(lang) > limit {
			ok = false
			return
		}
		moves, errs := y.Moves(s)
		if len(errs) > 0 {
			ok = false
			return
		}
		for i := range moves {
			mv := &moves[i]
			if len(sigma)+len(mv.Events) > maxEvents {
				continue
			}
			k := len(sigma)
			sigma = append(sigma, mv.Events...)
			rec(mv.Target)
			sigma = sigma[:k]
		}
	}
	s0 := make(automata.State, y.Words())
	y.Initial(s0)
	rec(s0)
	return lang, ok
}

// key names a computation by its letters E = K × RNK × ((RNK × ADR) ∪ {⊥})
// plus the transition that produced each event, so that two different
// commands with equal letters are told apart, and the item a context's
// pop belongs to (0 for every other event).
func key(tau []pgas.Event) string {
	var b strings.Builder
	for _, e := range tau {
		fmt.Fprintf(&b, "%d.%d.%v.%d.%d.%d.%d.%d;", e.Kind, e.Rank, e.HasCell, e.Cell.Rank, e.Cell.Addr, e.Trans, e.Queue, e.Item)
	}
	return b.String()
}

// normalForm is Definition 4, written from the definition and nothing
// else: τ is in normal form iff it splits as τ1·τ2·τ3·τ4 with only pops
// in τ2·τ3·τ4 such that (NF) holds: for non-pop a before b in τ1 in
// different ↔-classes, every a' ↔* a and b' ↔* b that land in the same
// part are in the order of a and b. It returns the split (start of each
// part) when one exists.
func normalForm(tau []pgas.Event, class []int) ([4]int, bool) {
	last := 0 // τ1 must hold every non-pop event
	for i, e := range tau {
		if !e.Kind.IsPop() {
			last = i + 1
		}
	}
	n := len(tau)
	for i1 := last; i1 <= n; i1++ {
		for i2 := i1; i2 <= n; i2++ {
			for i3 := i2; i3 <= n; i3++ {
				starts := [4]int{0, i1, i2, i3}
				if nfHolds(tau, class, starts) {
					return starts, true
				}
			}
		}
	}
	return [4]int{}, false
}

func nfHolds(tau []pgas.Event, class []int, starts [4]int) bool {
	part := func(i int) int {
		p := 0
		for k := 1; k < 4; k++ {
			if i >= starts[k] {
				p = k
			}
		}
		return p
	}
	for a := 0; a < starts[1]; a++ {
		if tau[a].Kind.IsPop() {
			continue
		}
		for b := a + 1; b < starts[1]; b++ {
			if tau[b].Kind.IsPop() || class[a] == class[b] {
				continue
			}
			for a2 := range tau {
				if class[a2] != class[a] {
					continue
				}
				for b2 := range tau {
					if class[b2] == class[b] && part(a2) == part(b2) && a2 > b2 {
						return false
					}
				}
			}
		}
	}
	return true
}

// cyc looks for a cycle of the shape (CYC) of Lemma 13 in tau:
// a1 ↔* b1 →po* c1 ↔* d1 ⇝ a2 … d_k ⇝ a1 with ⇝ = cf ∪ ↔ and all of
// a_i..d_i of rank r_i, the r_i distinct. po and cf are computed here from
// their definitions in Section 3. With nontrivial, the cycle must also
// visit at least two ↔-classes (the semantic notion of a violation);
// without it, it is the literal statement of the lemma.
func cyc(tau []pgas.Event, class []int, n int, nontrivial bool) bool {
	return len(cycTypes(tau, class, n, nontrivial, true)) > 0
}

// cycTypes returns the cycle types (rank sequences r1…rk rotated to start
// with the smallest rank, as cycles.CycleType prints them) of the (CYC)
// cycles of tau; with first, it stops at the first one.
func cycTypes(tau []pgas.Event, class []int, n int, nontrivial, first bool) map[string]bool {
	found := map[string]bool{}
	m := len(tau)
	// po*: reflexive-transitive closure of program order on non-pop events.
	po := make([][]bool, m)
	for i := range po {
		po[i] = make([]bool, m)
		po[i][i] = true
	}
	for i := 0; i < m; i++ {
		if tau[i].Kind.IsPop() {
			continue
		}
		for j := i + 1; j < m; j++ {
			if !tau[j].Kind.IsPop() && tau[j].Rank == tau[i].Rank {
				po[i][j] = true
			}
		}
	}
	// cf: e1 before e2, same cell, one of them writes, no write to the
	// cell strictly between.
	cf := make([][]bool, m)
	for i := range cf {
		cf[i] = make([]bool, m)
	}
	for i := 0; i < m; i++ {
		if !tau[i].HasCell {
			continue
		}
		for j := i + 1; j < m; j++ {
			if !tau[j].HasCell || tau[j].Cell != tau[i].Cell {
				continue
			}
			if tau[i].Kind.IsWrite() || tau[j].Kind.IsWrite() {
				cf[i][j] = true
			}
			if tau[j].Kind.IsWrite() {
				break // writes after j are separated from i by j
			}
		}
	}
	// seg[a][d]: a ↔* b →po* c ↔* d with all four of rank(a).
	seg := make([][]bool, m)
	for a := 0; a < m; a++ {
		seg[a] = make([]bool, m)
		for b := 0; b < m; b++ {
			if class[b] != class[a] || tau[b].Rank != tau[a].Rank {
				continue
			}
			for c := 0; c < m; c++ {
				if !po[b][c] || tau[c].Rank != tau[a].Rank {
					continue
				}
				for d := 0; d < m; d++ {
					if class[d] == class[c] && tau[d].Rank == tau[a].Rank {
						seg[a][d] = true
					}
				}
			}
		}
	}
	step := func(d, a int) bool { return cf[d][a] || class[d] == class[a] && d != a }
	used := make([]bool, n+1)
	var classes, ranks []int
	var search func(first, a int) bool
	search = func(start, a int) bool {
		r := tau[a].Rank
		used[r] = true
		ranks = append(ranks, r)
		defer func() { used[r] = false; ranks = ranks[:len(ranks)-1] }()
		for d := 0; d < m; d++ {
			if !seg[a][d] {
				continue
			}
			classes = append(classes, class[a], class[d])
			if step(d, start) && (!nontrivial || spans(classes)) {
				found[canonical(ranks)] = true
				if first {
					return true
				}
			}
			for a2 := 0; a2 < m; a2++ {
				if !used[tau[a2].Rank] && step(d, a2) && search(start, a2) {
					return true
				}
			}
			classes = classes[:len(classes)-2]
		}
		return false
	}
	for a := 0; a < m; a++ {
		classes = classes[:0]
		if search(a, a) {
			break
		}
	}
	return found
}

func canonical(ranks []int) string {
	lo := 0
	for i, r := range ranks {
		if r < ranks[lo] {
			lo = i
		}
	}
	rot := append(append([]int(nil), ranks[lo:]...), ranks[:lo]...)
	return fmt.Sprint(rot)
}

func spans(classes []int) bool {
	for _, c := range classes {
		if c != classes[0] {
			return true
		}
	}
	return false
}
