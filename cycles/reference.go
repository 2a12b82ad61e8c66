package cycles

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
)

// AcceptedMarked is a test hook (used by proofs_test): it enumerates,
// depth first, the paths of the product Y^M × Z^cyc that Decide searches
// (the deterministic tracker and the pruning included) with at most
// maxLetters letters, and calls visit with the marked letters, in the
// order Y^M generates them, of every path that ends in an accepting state.
// It stops early, returning false, once visit returns false or after
// limit paths. The slice passed to visit is reused.
func AcceptedMarked(y *normalform.Y, cyc CycleType, maxLetters, limit int, visit func(sigma []Letter) bool) bool {
	moves := func(s automata.State) []normalform.Move {
		mv, _ := y.Moves(s)
		return mv
	}
	p := newProduct(y, cyc, moves)
	var sigma []Letter
	paths := 0
	type succ struct {
		letters []Letter
		target  automata.State
	}
	var rec func(s automata.State) bool
	rec = func(s automata.State) bool {
		if paths++; paths > limit {
			return false
		}
		if p.Accepting(s) && !visit(sigma) {
			return false
		}
		var next []succ
		p.each(s, func(mv *normalform.Move, marks []normalform.Mark, t automata.State) {
			if len(sigma)+len(mv.Events) > maxLetters {
				return
			}
			sc := succ{target: append(automata.State(nil), t...)}
			for i, he := range mv.Events {
				sc.letters = append(sc.letters, Letter{Head: he.Head, Event: he.Event, Mark: marks[i]})
			}
			next = append(next, sc)
		})
		for _, sc := range next {
			k := len(sigma)
			sigma = append(sigma, sc.letters...)
			ok := rec(sc.target)
			sigma = sigma[:k]
			if !ok {
				return false
			}
		}
		return true
	}
	s := make(automata.State, p.width)
	p.y.Initial(s)
	return rec(s)
}
