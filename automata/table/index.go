package table

// Index is the slot array of a set whose keys the caller keeps: the
// entries are numbered 0, 1, 2, … in the order they are added, a slot
// holds an entry's number plus one (0 marks an empty slot), and the
// caller compares a key with entry i's through the function it gives
// Find. The visited set of automata keeps its states in pages with their
// parent links, Vecs and Seqs in flat arrays: the slots, their probing
// and their growth are the same, and are here.
//
// The table is kept at most three quarters full: the caller asks Crowded
// before an insertion and then Grow, which needs the hash of every entry
// (the keys are the caller's).
type Index struct {
	slots []uint32
	mask  uint64
	n     int
}

// MakeIndex is an empty index of the given number of slots, a power of
// two.
func MakeIndex(slots int) Index {
	return Index{slots: make([]uint32, slots), mask: uint64(slots - 1)}
}

// Len is the number of entries.
func (x *Index) Len() int { return x.n }

// Slots is the number of slots.
func (x *Index) Slots() int { return len(x.slots) }

// Bytes is the memory the slots hold.
func (x *Index) Bytes() int64 { return int64(cap(x.slots)) * 4 }

// Crowded reports whether one more entry would fill the index past three
// quarters: then Grow before adding it.
func (x *Index) Crowded() bool { return uint64(x.n+1)*4 > uint64(len(x.slots))*3 }

// GrowthBytes is what adding one entry will allocate: the doubled slots
// when the index is crowded, else nothing.
func (x *Index) GrowthBytes() int64 {
	if x.Crowded() {
		return int64(len(x.slots)) * 2 * 4
	}
	return 0
}

// Find probes for a key of hash h, eq telling whether entry i holds it.
// It returns the key's number, or false and the empty slot where the key
// belongs (for Add, if nothing was added since).
func (x *Index) Find(h uint64, eq func(i uint32) bool) (n uint32, slot uint64, ok bool) {
	for p := h & x.mask; ; p = (p + 1) & x.mask {
		s := x.slots[p]
		if s == 0 {
			return 0, p, false
		}
		if eq(s - 1) {
			return s - 1, p, true
		}
	}
}

// Add puts the next number, which it returns, in the empty slot Find
// returned.
func (x *Index) Add(slot uint64) uint32 {
	x.n++
	x.slots[slot] = uint32(x.n)
	return uint32(x.n - 1)
}

// Grow doubles the slots and puts back every entry, hash(i) being the
// hash of entry i's key.
func (x *Index) Grow(hash func(i uint32) uint64) {
	x.slots = make([]uint32, 2*len(x.slots))
	x.mask = uint64(len(x.slots) - 1)
	for i := range uint32(x.n) {
		p := hash(i) & x.mask
		for x.slots[p] != 0 {
			p = (p + 1) & x.mask
		}
		x.slots[p] = i + 1
	}
}
