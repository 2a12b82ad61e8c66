package tso

import (
	"slices"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Thread symmetry of the instrumented SC search (issue 35 item 4).
//
// Two threads are *twins* in an scSystem when their code is the same
// (prog.Thread: labels, initial label, register names, transitions with
// the same instruction text, registers and labels) and their instrumented
// automata are too (ithread, dead registers, reducible labels). The format
// gives a thread no way to name itself (param_identity.go), so a state's
// successors depend on a thread's index only through the lock, which
// records its owner as index+1. Let π be a permutation of thread indices
// that maps every thread to a twin, acting on a state by moving thread
// t's control label and registers to π(t) and renaming the lock's owner.
// Then, in the full (unreduced) graph of any robustness system, P_A or
// P_*:
//
//   - π maps the initial state to itself (twins start at the same label
//     with zero registers, the lock free);
//   - t -> t' is a move of thread i iff π(t) -> π(t') is a move of π(i):
//     the move reads and writes thread i's label and registers, the
//     memory, the auxiliary cells (x,d), (x,hb), hb, stAddr, delay,
//     rFence and chosen, none of which is indexed by thread, and the
//     lock, whose owner π renames consistently;
//   - the goal (hb up, the lock free, the delayed store's cell at a level
//     above none) reads no thread's fields, so π(t) is a goal iff t is.
//
// In P_A the attacker's automaton (attacker copy, wait label) differs from
// its twins' helper automata, so it is in no class: π fixes it and the
// attack. In P_* every thread has the same instrumentation and the
// attacker is whichever thread is in its attacker copy; π maps a run of
// attack (t, s, l) to a run of attack (π(t), s, l), the same attack of a
// twin. Either way a goal is reachable from t iff one is from π(t).
//
// The search explores canonical states only: every successor (and the
// initial state) is replaced by the least member of its orbit in the
// order canon uses (twins sorted by their label, registers and whether
// they hold the lock). With the partial-order reduction of por.go the
// reduced successors of a canonical state c are the ones por.go chooses
// for c itself (the reduction need not be symmetric); the argument of
// por.go carries over with one change. Let R be the canonical states the
// search reaches, assume no goal in R, and take c in R whose shortest run
// ρ to a goal (in the full graph) is shortest among R. If c is fully
// expanded, or the chosen thread moves in ρ, some successor t has a run
// one step shorter and so has canon(t) = π(t) (the run π(ρ')), in R: a
// contradiction. Otherwise the chosen thread i never moves in ρ and some
// successor t keeps ρ, and π(t) keeps π(ρ), again of the least length.
// Measure such a step by M = the sum, over the threads that do not move
// in the run kept, of h(label), with h(q) the longest path of reducible
// labels from q (finite: the reducible labels contain no cycle). The step
// moves i along a reducible edge, which lowers h(i's label), and leaves
// the others; π carries the measure over unchanged, since twins share h.
// So M falls strictly along such steps, and after finitely many the
// first case comes: R holds a goal. Conversely every canonical state is a
// state of the system's orbit of a reachable state, so a goal found is a
// goal of the system up to π.
//
// A goal's path is of canonical states; unfold turns it into a path of
// the system itself, from the real initial state: at each step it picks,
// among all moves of the real state reached so far, one whose successor
// has the next canonical state as its canonical form (one exists, as
// canon(real) = π(real) and the moves commute with π). The witness is
// then built and replayed from that real path as from any other.
//
// The attack decomposition stays exact: only the search of each system
// changes, and each system's goal is reachable with the symmetry iff it
// is without. The criteria with an extension (persistence, TRF) keep
// their own searches unreduced (their roles may name a thread).

// symmetry is the twin classes of an scSystem and the scratch space of
// its canonical form.
type symmetry struct {
	sc      *scSystem
	classes [][]int // each ascending, at least two threads
	keys    [][]uint64
	order   []int
}

// planSymmetry returns the twin classes of s, or nil when it has none (or
// is not a robustness system).
func planSymmetry(s *scSystem) *symmetry {
	if s.ext != nil || !s.attack {
		return nil
	}
	y := &symmetry{sc: s}
	seen := make([]bool, len(s.threads))
	for i := range s.threads {
		if seen[i] {
			continue
		}
		class := []int{i}
		for j := i + 1; j < len(s.threads); j++ {
			if !seen[j] && twins(s, i, j) {
				class, seen[j] = append(class, j), true
			}
		}
		if len(class) > 1 {
			y.classes = append(y.classes, class)
		}
	}
	if len(y.classes) == 0 {
		return nil
	}
	return y
}

// twins reports whether threads i and j of s are interchangeable.
func twins(s *scSystem, i, j int) bool {
	if s.isFrozen(i) != s.isFrozen(j) || !sameCode(s.p.Threads[i], s.p.Threads[j]) {
		return false
	}
	a, b := &s.threads[i], &s.threads[j]
	if a.labels != b.labels || !slices.Equal(a.trans, b.trans) {
		return false
	}
	if !slices.EqualFunc(s.live[i], s.live[j], slices.Equal) {
		return false
	}
	if s.reducible != nil && !slices.Equal(s.reducible[i], s.reducible[j]) {
		return false
	}
	return s.pc[i].Max() == s.pc[j].Max() && len(s.regs[i]) == len(s.regs[j])
}

// sameCode compares two threads' code, up to the names of their labels.
func sameCode(a, b *prog.Thread) bool {
	if len(a.Labels) != len(b.Labels) || a.Init != b.Init || !slices.Equal(a.Regs, b.Regs) || len(a.Trans) != len(b.Trans) {
		return false
	}
	for k := range a.Trans {
		x, y := &a.Trans[k], &b.Trans[k]
		if x.From != y.From || x.To != y.To || x.Op != y.Op || x.Reg != y.Reg || x.Text != y.Text {
			return false
		}
	}
	return true
}

// canon replaces st, in place, by the least state of its orbit: within
// each class the twins' (label, registers, holds the lock) tuples sorted
// ascending.
func (y *symmetry) canon(st automata.State) {
	s := y.sc
	owner := int(s.lock.Get(st)) - 1
	for _, class := range y.classes {
		n := len(class)
		w := 2 + len(s.regs[class[0]])
		if cap(y.keys) < n {
			y.keys = make([][]uint64, n)
		}
		keys := y.keys[:n]
		for m, t := range class {
			k := keys[m][:0]
			k = append(k, s.pc[t].Get(st))
			for _, f := range s.regs[t] {
				k = append(k, f.Get(st))
			}
			held := uint64(0)
			if owner == t {
				held = 1
			}
			keys[m] = append(k, held)
		}
		order := y.order[:0]
		for m := range class {
			order = append(order, m)
		}
		slices.SortFunc(order, func(a, b int) int { return slices.Compare(keys[a], keys[b]) })
		y.order = order
		for m, t := range class {
			k := keys[order[m]]
			s.pc[t].Set(st, k[0])
			if symMutant {
				k = keys[m] // TestSymmetryMutantCaught: registers left behind
			}
			for r, f := range s.regs[t] {
				f.Set(st, k[1+r])
			}
			if k[w-1] == 1 {
				s.lock.Set(st, uint64(t+1))
			}
		}
	}
}

// symMutant breaks canon for TestSymmetryMutantCaught.
var symMutant bool

// symSystem is a System (the scSystem or an order of it) searched up to
// thread symmetry: its initial state and successors in canonical form.
type symSystem struct {
	inner automata.System
	sym   *symmetry
	buf   automata.State
	// emit is the search's callback of the current Successors call, and
	// relay the method value handed to the inner system, made once:
	// a closure per call showed in the allocation profile.
	emit  func(automata.Label, automata.State)
	relay func(automata.Label, automata.State)
}

// withSymmetry wraps inner, a search of sc, in sc's symmetry; it returns
// inner itself when sc has no twins or off is set.
func withSymmetry(inner automata.System, sc *scSystem, off bool) (automata.System, *symmetry) {
	if off {
		return inner, nil
	}
	y := planSymmetry(sc)
	if y == nil {
		return inner, nil
	}
	return &symSystem{inner: inner, sym: y, buf: make(automata.State, sc.width)}, y
}

func (y *symSystem) Width() int                       { return y.inner.Width() }
func (y *symSystem) Accepting(st automata.State) bool { return y.inner.Accepting(st) }

func (y *symSystem) Initial(emit func(automata.State)) {
	y.inner.Initial(func(st automata.State) {
		copy(y.buf, st)
		y.sym.canon(y.buf)
		emit(y.buf)
	})
}

func (y *symSystem) Successors(st automata.State, emit func(automata.Label, automata.State)) {
	if y.relay == nil {
		y.relay = y.canonEmit
	}
	y.emit = emit
	y.inner.Successors(st, y.relay)
}

func (y *symSystem) canonEmit(l automata.Label, t automata.State) {
	copy(y.buf, t)
	y.sym.canon(y.buf)
	y.emit(l, y.buf)
}

// Fork serves the parallel breadth-first search: a copy with its own
// buffers over a fork of the scSystem (the only inner system of a
// breadth-first search).
func (y *symSystem) Fork() automata.System {
	sc := y.sym.sc.Fork().(*scSystem)
	sym := &symmetry{sc: sc, classes: y.sym.classes}
	return &symSystem{inner: sc, sym: sym, buf: make(automata.State, sc.width)}
}

// unfold turns a path of canonical states into a path of the system
// itself (argued above). It returns nil for a nil path, and false if a
// step has no counterpart, which the argument rules out: the callers
// report it as an internal error instead of a verdict.
func (y *symmetry) unfold(path []automata.Step) ([]automata.Step, bool) {
	if path == nil {
		return nil, true
	}
	s := y.sc
	// Moves the reduced search never took may overflow or leave the
	// memory; that is no finding of the search.
	overflow, badAddr := s.overflow, s.badAddr
	defer func() { s.overflow, s.badAddr = overflow, badAddr }()
	out := make([]automata.Step, 0, len(path))
	var real automata.State
	s.Initial(func(st automata.State) { real = slices.Clone(st) })
	out = append(out, automata.Step{State: real})
	tmp := make(automata.State, s.width)
	for _, step := range path[1:] {
		var next automata.State
		var label automata.Label
		s.allSuccessors(real, func(l automata.Label, t automata.State) {
			if next != nil {
				return
			}
			copy(tmp, t)
			y.canon(tmp)
			if automata.Equal(tmp, step.State) {
				next, label = slices.Clone(t), l
			}
		})
		if next == nil {
			return nil, false
		}
		out = append(out, automata.Step{Label: label, State: next})
		real = next
	}
	return out, true
}

// unfoldFailed is the reason given when unfold finds no counterpart.
const unfoldFailed = "internal error: a goal path of the thread symmetry has no counterpart in the program (NoSymmetry avoids it; please report)"

// allSuccessors emits every move of st, without the partial-order
// reduction: unfold needs the moves of a real state, whose reduced set
// may differ from its canonical form's.
func (s *scSystem) allSuccessors(st automata.State, emit func(automata.Label, automata.State)) {
	owner := int(s.lock.Get(st)) - 1
	for ti := range s.threads {
		if (owner < 0 || owner == ti) && !s.isFrozen(ti) {
			s.expand(ti, st, emit)
		}
	}
}
