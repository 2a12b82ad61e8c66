package automata

// Collapse compression (Holzmann's COLLAPSE mode of SPIN, in its simplest
// form): a product state is the state of one automaton beside the state
// of another, and each part takes far fewer distinct values than the
// pairs do. A collapsed store keeps each part's distinct values once, in a
// store of its own, and the arena holds, per state, one word: the two
// parts' indices. A state then costs 8 bytes of arena, 4 of parent link
// and its share of the hash table, whatever its width; the parts cost
// their own (amortised) share, small when they repeat.

// A Collapser is a System whose states split into two parts at a word
// boundary: the first CollapseAt words and the rest. Search stores its
// states collapsed when 0 < CollapseAt() < Width(). Only the memory
// changes: the states, their order and the witnesses are the same.
type Collapser interface {
	System
	CollapseAt() int
}

// A SharedCollapser is a Collapser whose first part is interned in a
// table shared with other searches (the cycle types of a decision all
// walk the same automaton Y): a state whose first part another search has
// met costs this search only its entry, its parent link and its hash
// slot. A nil table means a table of the search's own.
//
// The shared table's memory is charged to the searches that add to it, an
// entry's amortised cost (Interner.entryBytes) to the search that adds
// it, so that the searches' bytes add up to what the decision holds.
type SharedCollapser interface {
	Collapser
	CollapseTable() *Interner
}

// newStoreFor is the visited set for sys: collapsed when sys asks for it.
func newStoreFor(sys System) *store {
	w := sys.Width()
	c, ok := sys.(Collapser)
	if !ok {
		return newStore(w)
	}
	k := c.CollapseAt()
	if k <= 0 || k >= w {
		return newStore(w)
	}
	s := newStore(1)
	s.width, s.split = w, k
	s.parts = &[2]*store{nil, newStore(w - k)}
	if sc, ok := sys.(SharedCollapser); ok {
		if in := sc.CollapseTable(); in != nil && in.Width() == k {
			s.shared = in
		}
	}
	if s.shared == nil {
		s.parts[0] = newStore(k)
	} else if h, ok := sys.(PartHinter); ok {
		s.hinter = h
	}
	s.scratch, s.key = make(State, w), make(State, 1)
	return s
}

// encode stores the two parts of st (if new) and returns the entry that
// stands for st, in a buffer the next call overwrites.
func (s *store) encode(st State) State {
	a := s.part(0, st[:s.split])
	b := s.part(1, st[s.split:])
	s.key[0] = uint64(a) | uint64(b)<<32
	return s.key
}

// part is the index of x in part k, stored if new. The last part looked
// up is remembered: a product emits runs of successors with one Y state
// (the markings of one move) and with one tracker (the moves that leave
// it as it is).
func (s *store) part(k int, x State) uint32 {
	m := &s.last[k]
	if m.ok && Equal(m.words, x) {
		return m.idx
	}
	var i uint32
	if k == 0 && s.shared != nil {
		ok := false
		if s.hinter != nil {
			i, ok = s.hinted(x)
		}
		var fresh bool
		if !ok {
			if i, fresh = s.shared.Intern(x); fresh {
				s.sharedAdded++
			}
		}
	} else {
		j, _ := s.parts[k].insert(x, noParent)
		i = uint32(j)
	}
	m.words, m.idx, m.ok = append(m.words[:0], x...), i, true
	return m.idx
}

// findPart0 is the number of the first part x, or -1 when unknown.
func (s *store) findPart0(x State) int64 {
	if s.shared == nil {
		return int64(s.parts[0].find(x))
	}
	i, ok := s.shared.Find(x)
	if !ok {
		return -1
	}
	return int64(i)
}

// lastPart is the memo of store.part.
type lastPart struct {
	words State
	idx   uint32
	ok    bool
}

// lookupKey is encode for a state that may not be stored: false when one
// of its parts is unknown (then the state is too).
func (s *store) lookupKey(st State) (State, bool) {
	a := s.findPart0(st[:s.split])
	b := s.parts[1].find(st[s.split:])
	if a < 0 || b < 0 {
		return nil, false
	}
	s.key[0] = uint64(a) | uint64(b)<<32
	return s.key, true
}

// decode rebuilds the state of an entry into s.scratch.
func (s *store) decode(e State) State {
	if s.shared != nil {
		s.shared.Load(s.scratch[:s.split], uint32(e[0]))
		if s.hinter != nil {
			s.hinter.PartDecoded(s.scratch[:s.split], uint32(e[0]))
		}
	} else {
		copy(s.scratch, s.parts[0].entry(int(uint32(e[0]))))
	}
	copy(s.scratch[s.split:], s.parts[1].entry(int(e[0]>>32)))
	return s.scratch
}

// find is the index of st in an uncollapsed store, or -1.
func (s *store) find(st State) int { return s.findHashed(st, hash(st)) }
