package cycles

import (
	"fmt"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// Letter is one letter of a marked computation of Y^M: an event, the part
// (head) that generated it, and its marks.
type Letter struct {
	Head  int
	Event pgas.Event
	Mark  normalform.Mark
}

// Witness is a normal-form violation found by Decide: the letters in the
// order Y^M generated them, the four parts τ1..τ4 of the computation, and
// the happens-before cycle recomputed from the plain semantics.
type Witness struct {
	// Direct is set for a violation found by the brute-force oracle
	// (Procedure "oracle"): the computation is not in normal form, has no
	// marks and no cycle type (Cycle is nil), and is all in Parts[0].
	Direct      bool
	Cycle       CycleType
	Sigma       []Letter
	Parts       [normalform.Heads][]Letter
	Computation []pgas.Event // τ1·τ2·τ3·τ4
	HB          []pgas.HBEdge
}

func buildWitness(p *product, path []automata.Step) *Witness {
	var sigma []Letter
	for k := 1; k < len(path); k++ {
		mv, marks := p.explain(path[k-1].State, path[k].Label)
		for i, he := range mv.Events {
			sigma = append(sigma, Letter{Head: he.Head, Event: he.Event, Mark: marks[i]})
		}
	}
	return NewWitness(p.cyc, sigma)
}

// NewWitness rebuilds a witness from its cycle type and marked letters σ,
// for instance as a shard wrote them to a file. The computation is not
// certified yet: Merge certifies it before anything uses it.
func NewWitness(c CycleType, sigma []Letter) *Witness {
	w := &Witness{Cycle: c, Sigma: sigma}
	for _, l := range w.Sigma {
		w.Parts[l.Head-1] = append(w.Parts[l.Head-1], l)
	}
	for _, part := range w.Parts {
		for _, l := range part {
			w.Computation = append(w.Computation, l.Event)
		}
	}
	return w
}

// certify replays the computation in X(P,N) and recomputes happens-before
// from the definitions; a witness is shown only if both agree that it is a
// violation.
func (w *Witness) certify(p *pgas.Program, n int, commuting bool) error {
	w.numberItems(p)
	if _, err := pgas.Replay(p, n, w.Computation); err != nil {
		return fmt.Errorf("replay: %v", err)
	}
	hb := happensBefore(p, w.Computation, commuting)
	cyc := hb.Cycle()
	if len(cyc) == 0 {
		return fmt.Errorf("the computation replays but its happens-before relation has no cycle between ↔-classes")
	}
	w.HB = cyc
	return nil
}

// wrap returns, for a witness that rests on an atomic add whose result
// left the domain, that wrap as a run-time error with the path to it; nil
// if the computation does not wrap, or wraps only after a prefix that is
// violating already (the pops that complete a violating prefix read no
// guard, so the violation does not depend on them). A verdict must not
// rest on a wrap (docs/shmem-calculus.md, "Atomic adds that wrap"); the
// wrap itself is reachable in X, so it is the answer instead.
func (w *Witness) wrap(p *pgas.Program, n int, commuting bool) *RuntimeError {
	if !p.HasCtx() {
		return nil
	}
	re, i, err := pgas.Wraps(p, n, w.Computation)
	if err != nil || re == nil || happensBefore(p, w.Computation[:i], commuting).Violating() {
		return nil
	}
	return &RuntimeError{Err: re, Path: append([]pgas.Event(nil), w.Computation[:i]...)}
}

// numberItems fills Event.Item of the pops of context items, which Y
// cannot (normalform.NumberItems), in the letters and the computation.
// An oracle's witness has them already.
func (w *Witness) numberItems(p *pgas.Program) {
	if w.Direct || !p.HasCtx() {
		return
	}
	normalform.NumberItems(p, len(w.Sigma), func(i int) *pgas.Event { return &w.Sigma[i].Event })
	*w = *NewWitness(w.Cycle, w.Sigma)
}
