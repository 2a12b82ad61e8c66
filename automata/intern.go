package automata

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// An Interner numbers word vectors of one width, each once, for several
// searches at a time: the searches of a decision that walk the same states
// of one automaton (the cycle types of a PGAS decision all walk Y) keep
// those states once between them instead of once per search. A Collapser
// that names one (SharedCollapser) has its first part interned there.
//
// The table is split into shards by the top bits of the hash, each a
// store behind its own lock; a number is the shard and the index in it.
// Searches of one decision run on a few goroutines and look up mostly
// states that are already there, so a lock per call is cheap next to the
// probe it guards.
type Interner struct {
	width  int
	shards [internShards]internShard
	// limit is the entries a shard may take before the table counts as
	// full (internMax less a margin, lowered by tests); full is set
	// when one shard reaches it, and the searches adding to the table
	// then end on their memory limit (store.full) instead of finding no
	// number to give.
	limit int
	full  atomic.Bool
}

const (
	internShardBits = 4
	internShards    = 1 << internShardBits
	// internMax bounds the entries of one shard so that its number fits
	// in 32 bits beside the shard.
	internMax = 1<<(32-internShardBits) - 1
	// internMargin is how many entries a shard keeps in reserve once the
	// table counts as full: a search checks store.full before each
	// insertion, which interns at most one vector, so concurrent searches
	// cannot use up the margin.
	internMargin = 1 << 16
)

type internShard struct {
	mu sync.RWMutex
	st *store
	// vals[i] is the value attached to entry i (SetValue), if any.
	vals []any
}

// NewInterner is an empty table of vectors of width words.
func NewInterner(width int) *Interner {
	// The shards' stores are made on first use: a decision on a small
	// program touches a few of them.
	return &Interner{width: width, limit: internMax - internMargin}
}

// Full reports whether a shard of the table has reached its limit: the
// searches adding to it stop (store.full).
func (in *Interner) Full() bool { return in.full.Load() }

// Width is the number of words of the vectors.
func (in *Interner) Width() int { return in.width }

func internShardOf(h uint64) uint32 { return uint32(h >> (64 - internShardBits)) }

// Intern returns the number of x, adding x if new (then fresh is true).
func (in *Interner) Intern(x State) (n uint32, fresh bool) {
	h := hash(x)
	k := internShardOf(h)
	sh := &in.shards[k]
	sh.mu.Lock()
	if sh.st == nil {
		sh.st = newStore(in.width)
	}
	if sh.st.len() >= internMax {
		sh.mu.Unlock()
		// Unreachable: the searches stop at limit, internMargin entries
		// before (store.full), and a memory budget long before that.
		panic(fmt.Sprintf("automata: interner shard full (%d entries)", internMax))
	}
	i, fresh := sh.st.insertHashed(x, h, noParent)
	if i >= in.limit {
		in.full.Store(true)
	}
	sh.mu.Unlock()
	return uint32(i)<<internShardBits | k, fresh
}

// Find is the number of x, or false when x has not been interned.
func (in *Interner) Find(x State) (uint32, bool) {
	n, _, ok := in.Lookup(x)
	return n, ok
}

// Load copies the vector numbered n into dst.
func (in *Interner) Load(dst State, n uint32) {
	sh := &in.shards[n&(internShards-1)]
	sh.mu.RLock()
	copy(dst, sh.st.entry(int(n>>internShardBits)))
	sh.mu.RUnlock()
}

// Len is the number of vectors interned.
func (in *Interner) Len() int {
	n := 0
	for i := range in.shards {
		sh := &in.shards[i]
		sh.mu.RLock()
		if sh.st != nil {
			n += sh.st.len()
		}
		sh.mu.RUnlock()
	}
	return n
}

// Bytes is the memory the table holds now.
func (in *Interner) Bytes() int64 {
	var b int64
	for i := range in.shards {
		sh := &in.shards[i]
		sh.mu.RLock()
		if sh.st != nil {
			b += sh.st.bytes() + int64(cap(sh.vals))*16
		}
		sh.mu.RUnlock()
	}
	return b
}

// entryBytes is what one vector costs the table, amortised: its words,
// the parent link the store keeps, and a hash slot at a load of a half.
func (in *Interner) entryBytes() int64 { return int64(in.width)*8 + 4 + 8 }

// Lookup is Find with the value attached to x (nil if none).
func (in *Interner) Lookup(x State) (n uint32, v any, ok bool) {
	h := hash(x)
	k := internShardOf(h)
	sh := &in.shards[k]
	sh.mu.RLock()
	i := -1
	if sh.st != nil {
		i = sh.st.findHashed(x, h)
	}
	if i >= 0 && i < len(sh.vals) {
		v = sh.vals[i]
	}
	sh.mu.RUnlock()
	if i < 0 {
		return 0, nil, false
	}
	return uint32(i)<<internShardBits | k, v, true
}

// Value is the value attached to the entry numbered n (nil if none).
func (in *Interner) Value(n uint32) any {
	sh := &in.shards[n&(internShards-1)]
	i := int(n >> internShardBits)
	var v any
	sh.mu.RLock()
	if i < len(sh.vals) {
		v = sh.vals[i]
	}
	sh.mu.RUnlock()
	return v
}

// SetValue attaches v to the entry numbered n unless a value is attached
// already; it returns the value attached. Users attach data computed
// from the vector (the moves of a Y state), so that searches sharing the
// table share it too.
func (in *Interner) SetValue(n uint32, v any) any {
	sh := &in.shards[n&(internShards-1)]
	i := int(n >> internShardBits)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if i < len(sh.vals) && sh.vals[i] != nil {
		return sh.vals[i]
	}
	for len(sh.vals) <= i {
		sh.vals = append(sh.vals, nil)
	}
	sh.vals[i] = v
	return v
}
