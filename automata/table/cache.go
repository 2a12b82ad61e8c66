package table

import (
	"sync/atomic"
	"unsafe"
)

// Cache maps words below 2^64-1 to values below 2^32-1 for goroutines
// that use it at once, without a lock: the memos of the shared
// exploration of cycles, whose keys and values are numbers every
// goroutine agrees on, and whose values are functions of their keys.
//
// It is open addressing in fixed arrays. A slot is claimed by a
// compare-and-swap of its key and then given its value; a reader that
// finds the key before the value takes it as a miss and computes the
// value itself (the same one). The arrays never grow in place: a table
// that is three quarters full is replaced, by one twice as large holding
// its entries while it is below its cap, else by an empty one of the
// same size (a flush). Entries made meanwhile in the old table may be
// lost, which costs recomputation only.
type Cache struct {
	cur       atomic.Pointer[cacheTable]
	replacing atomic.Bool  // a goroutine is making cur's successor
	maxLen    int          // slots of the largest table
	bytes     atomic.Int64 // of the current table
	flushes   atomic.Int64
}

// A slot holds its key and its value side by side, so that the value
// is read and written in the cache line the key's probe brought in.
type cacheTable struct {
	slots []cacheSlot
	mask  uint64
	// n counts the entries by samples: an entry whose slot number is a
	// multiple of every adds every, since a locked add per entry, on a
	// line every goroutine writes, cost more than the probe itself.
	n     atomic.Int64
	every uint64
}

type cacheSlot struct {
	key atomic.Uint64 // key+1; 0 marks an empty slot
	val atomic.Uint32 // value+1; 0 until the value is written
	_   uint32
}

// The layouts fill relies on.
var _ = [1]struct{}{}[unsafe.Sizeof(cacheSlot{})-unsafe.Sizeof(plainSlot{})]
var _ = [1]struct{}{}[unsafe.Offsetof(cacheSlot{}.val)-unsafe.Offsetof(plainSlot{}.val)]

// maxProbe bounds a probe: past it an entry is not made, or taken as
// missing. A table can run fuller than planned (the count is sampled, and
// goroutines go on inserting while one replaces it), even full.
const maxProbe = 128

// slotBytes is the memory of a slot.
const slotBytes = 16

func newCacheTable(slots int) *cacheTable {
	t := &cacheTable{slots: make([]cacheSlot, slots), mask: uint64(slots - 1), every: 1}
	if slots >= 1<<12 {
		t.every = 16
	}
	return t
}

// NewCache returns a cache whose table grows up to the smallest power of
// two of slots (64 at least) that holds maxEntries three quarters full;
// it starts at 1,024 slots, or that if it is smaller.
func NewCache(maxEntries int) *Cache {
	m := &Cache{maxLen: 64}
	for m.maxLen*3/4 < maxEntries && m.maxLen < 1<<31 {
		m.maxLen *= 2
	}
	t := newCacheTable(min(1<<10, m.maxLen))
	m.cur.Store(t)
	m.bytes.Store(int64(len(t.slots)) * slotBytes)
	return m
}

// Bytes is the memory of the current table.
func (m *Cache) Bytes() int64 { return m.bytes.Load() }

// Flushes is how many times a full table was replaced by an empty one.
func (m *Cache) Flushes() int64 { return m.flushes.Load() }

// Get is the value of key k, or false when the cache does not have it.
func (m *Cache) Get(k uint64) (uint32, bool) {
	t := m.cur.Load()
	k++
	h := Word(k) & t.mask
	for range maxProbe {
		sl := &t.slots[h]
		switch sl.key.Load() {
		case k:
			v := sl.val.Load()
			return v - 1, v != 0
		case 0:
			return 0, false
		}
		h = (h + 1) & t.mask
	}
	return 0, false
}

// Put sets the value of key k (every goroutine puts the same value for a
// key).
func (m *Cache) Put(k uint64, v uint32) {
	t := m.cur.Load()
	if (t.n.Load()+1)*4 > int64(len(t.slots))*3 {
		t = m.replace(t)
	}
	t.put(k+1, v+1)
}

func (t *cacheTable) put(k uint64, v uint32) {
	h := Word(k) & t.mask
	for range maxProbe {
		sl := &t.slots[h]
		cur := sl.key.Load()
		if cur == 0 {
			if sl.key.CompareAndSwap(0, k) {
				sl.val.Store(v)
				if h%t.every == 0 {
					t.n.Add(int64(t.every))
				}
				return
			}
			cur = sl.key.Load()
		}
		if cur == k {
			sl.val.Store(v)
			return
		}
		h = (h + 1) & t.mask
	}
}

// fill copies the entries of t into nt, which no other goroutine sees
// yet: with plain writes (a locked instruction per entry cost the growth
// of the tables five times as much), through a view of nt's slots
// without atomics, which has their layout.
func (nt *cacheTable) fill(t *cacheTable) {
	plain := unsafe.Slice((*plainSlot)(unsafe.Pointer(unsafe.SliceData(nt.slots))), len(nt.slots))
	n := int64(0)
	for i := range t.slots {
		sl := &t.slots[i]
		k, v := sl.key.Load(), sl.val.Load()
		if k == 0 || v == 0 {
			continue
		}
		h := Word(k) & nt.mask
		for plain[h].key != 0 {
			h = (h + 1) & nt.mask
		}
		plain[h] = plainSlot{key: k, val: v}
		n++
	}
	nt.n.Store(n)
}

type plainSlot struct {
	key uint64
	val uint32
	_   uint32
}

// replace puts a larger or an empty table in the place of t, unless
// another goroutine has done it already, and returns the current table.
func (m *Cache) replace(t *cacheTable) *cacheTable {
	if !m.replacing.CompareAndSwap(false, true) {
		return t // another goroutine replaces it: insert here meanwhile
	}
	defer m.replacing.Store(false)
	if cur := m.cur.Load(); cur != t {
		return cur // replaced meanwhile
	}
	size := len(t.slots)
	grow := size < m.maxLen
	if grow {
		size *= 2
	}
	nt := newCacheTable(size)
	if grow {
		nt.fill(t)
	}
	m.cur.Store(nt)
	m.bytes.Store(int64(size) * slotBytes)
	if !grow {
		m.flushes.Add(1)
	}
	return nt
}
