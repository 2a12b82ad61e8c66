package table

// Vecs numbers word vectors of one width in the order they are first
// added, keeping them end to end in one array: a vector costs its words
// and its share of the slots. For one goroutine.
type Vecs struct {
	w     int
	words []uint64
	index Index
}

// NewVecs is an empty table of vectors of w words.
func NewVecs(w int) *Vecs { return &Vecs{w: w, index: MakeIndex(1 << 10)} }

// Len is the number of vectors.
func (t *Vecs) Len() int { return t.index.Len() }

// Get is vector i; it stays valid until the next Add.
func (t *Vecs) Get(i uint32) []uint64 { return t.words[int(i)*t.w : int(i+1)*t.w] }

// Add is the number of x, the next one if x is new.
func (t *Vecs) Add(x []uint64) uint32 {
	if t.index.Crowded() {
		t.index.Grow(func(i uint32) uint64 { return Hash(t.Get(i)) })
	}
	n, slot, ok := t.index.Find(Hash(x), func(i uint32) bool { return equal(t.Get(i), x) })
	if ok {
		return n
	}
	t.words = append(t.words, x...)
	return t.index.Add(slot)
}

// Bytes is the memory the table holds.
func (t *Vecs) Bytes() int64 { return int64(cap(t.words))*8 + t.index.Bytes() }

func equal(a, b []uint64) bool {
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

// Seqs numbers word sequences of any length in the order they are first
// added, keeping them end to end in one array with their offsets. For
// one goroutine (callers that share one lock it).
type Seqs struct {
	data  []uint64
	off   []uint32 // sequence i is data[off[i]:off[i+1]]
	index Index
}

// NewSeqs is an empty table.
func NewSeqs() *Seqs { return &Seqs{off: []uint32{0}, index: MakeIndex(1 << 10)} }

// Len is the number of sequences.
func (t *Seqs) Len() int { return t.index.Len() }

// Get is sequence i.
func (t *Seqs) Get(i uint32) []uint64 { return t.data[t.off[i]:t.off[i+1]] }

// Arrays are the table's arrays as they are now: sequence i < Len() is
// data[off[i]:off[i+1]] for good, since later additions append (a reader
// may keep them, and read them without the writer's lock).
func (t *Seqs) Arrays() (data []uint64, off []uint32) { return t.data, t.off }

// Add is the number of k and whether it is new.
func (t *Seqs) Add(k []uint64) (uint32, bool) {
	if t.index.Crowded() {
		t.index.Grow(func(i uint32) uint64 { return Hash(t.Get(i)) })
	}
	n, slot, ok := t.index.Find(Hash(k), func(i uint32) bool { return equal(t.Get(i), k) })
	if ok {
		return n, false
	}
	t.data = append(t.data, k...)
	t.off = append(t.off, uint32(len(t.data)))
	return t.index.Add(slot), true
}
