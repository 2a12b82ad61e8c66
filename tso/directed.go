package tso

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Goal-directed order for depth-first searches of instrumented programs
// (issue 27).
//
// The goal of an attack's search is one accepting state: the attacker has
// taken its last action (hb up) and the helpers' happens-before chain has
// come back to the address of the delayed store. directedSystem hands the
// search the same successors in another order: first the moves that can
// extend that chain, the attacker's last action and the helpers' loads
// and stores that depend on it (rHelperEnter on an address whose access
// level the chain raised, rHelperCopy loads and stores, which raise levels
// further); then every other move in the program's own order, thread by
// thread and, within a thread, transition by transition (the order in
// which the reference tool's recursive search enters them). The engine's
// depth-first stacks enter the successor emitted last first, so the two
// classes are emitted in reverse.
//
// The second part is not arbitrary: entering the first thread's own
// moves first runs it ahead, with the choice to start an attack from each
// of its stores tried as the search backs out; the helper moves that must
// happen before the attacker's last action (a helper getting to the
// instruction that will depend on it) are then already there. An order
// that tried the attacker's own moves before every helper move was
// measured too: it found the flag ring's violation at once but spent
// millions of states on Dijkstra's mutual exclusion, where the attack
// needs a helper half-way through its entry protocol (docs/design.md).
// Moves this order puts last are not dropped, and where they are private
// the partial-order reduction (por.go) folds them to one thread's moves.
//
// Why no reachable goal is lost: Successors emits exactly the successors
// of the wrapped system, each once, with the same labels; only their order
// changes. A depth-first search of a finite graph visits every state
// reachable from the initial ones whatever order it pushes successors in,
// so it reaches a goal iff one is reachable. The partial-order reduction's
// guarantee is a property of the reduced graph (its persistent sets and
// its static cycle proviso, argued in por.go), not of the order in which
// the search walks it, so it keeps every goal under this order as under
// the plain one. The witness path (automata.shortest, rebuild) is found
// on the same graph and replayed as usual.
type directedSystem struct {
	sys    *scSystem
	rank   [][]uint8 // rank[t][k] of thread t's instrumented transition k
	ranks1 uint8     // the highest rank plus one (order.go)
	labels []automata.Label
	ranks  []uint8
	states []uint64
	// overflow, if set, is called once a successor's value did not fit.
	overflow func()
}

// directed wraps sys in the goal-directed order.
func directed(sys *scSystem) *directedSystem { return ranked(sys, moveRank) }

// ranked wraps sys in the order rank gives (the higher, the sooner).
func ranked(sys *scSystem, rank func(prog.Op, role) uint8) *directedSystem {
	d := &directedSystem{sys: sys, rank: make([][]uint8, len(sys.threads))}
	for ti, th := range sys.threads {
		d.rank[ti] = make([]uint8, len(th.trans))
		for k, it := range th.trans {
			r := rank(sys.p.Threads[ti].Trans[it.orig].Op, it.role)
			d.rank[ti][k], d.ranks1 = r, max(d.ranks1, r+1)
		}
	}
	return d
}

// moveRank is 1 for a move that can extend the happens-before chain, 0
// for the others.
func moveRank(op prog.Op, r role) uint8 {
	switch r {
	case rAttLast, rHelperEnter:
		return 1
	case rHelperCopy:
		if op == prog.OpRead || op == prog.OpWrite {
			return 1
		}
	}
	return 0
}

func (d *directedSystem) Width() int                        { return d.sys.Width() }
func (d *directedSystem) Initial(emit func(automata.State)) { d.sys.Initial(emit) }
func (d *directedSystem) Accepting(st automata.State) bool  { return d.sys.Accepting(st) }

// Successors emits the wrapped system's successors of st by rank, lowest
// first, each class in reverse, so that the search enters the highest
// rank first and each class in the wrapped system's order.
func (d *directedSystem) Successors(st automata.State, emit func(automata.Label, automata.State)) {
	w := d.sys.Width()
	// The buffers are the wrapper's own: a successor is copied out of the
	// wrapped system's reused buffer, and the search copies what it keeps
	// from ours in turn. Successors is not reentrant (emit never calls
	// back into it), so one set of buffers serves every call.
	labels, ranks, states := d.labels[:0], d.ranks[:0], d.states[:0]
	d.sys.Successors(st, func(l automata.Label, s automata.State) {
		t, k := splitLabel(l)
		labels = append(labels, l)
		ranks = append(ranks, d.rank[t][k])
		states = append(states, s...)
	})
	d.labels, d.ranks, d.states = labels, ranks, states
	if d.overflow != nil && d.sys.overflow {
		// The round is over (its caller widens the values and searches
		// again), but the search polls its context only now and then:
		// emit nothing more, so that it ends within the states already on
		// its stack instead of exploring on to its end.
		d.overflow()
		return
	}
	for r := uint8(0); r < d.ranks1; r++ {
		for i := len(labels) - 1; i >= 0; i-- {
			if ranks[i] == r {
				emit(labels[i], automata.State(states[i*w:(i+1)*w]))
			}
		}
	}
}
