package cycles

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// sharedMemo is a memo from 64-bit keys to 32-bit values that the shared
// system and its forks use at once (shared_fork.go): the step of a set
// over an event or a barrier, and the pruning of a set, whose keys and
// values are numbers every goroutine agrees on. Without it each fork
// recomputed, and interned again, every step the others had already
// memoised; on prodcons at N = 4 that doubled the CPU of the steps.
//
// It is a cache: open addressing in fixed arrays, read without a lock. A
// slot is claimed by a compare-and-swap of its key and then given its
// value; a reader that finds the key before the value takes it as a miss
// and computes the value itself (the same one: the computation is a
// function of the key). The arrays never grow in place: a table that is
// three quarters full is replaced, by one twice as large holding its
// entries while it is below its cap, else by an empty one of the same
// size (a flush). Entries made meanwhile in the old table may be lost,
// which costs recomputation only.
type sharedMemo struct {
	cur       atomic.Pointer[cmemo]
	replacing atomic.Bool  // a goroutine is making cur's successor
	maxLen    int          // slots of the largest table
	bytes     atomic.Int64 // of the current table, in the tables' budget
	flushes   atomic.Int64
}

// A slot holds its key and its value side by side, so that the value
// is read and written in the cache line the key's probe brought in.
type cmemo struct {
	slots []cslot
	mask  uint64
	// n counts the entries by samples: an entry whose slot number is a
	// multiple of every adds every, since a locked add per entry, on a
	// line every goroutine writes, cost more than the probe itself.
	n     atomic.Int64
	every uint64
}

type cslot struct {
	key atomic.Uint64 // key+1; 0 marks an empty slot
	val atomic.Uint32 // value+1; 0 until the value is written
	_   uint32
}

// The layouts fill relies on.
var _ = [1]struct{}{}[unsafe.Sizeof(cslot{})-unsafe.Sizeof(plainSlot{})]
var _ = [1]struct{}{}[unsafe.Offsetof(cslot{}.val)-unsafe.Offsetof(plainSlot{}.val)]

// maxProbe bounds a probe: past it an entry is not made, or taken as
// missing. A table can run fuller than planned (the count is sampled, and
// goroutines go on inserting while one replaces it), even full.
const maxProbe = 128

func newCmemo(slots int) *cmemo {
	t := &cmemo{slots: make([]cslot, slots), mask: uint64(slots - 1), every: 1}
	if slots >= 1<<12 {
		t.every = 16
	}
	return t
}

// newSharedMemo returns a memo whose table grows up to the smallest power
// of two of slots (64 at least) that holds maxEntries three quarters
// full; it starts at 1,024 slots, or that if it is smaller.
func newSharedMemo(maxEntries int) *sharedMemo {
	m := &sharedMemo{maxLen: 64}
	for m.maxLen*3/4 < maxEntries && m.maxLen < 1<<31 {
		m.maxLen *= 2
	}
	t := newCmemo(min(1<<10, m.maxLen))
	m.cur.Store(t)
	m.bytes.Store(int64(len(t.slots)) * 16)
	return m
}

func (m *sharedMemo) get(k uint64) (uint32, bool) {
	t := m.cur.Load()
	k++
	h := mix(k) & t.mask
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

func (m *sharedMemo) put(k uint64, v uint32) {
	t := m.cur.Load()
	if (t.n.Load()+1)*4 > int64(len(t.slots))*3 {
		t = m.replace(t)
	}
	t.put(k+1, v+1)
}

func (t *cmemo) put(k uint64, v uint32) {
	h := mix(k) & t.mask
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
func (nt *cmemo) fill(t *cmemo) {
	plain := unsafe.Slice((*plainSlot)(unsafe.Pointer(unsafe.SliceData(nt.slots))), len(nt.slots))
	n := int64(0)
	for i := range t.slots {
		sl := &t.slots[i]
		k, v := sl.key.Load(), sl.val.Load()
		if k == 0 || v == 0 {
			continue
		}
		h := mix(k) & nt.mask
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
func (m *sharedMemo) replace(t *cmemo) *cmemo {
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
	nt := newCmemo(size)
	if grow {
		nt.fill(t)
	}
	m.cur.Store(nt)
	m.bytes.Store(int64(size) * 16)
	if !grow {
		m.flushes.Add(1)
	}
	return nt
}

// resultStore remembers, per 64-bit key, a run of markResults: the
// outcomes of every marking of a move from a set (shared_marks.go), and
// the same pruned (succMemo). Like sharedMemo it is shared by the forks
// and a cache, and it is read without a lock. A run is written into a
// chunk that its goroutine holds alone, after a header that gives its
// length, and then made known by a sharedMemo from its key to its
// position; a reader finds the chunk in the directory, which is replaced
// (never changed) when it grows. Chunks are handed out under the tables'
// mutex. A full store is replaced by an empty one.
type resultStore struct {
	spans  *sharedMemo // key → position of the run's header
	dir    atomic.Pointer[[]*resultChunk]
	chunks int // chunks handed out, under the mutex
	max    int // chunks at most
}

const (
	chunkBits = 12
	chunkLen  = 1 << chunkBits
)

type resultChunk [chunkLen]markResult

func newResultStore(maxRuns int) *resultStore {
	st := &resultStore{spans: newSharedMemo(maxRuns), max: min(1<<(32-chunkBits), max(4, maxRuns/(chunkLen/4)))}
	st.dir.Store(new([]*resultChunk))
	return st
}

// results is a store that can be replaced, with its memory and flushes.
type results struct {
	cur     atomic.Pointer[resultStore]
	bytes   atomic.Int64
	flushes atomic.Int64
}

// resultWriter is a goroutine's chunk of a store.
type resultWriter struct {
	st    *resultStore
	chunk *resultChunk
	pos   uint32 // position of chunk[0]
	used  int
}

// get returns the run of key k, or false.
func (rs *results) get(k uint64) ([]markResult, bool) {
	st := rs.cur.Load()
	pos, ok := st.spans.get(k)
	if !ok {
		return nil, false
	}
	c := (*st.dir.Load())[pos>>chunkBits]
	off := int(pos & (chunkLen - 1))
	n := int(c[off].set)
	return c[off+1 : off+1+n : off+1+n], true
}

// put stores res as the run of key k, through the goroutine's writer w,
// and returns the stored copy (res itself when it is too long to store).
// mu is the tables' mutex.
func (rs *results) put(k uint64, res []markResult, w *resultWriter, mu *sync.Mutex) []markResult {
	if len(res)+1 > chunkLen {
		return res
	}
	st := rs.cur.Load()
	if w.st != st || w.used+len(res)+1 > chunkLen {
		st = rs.newChunk(w, mu)
	}
	c, off := w.chunk, w.used
	c[off] = markResult{set: uint32(len(res))}
	copy(c[off+1:], res)
	w.used += len(res) + 1
	st.spans.put(k, w.pos+uint32(off))
	return c[off+1 : off+1+len(res) : off+1+len(res)]
}

// newChunk gives w a chunk of the current store, replacing the store by an
// empty one when it has handed out all its chunks.
func (rs *results) newChunk(w *resultWriter, mu *sync.Mutex) *resultStore {
	mu.Lock()
	defer mu.Unlock()
	st := rs.cur.Load()
	if st.chunks >= st.max {
		st = newResultStore(st.max * (chunkLen / 4))
		rs.cur.Store(st)
		rs.bytes.Store(0)
		rs.flushes.Add(1)
	}
	c := new(resultChunk)
	dir := append(slices.Clone(*st.dir.Load()), c)
	st.dir.Store(&dir)
	w.st, w.chunk, w.pos, w.used = st, c, uint32(st.chunks)<<chunkBits, 0
	st.chunks++
	rs.bytes.Add(int64(len(c))*8 + 8)
	return st
}

func (rs *results) reset(maxRuns int) {
	rs.cur.Store(newResultStore(maxRuns))
	rs.bytes.Store(0)
}
