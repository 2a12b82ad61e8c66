package cycles

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/pgasrob/pgasrob/automata/table"
)

// resultStore remembers, per 64-bit key, a run of markResults: the
// outcomes of every marking of a move from a set (shared_marks.go), and
// the same pruned (succMemo). Like the memos (table.Cache) it is shared by the forks
// and a cache, and it is read without a lock. A run is written into a
// chunk that its goroutine holds alone, after a header that gives its
// length, and then made known by a table.Cache from its key to its
// position; a reader finds the chunk in the directory, which is replaced
// (never changed) when it grows. Chunks are handed out under the tables'
// mutex. A full store is replaced by an empty one.
type resultStore struct {
	spans  *table.Cache // key → position of the run's header
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
	st := &resultStore{spans: table.NewCache(maxRuns), max: min(1<<(32-chunkBits), max(4, maxRuns/(chunkLen/4)))}
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
	pos, ok := st.spans.Get(k)
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
	st.spans.Put(k, w.pos+uint32(off))
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
