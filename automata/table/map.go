package table

// Map maps words below 2^64-1 to 32-bit values, for one goroutine (or
// under its caller's lock). A slot is a key plus one (0 marks an empty
// slot) in one array and its value in another: 12 bytes a slot.
type Map struct {
	keys []uint64
	vals []uint32
	n    int
	mask uint64
}

// NewMap is an empty map of 1,024 slots.
func NewMap() *Map {
	t := &Map{keys: make([]uint64, 1<<10), vals: make([]uint32, 1<<10)}
	t.mask = uint64(len(t.keys) - 1)
	return t
}

// Len is the number of keys.
func (t *Map) Len() int { return t.n }

// Bytes is the memory the map holds.
func (t *Map) Bytes() int64 { return int64(len(t.keys)) * 12 }

// Get is the value of key k.
func (t *Map) Get(k uint64) (uint32, bool) {
	k++
	for h := Word(k) & t.mask; ; h = (h + 1) & t.mask {
		switch t.keys[h] {
		case k:
			return t.vals[h], true
		case 0:
			return 0, false
		}
	}
}

// Put sets the value of key k.
func (t *Map) Put(k uint64, v uint32) {
	if (t.n+1)*4 > len(t.keys)*3 {
		t.grow()
	}
	k++
	for h := Word(k) & t.mask; ; h = (h + 1) & t.mask {
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

// Number is k's value, or, when k is new, the number of keys before it,
// which becomes its value: a numbering of the keys in the order they are
// first met.
func (t *Map) Number(k uint64) (id uint32, fresh bool) {
	if id, ok := t.Get(k); ok {
		return id, false
	}
	id = uint32(t.n)
	t.Put(k, id)
	return id, true
}

func (t *Map) grow() {
	keys, vals := t.keys, t.vals
	t.keys = make([]uint64, 2*len(keys))
	t.vals = make([]uint32, 2*len(vals))
	t.mask = uint64(len(t.keys) - 1)
	t.n = 0
	for i, k := range keys {
		if k != 0 {
			t.Put(k-1, vals[i])
		}
	}
}

// PairMap maps pairs of words to 32-bit values: one probe where
// numbering the pair first would take two. A slot is its two words in one
// array and its value plus one (0 marks an empty slot) in another: 20
// bytes a slot.
type PairMap struct {
	keys []uint64 // two words per slot
	vals []uint32
	n    int
	mask uint64
}

// NewPairMap is an empty map of 1,024 slots.
func NewPairMap() *PairMap {
	t := &PairMap{keys: make([]uint64, 2<<10), vals: make([]uint32, 1<<10)}
	t.mask = uint64(len(t.vals) - 1)
	return t
}

// Len is the number of keys.
func (t *PairMap) Len() int { return t.n }

// Bytes is the memory the map holds.
func (t *PairMap) Bytes() int64 { return int64(len(t.vals)) * 20 }

// Get is the value of (a, b).
func (t *PairMap) Get(a, b uint64) (uint32, bool) {
	for h := Pair(a, b) & t.mask; ; h = (h + 1) & t.mask {
		v := t.vals[h]
		if v == 0 {
			return 0, false
		}
		if t.keys[2*h] == a && t.keys[2*h+1] == b {
			return v - 1, true
		}
	}
}

// Put sets the value of (a, b), which must not be in the map.
func (t *PairMap) Put(a, b uint64, v uint32) {
	if (t.n+1)*4 > len(t.vals)*3 {
		t.grow()
	}
	h := Pair(a, b) & t.mask
	for t.vals[h] != 0 {
		h = (h + 1) & t.mask
	}
	t.keys[2*h], t.keys[2*h+1], t.vals[h] = a, b, v+1
	t.n++
}

func (t *PairMap) grow() {
	keys, vals := t.keys, t.vals
	t.keys = make([]uint64, 2*len(keys))
	t.vals = make([]uint32, 2*len(vals))
	t.mask = uint64(len(t.vals) - 1)
	t.n = 0
	for i, v := range vals {
		if v != 0 {
			t.Put(keys[2*i], keys[2*i+1], v-1)
		}
	}
}
