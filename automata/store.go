package automata

// store is the visited set and, at the same time, the breadth-first queue:
// states live in one flat arena in the order they were discovered, so the
// frontier is just a cursor into the arena. A parent index per state lets the
// search rebuild the path to any state without storing transition labels.
type store struct {
	width   int
	arena   []uint64 // width words per state, in discovery order
	parent  []uint32 // index of the predecessor; noParent for initial states
	table   []uint32 // open addressing: state index + 1, 0 = empty
	mask    uint64
	scratch State
}

const noParent = ^uint32(0)

// maxStates keeps state indices and the "+1" of the table inside uint32.
const maxStates = 1<<32 - 2

func newStore(width int) *store {
	s := &store{width: width, table: make([]uint32, 1<<12), scratch: make(State, width)}
	s.mask = uint64(len(s.table) - 1)
	return s
}

func (s *store) len() int { return len(s.parent) }

func (s *store) state(i int) State { return s.arena[i*s.width : (i+1)*s.width] }

// bytes is the memory the store holds now (capacities, not lengths, because
// that is what the process pays for).
func (s *store) bytes() int64 {
	return int64(cap(s.arena))*8 + int64(cap(s.parent))*4 + int64(cap(s.table))*4
}

// growthBytes is what the next insert will allocate while the old arrays
// are still held: a doubled table, or a larger arena (append grows a large
// slice by about a quarter) and parent list. Zero when nothing grows.
func (s *store) growthBytes() int64 {
	var g int64
	if uint64(s.len()+1)*4 > uint64(len(s.table))*3 {
		g += int64(len(s.table)) * 2 * 4
	}
	if len(s.arena)+s.width > cap(s.arena) {
		g += int64(cap(s.arena)+cap(s.arena)/4+s.width) * 8
	}
	if len(s.parent)+1 > cap(s.parent) {
		g += int64(cap(s.parent)+cap(s.parent)/4+1) * 4
	}
	return g
}

func hash(st State) uint64 {
	// A 64-bit multiply-xorshift mix per word (wyhash-like); good enough for
	// packed states, whose low bits vary most.
	h := uint64(0x9E3779B97F4A7C15)
	for _, w := range st {
		h ^= w
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
		h *= 0x94D049BB133111EB
		h ^= h >> 29
	}
	return h
}

func (s *store) equal(i int, st State) bool {
	base := s.arena[i*s.width : (i+1)*s.width]
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
	if uint64(s.len()+1)*4 > uint64(len(s.table))*3 {
		s.grow()
	}
	h := full & s.mask
	for {
		slot := s.table[h]
		if slot == 0 {
			idx := s.len()
			s.arena = append(s.arena, st...)
			s.parent = append(s.parent, parent)
			s.table[h] = uint32(idx + 1)
			return idx, true
		}
		if s.equal(int(slot-1), st) {
			return int(slot - 1), false
		}
		h = (h + 1) & s.mask
	}
}

// contains reports whether st is stored.
func (s *store) contains(st State) bool {
	h := hash(st) & s.mask
	for {
		slot := s.table[h]
		if slot == 0 {
			return false
		}
		if s.equal(int(slot-1), st) {
			return true
		}
		h = (h + 1) & s.mask
	}
}

func (s *store) grow() {
	n := len(s.table) * 2
	s.table = make([]uint32, n)
	s.mask = uint64(n - 1)
	for i := 0; i < s.len(); i++ {
		h := hash(s.state(i)) & s.mask
		for s.table[h] != 0 {
			h = (h + 1) & s.mask
		}
		s.table[h] = uint32(i + 1)
	}
}

// path returns the indices from an initial state to i.
func (s *store) path(i int) []int {
	var rev []int
	for idx := uint32(i); idx != noParent; idx = s.parent[idx] {
		rev = append(rev, int(idx))
	}
	for l, r := 0, len(rev)-1; l < r; l, r = l+1, r-1 {
		rev[l], rev[r] = rev[r], rev[l]
	}
	return rev
}
