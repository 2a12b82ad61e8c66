package automata

import "github.com/pgasrob/pgasrob/automata/table"

// store is the visited set and, at the same time, the breadth-first queue:
// states live in an arena in the order they were discovered, so the
// frontier is just a cursor into the arena. A parent index per state lets the
// search rebuild the path to any state without storing transition labels.
//
// The arena is a list of pages of pageStates states each (and their parent
// links), never moved once full: a flat slice grown by append would copy
// every state about four times over a large search and hold up to a
// quarter of unused capacity, which is most of what a one-word state costs
// (docs/design.md, "Cost per state"). A page starts small and grows up to
// its full size (grownCap: the first by a quarter, the others by
// doubling), so that the many small searches stay small and the last page
// of a search holds at most a quarter as much spare room as states while
// the search has one page, and at most as much after (a decision runs
// tens of searches, and a full page each cost the small ones a tenth of
// their bytes).
type store struct {
	width   int        // words of a state
	ew      int        // words of an entry of the arena: width, or 1 when collapsed
	pages   [][]uint64 // ew words per state, in discovery order
	parents [][]uint32 // index of the predecessor; noParent for initial states
	n       int        // states stored
	index   table.Index
	// parts, when the store is collapsed (collapse.go), hold the distinct
	// values of the two parts of a state, and an entry is the pair of
	// their indices; scratch then holds the state that state() decodes,
	// and key the entry being looked up.
	parts *[2]*store
	last  [2]lastPart
	// shared, if set, holds the first part instead of parts[0], which is
	// then nil (collapse.go, SharedCollapser); sharedAdded counts the
	// entries this store added to it, which its bytes are charged with.
	shared      *Interner
	sharedAdded int64
	// hinter, if set, names the first parts of the states it emits
	// (hint.go).
	hinter  PartHinter
	split   int
	scratch State
	key     State
}

const noParent = ^uint32(0)

// maxStates keeps state indices and the "+1" of the table inside uint32.
const maxStates = 1<<32 - 2

// pageShift sets the page size: 4 Ki states, 32 KiB per word of state.
const (
	pageShift  = 12
	pageStates = 1 << pageShift
	pageMask   = pageStates - 1
	// newPageStates is the capacity a page after the first starts with.
	newPageStates = pageStates / 16
	// firstPageStates is the first page's.
	firstPageStates = 32
)

// initialSlots is the hash table's first size. Most searches of a TSO
// check visit tens of states, and so do many per-type searches of a small
// program with the parts of their collapsed states: a larger first table
// would be memory the process touches for nothing, which on a small input
// costs more than the searches (the table doubles as it fills, so large
// searches lose a few rehashes of small tables).
const initialSlots = 1 << 6

func newStore(width int) *store {
	s := &store{width: width, ew: width, index: table.MakeIndex(initialSlots)}
	s.pages = [][]uint64{make([]uint64, 0, firstPageStates*width)}
	s.parents = [][]uint32{make([]uint32, 0, firstPageStates)}
	return s
}

func (s *store) len() int { return s.n }

// state returns state i. A collapsed store decodes it into a buffer that
// the next call overwrites: callers copy it.
func (s *store) state(i int) State {
	if s.parts != nil {
		return s.decode(s.entry(i))
	}
	return s.entry(i)
}

// entry is what the arena holds for state i.
func (s *store) entry(i int) State {
	o := (i & pageMask) * s.ew
	return s.pages[i>>pageShift][o : o+s.ew]
}

func (s *store) parent(i int) uint32 { return s.parents[i>>pageShift][i&pageMask] }

// bytes is the memory the store holds now (capacities, not lengths, because
// that is what the process pays for).
func (s *store) bytes() int64 {
	k := len(s.pages) - 1
	full := int64(k) * pageStates * int64(s.ew*8+4)
	b := full + int64(cap(s.pages[k]))*8 + int64(cap(s.parents[k]))*4 + s.index.Bytes()
	if s.parts != nil {
		b += s.parts[1].bytes()
		if s.shared != nil {
			b += s.sharedAdded * s.shared.entryBytes()
		} else {
			b += s.parts[0].bytes()
		}
	}
	return b
}

// full reports whether the store can take no more states: the shared
// table of its first part is full (Interner.Full).
func (s *store) full() bool { return s.shared != nil && s.shared.Full() }

// growthBytes is what the next insert will allocate while the old arrays
// are still held: a doubled table, or the next page (or the last page's
// doubling). Zero when nothing grows.
func (s *store) growthBytes() int64 {
	g := s.index.GrowthBytes()
	last := s.parents[len(s.parents)-1]
	if len(last) == cap(last) {
		c := int64(newPageStates)
		if len(last) < pageStates {
			c = int64(s.grownCap(cap(last)))
		}
		g += c * int64(s.ew*8+4)
	}
	if s.parts != nil {
		g += s.parts[1].growthBytes()
		if s.shared == nil {
			g += s.parts[0].growthBytes()
		}
	}
	return g
}

// grownCap is the capacity the last page, of capacity c, grows to. The
// first page grows by a quarter, so that a small search holds at most a
// quarter as much spare room as states (doubling left up to as much, a
// quarter of what a state of a small per-type search cost); the others
// double: a large search does not mind the spare room of its last page,
// and growing by a quarter would copy each state four times instead of
// once (three times the garbage for the collector).
func (s *store) grownCap(c int) int {
	if len(s.pages) == 1 {
		return min(c+max(c/4, 16), pageStates)
	}
	return min(2*c, pageStates)
}

// appendState adds st and its parent at the end of the arena.
func (s *store) appendState(st State, parent uint32) {
	k := len(s.pages) - 1
	page, par := s.pages[k], s.parents[k]
	switch {
	case len(par) == pageStates:
		page = make([]uint64, 0, newPageStates*s.ew)
		par = make([]uint32, 0, newPageStates)
		s.pages = append(s.pages, page)
		s.parents = append(s.parents, par)
		k++
	case len(par) == cap(par):
		// Only the last page grows; the old array stays valid for the
		// parallel workers that read it (parallel.go).
		c := s.grownCap(cap(par))
		page = append(make([]uint64, 0, c*s.ew), page...)
		par = append(make([]uint32, 0, c), par...)
	}
	s.pages[k] = append(page, st...)
	s.parents[k] = append(par, parent)
	s.n++
}

// hash is the tables' hash function (automata/table).
func hash(st State) uint64 { return table.Hash(st) }

func (s *store) equal(i int, st State) bool {
	base := s.entry(i)
	for k, w := range st {
		if base[k] != w {
			return false
		}
	}
	return true
}

// insert adds st with the given parent unless it is already present. It
// reports the index of the state and whether it is new.
func (s *store) insert(st State, parent uint32) (int, bool) {
	return s.insertHashed(st, hash(st), parent)
}

// insertHashed is insert with hash(st) already computed (by a worker of
// the parallel search).
func (s *store) insertHashed(st State, full uint64, parent uint32) (int, bool) {
	if s.parts != nil {
		st = s.encode(st)
		full = hash(st)
	}
	if s.index.Crowded() {
		s.index.Grow(func(i uint32) uint64 { return hash(s.entry(int(i))) })
	}
	i, slot, ok := s.index.Find(full, func(i uint32) bool { return s.equal(int(i), st) })
	if ok {
		return int(i), false
	}
	s.appendState(st, parent)
	return int(s.index.Add(slot)), true
}

// contains reports whether st is stored.
func (s *store) contains(st State) bool {
	if s.parts != nil {
		var ok bool
		if st, ok = s.lookupKey(st); !ok {
			return false
		}
	}
	return s.findHashed(st, hash(st)) >= 0
}

// findHashed is the index of st in an uncollapsed store, or -1, with
// hash(st) given.
func (s *store) findHashed(st State, full uint64) int {
	i, _, ok := s.index.Find(full, func(i uint32) bool { return s.equal(int(i), st) })
	if !ok {
		return -1
	}
	return int(i)
}

// path returns the indices from an initial state to i.
func (s *store) path(i int) []int {
	var rev []int
	for idx := uint32(i); idx != noParent; idx = s.parent(int(idx)) {
		rev = append(rev, int(idx))
	}
	for l, r := 0, len(rev)-1; l < r; l, r = l+1, r-1 {
		rev[l], rev[r] = rev[r], rev[l]
	}
	return rev
}
