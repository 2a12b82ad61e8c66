package automata

import (
	"fmt"
	"sync/atomic"
)

// Hints for the shared table of first parts. A collapsed insert with a
// shared table (SharedCollapser) interns the state's first part: a hash,
// a lock and a probe, each time the first part differs from the last one
// (a product emits runs with one Y state, the markings of one move). The
// system often knows more: a product's successor along a move has the
// move's target as its Y state, the same every time the move is taken,
// by any state and any cycle type. A PartHinter hands the store, with
// each state it emits, the first part it meant and a slot where that
// part's number is kept; the store fills the slot the first time and
// reads it from then on, with no probe.
//
// The store trusts a slot only for the words it was handed with, and
// only when those equal the first part of the state being inserted (so a
// state that a symmetry renamed, or one from a parallel worker, whose
// hint is not the one asked for, is interned as before): a slot must be
// used with one vector of words and one table only, and hold 0 or that
// vector's number plus one. With SetHintCheck(true) (tests) every
// number read from a slot is checked against the table, and a wrong one
// panics.

// A PartHinter is a SharedCollapser that can say which first part the
// state it emitted last has, and where that part's number is kept; and
// which number the first part of a state decoded for it has.
type PartHinter interface {
	SharedCollapser
	// PartHint returns the first part of the state emitted last as the
	// system built it, and its slot (nil: no hint). The slot holds the
	// part's number in CollapseTable() plus one, or 0 while unknown.
	PartHint() (words State, slot *atomic.Uint32)
	// PartDecoded tells the system that the store has just decoded a
	// state whose first part is words (a buffer the store reuses),
	// numbered n in CollapseTable(): the search expands the states it
	// decodes, and the system can find what it keeps per first part
	// (the moves of a Y state, Interner.Value) by number, not by hash.
	PartDecoded(words State, n uint32)
}

var hintCheck atomic.Bool

// SetHintCheck turns the checking of part hints on or off (tests), and
// returns the previous setting.
func SetHintCheck(on bool) bool { return hintCheck.Swap(on) }

// hinted is the number of x, the first part of the state being inserted,
// from the system's hint; false when there is no hint for x.
func (s *store) hinted(x State) (uint32, bool) {
	w, slot := s.hinter.PartHint()
	if slot == nil || !Equal(w, x) {
		return 0, false
	}
	if v := slot.Load(); v != 0 {
		if hintCheck.Load() {
			if n, ok := s.shared.Find(x); !ok || n != v-1 {
				panic(fmt.Sprintf("automata: part hint %d for %v, the table says %d (known %v)", v-1, x, n, ok))
			}
		}
		return v - 1, true
	}
	n, fresh := s.shared.Intern(x)
	if fresh {
		s.sharedAdded++
	}
	slot.Store(n + 1)
	return n, true
}
