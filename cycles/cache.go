package cycles

import (
	"sync/atomic"

	"github.com/dgraph-io/ristretto/v2"

	"pgasrob/automata"
	"pgasrob/normalform"
)

// moveCache shares the moves of Y between the products for different cycle
// types: every product explores (mostly) the same states of Y, and computing
// a state's moves means evaluating expressions for every rank. It is a
// bounded concurrent cache (ristretto) keyed by a hash of Y's words; the
// words are stored with the entry and compared on every hit, because two
// states may share a hash.
type moveCache struct {
	c            *ristretto.Cache[uint64, *moveEntry]
	y            *normalform.Y
	hits, misses atomic.Int64
}

type moveEntry struct {
	key   automata.State
	moves []normalform.Move
}

func newMoveCache(y *normalform.Y, maxBytes int64) (*moveCache, error) {
	if maxBytes <= 0 {
		return &moveCache{y: y}, nil
	}
	c, err := ristretto.NewCache(&ristretto.Config[uint64, *moveEntry]{
		NumCounters: max(maxBytes/64, 1024), // entries cost ~600 bytes: about ten counters per entry
		MaxCost:     maxBytes,
		BufferItems: 64,
	})
	if err != nil {
		return nil, err
	}
	return &moveCache{c: c, y: y}, nil
}

func hashWords(s automata.State) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, w := range s {
		h ^= w
		h *= 0x100000001b3
		h ^= h >> 32
	}
	return h
}

// moves returns Y's moves from the Y part of a state. Range errors are
// dropped here: the commands that hit them cannot execute, and Decide looks
// for reachable range errors separately.
func (m *moveCache) moves(s automata.State) []normalform.Move {
	if m.c == nil {
		mv, _ := m.y.Moves(s)
		return mv
	}
	h := hashWords(s)
	if e, ok := m.c.Get(h); ok && automata.Equal(e.key, s) {
		m.hits.Add(1)
		return e.moves
	}
	m.misses.Add(1)
	mv, _ := m.y.Moves(s)
	e := &moveEntry{key: append(automata.State(nil), s...), moves: mv}
	m.c.Set(h, e, entryCost(e))
	return mv
}

func entryCost(e *moveEntry) int64 {
	c := int64(64 + 8*len(e.key))
	for _, mv := range e.moves {
		c += int64(96 + 8*len(mv.Target) + 48*len(mv.Events) + 8*len(mv.BarTrans))
	}
	return c
}

// stats returns how often a state's moves were found in the cache.
func (m *moveCache) stats() (hits, misses int64) { return m.hits.Load(), m.misses.Load() }

func (m *moveCache) close() {
	if m.c != nil {
		m.c.Close()
	}
}
