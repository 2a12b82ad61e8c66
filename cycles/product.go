package cycles

import (
	"pgasrob/automata"
	"pgasrob/normalform"
)

// product is the 4-headed automaton Y^M(P,N) × Z^cyc as an on-the-fly
// system. A state is Y's words, then μ for the ranks of the cycle type, then
// the tracker.
type product struct {
	y        *normalform.Y
	cyc      CycleType
	moves    func(s automata.State) []normalform.Move
	eligible []bool // eligible[r]: rank r is in the cycle type
	mu       []automata.Field
	tl       *trackerLayout
	width    int
	cells    int
	base     tracker // scratch, reused
	muBuf    []normalform.Mu
}

func newProduct(y *normalform.Y, cyc CycleType, moves func(automata.State) []normalform.Move) *product {
	// Each product gets its own copy of the layout so that products for
	// different cycle types can be built concurrently from one Y.
	l := *y.Layout()
	p := &product{y: y, cyc: cyc, moves: moves, eligible: make([]bool, y.N+1)}
	p.cells = y.N * len(y.P.Addrs)
	for _, r := range cyc {
		p.eligible[r] = true
	}
	p.mu = l.Fields(y.N, 2)
	p.tl = newTrackerLayout(&l, len(cyc), p.cells)
	p.width = l.Words()
	p.base = p.newTracker()
	p.muBuf = make([]normalform.Mu, y.N)
	return p
}

func (p *product) newTracker() tracker {
	t := tracker{addrs: len(p.y.P.Addrs)}
	for _, pr := range p.cyc.Pairs() {
		t.pairs = append(t.pairs, pairState{r1: pr[0], r2: pr[1]})
	}
	words := (p.cells + 63) / 64
	for h := 2; h <= normalform.Heads; h++ {
		t.written[h] = make([]uint64, words)
	}
	return t
}

func (p *product) Width() int { return p.width }

func (p *product) Initial(emit func(automata.State)) {
	s := make(automata.State, p.width)
	p.y.Initial(s)
	emit(s) // μ = ⊥ everywhere and every pair waiting: all zero
}

func (p *product) Accepting(s automata.State) bool {
	t := p.newTracker()
	p.tl.load(s, &t)
	return p.accepting(s, &t)
}

func (p *product) accepting(s automata.State, t *tracker) bool {
	crossClass := false
	for _, r := range p.cyc {
		mu := normalform.Mu(p.mu[r-1].Get(s))
		if !mu.Left() {
			return false // F_{Y^M}: every marked rank has left
		}
		crossClass = crossClass || mu == normalform.MuLeave
	}
	for _, pr := range t.pairs {
		if !pr.accepted() {
			return false
		}
		// With two or more ranks a conflict edge joins events of
		// different ranks, hence different ↔-classes.
		if len(p.cyc) > 1 && (pr.st == stWatch || pr.st == stAccCf) {
			crossClass = true
		}
	}
	// A cycle that stays inside one ↔-class is not a violation (for
	// example popa →cf popb of a write whose source is its destination, or
	// all ranks meeting in one barrier).
	return crossClass
}

// each enumerates the transitions of the product from s, in a fixed order,
// with the move and the marks that produce each one.
func (p *product) each(s automata.State, f func(mv *normalform.Move, marks []normalform.Mark, t automata.State)) {
	moves := p.moves(s[:p.y.Words()])
	mu := p.muBuf
	for r := 1; r <= p.y.N; r++ {
		mu[r-1] = normalform.Mu(p.mu[r-1].Get(s))
	}
	cur := p.newTracker()
	p.tl.load(s, &cur)
	work := p.newTracker()
	target := make(automata.State, p.width)
	for i := range moves {
		mv := &moves[i]
		normalform.Markings(mv, mu, func(r int) bool { return p.eligible[r] }, func(marks []normalform.Mark, mu2 []normalform.Mu) {
			work.copyFrom(&cur)
			if !work.advance(mv, marks) {
				return
			}
			copy(target, mv.Target)
			for w := p.y.Words(); w < p.width; w++ {
				target[w] = 0
			}
			for r := 1; r <= p.y.N; r++ {
				p.mu[r-1].Set(target, uint64(mu2[r-1]))
			}
			p.tl.store(target, &work)
			f(mv, marks, target)
		})
	}
}

func (t *tracker) copyFrom(o *tracker) {
	copy(t.pairs, o.pairs)
	for h := 2; h <= normalform.Heads; h++ {
		copy(t.written[h], o.written[h])
	}
}

func (p *product) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	n := automata.Label(0)
	p.each(s, func(_ *normalform.Move, _ []normalform.Mark, t automata.State) {
		emit(n, t)
		n++
	})
}

// explain returns the move and marks of the transition with the given label.
func (p *product) explain(s automata.State, l automata.Label) (normalform.Move, []normalform.Mark) {
	var mv normalform.Move
	var mk []normalform.Mark
	n := automata.Label(0)
	p.each(s, func(m *normalform.Move, marks []normalform.Mark, _ automata.State) {
		if n == l {
			mv, mk = *m, append([]normalform.Mark(nil), marks...)
		}
		n++
	})
	return mv, mk
}
