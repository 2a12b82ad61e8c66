package cycles

// memoTable maps 64-bit keys to 32-bit values by open addressing in flat
// arrays. The shared exploration looks one up for nearly every event and
// successor it generates; Go's maps cost about three times as much there
// (25–35 % of the CPU of a ring at N = 5 went to map probes).
type memoTable struct {
	keys []uint64 // key+1; 0 marks an empty slot
	vals []uint32
	n    int
	mask uint64
}

func newMemoTable() *memoTable {
	t := &memoTable{keys: make([]uint64, 1<<10), vals: make([]uint32, 1<<10)}
	t.mask = uint64(len(t.keys) - 1)
	return t
}

func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// get returns the value of key k. Keys must be below 2^64-1.
func (t *memoTable) get(k uint64) (uint32, bool) {
	k++
	for h := mix(k) & t.mask; ; h = (h + 1) & t.mask {
		switch t.keys[h] {
		case k:
			return t.vals[h], true
		case 0:
			return 0, false
		}
	}
}

// put sets the value of key k.
func (t *memoTable) put(k uint64, v uint32) {
	if (t.n+1)*4 > len(t.keys)*3 {
		t.grow()
	}
	k++
	for h := mix(k) & t.mask; ; h = (h + 1) & t.mask {
		switch t.keys[h] {
		case k:
			t.vals[h] = v
			return
		case 0:
			t.keys[h], t.vals[h] = k, v
			t.n++
			return
		}
	}
}

func (t *memoTable) grow() {
	keys, vals := t.keys, t.vals
	t.keys = make([]uint64, 2*len(keys))
	t.vals = make([]uint32, 2*len(vals))
	t.mask = uint64(len(t.keys) - 1)
	t.n = 0
	for i, k := range keys {
		if k != 0 {
			t.put(k-1, vals[i])
		}
	}
}

// bytes is the memory the table holds.
func (t *memoTable) bytes() int64 { return int64(len(t.keys)) * 12 }

// number returns k's number in t, giving it the next one (and charging
// its entry to the shared tables' memory) when k is new.
func (sh *sharedSystem) number(t *memoTable, k uint64) uint32 {
	id, ok := t.get(k)
	if !ok {
		id = uint32(t.n)
		t.put(k, id)
		sh.tables += 24
	}
	return id
}

// interner numbers word sequences (of any length) in the order they are
// first seen, keeping them in one flat array.
type interner struct {
	data  []uint64
	off   []uint32 // key i is data[off[i]:off[i+1]]
	table []uint32 // open addressing: number+1, 0 = empty
	mask  uint64
}

func newInterner() *interner {
	in := &interner{off: []uint32{0}, table: make([]uint32, 1<<10)}
	in.mask = uint64(len(in.table) - 1)
	return in
}

func (in *interner) len() int { return len(in.off) - 1 }

func (in *interner) key(i uint32) []uint64 { return in.data[in.off[i]:in.off[i+1]] }

func hashKey(k []uint64) uint64 {
	h := uint64(len(k))
	for _, w := range k {
		h = mix(h ^ w)
	}
	return h
}

// intern returns the number of k and whether it is new.
func (in *interner) intern(k []uint64) (uint32, bool) {
	if (in.len()+1)*4 > len(in.table)*3 {
		in.grow()
	}
	for h := hashKey(k) & in.mask; ; h = (h + 1) & in.mask {
		slot := in.table[h]
		if slot == 0 {
			id := uint32(in.len())
			in.data = append(in.data, k...)
			in.off = append(in.off, uint32(len(in.data)))
			in.table[h] = id + 1
			return id, true
		}
		if equalWords(in.key(slot-1), k) {
			return slot - 1, false
		}
	}
}

func equalWords(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (in *interner) grow() {
	in.table = make([]uint32, 2*len(in.table))
	in.mask = uint64(len(in.table) - 1)
	for i := 0; i < in.len(); i++ {
		h := hashKey(in.key(uint32(i))) & in.mask
		for in.table[h] != 0 {
			h = (h + 1) & in.mask
		}
		in.table[h] = uint32(i) + 1
	}
}
