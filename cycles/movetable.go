package cycles

import (
	"sync"
	"sync/atomic"

	"pgasrob/automata"
	"pgasrob/normalform"
)

// moveTable shares Y's moves between the products of the cycle types
// (their searches walk mostly the same states of Y, and computing a
// state's moves evaluates expressions for every rank). Every Y state's
// moves are stored once, in a sharded map keyed by a hash of the
// state's words (the words are kept and compared, since states may share
// a hash), until the table has used its byte budget; after that, new
// states' moves are computed and not stored. Nothing is evicted: the
// product of every cycle type walks mostly the same states of Y, so the
// states met first are met again by every later type.
type moveTable struct {
	y            *normalform.Y
	shards       [64]tableShard
	bytes        atomic.Int64
	maxBytes     int64
	hits, misses atomic.Int64
}

type tableShard struct {
	sync.Mutex
	m map[uint64][]*tableEntry
}

// tableEntry is a Y state's moves and, once a product with the table
// (product.table) has asked, its ample-set candidates: the part of the
// check of reduce.go that reads Y alone, the same for every cycle type.
type tableEntry struct {
	moveEntry
	cand atomic.Pointer[candidateList]
}

// candidateList is what reducer.candidates lists for a Y state: the
// ranks, in order, and their cells, words each.
type candidateList struct {
	ranks []int32
	masks []uint64
}

// ample is reducer.ample with the listed candidates: the first rank none
// of whose cells are started, or 0.
func (c *candidateList) ample(started []uint64) int {
	words := len(started)
	for i, r := range c.ranks {
		if disjoint(c.masks[i*words:(i+1)*words], started) {
			return int(r)
		}
	}
	return 0
}

func newMoveTable(y *normalform.Y, maxBytes int64) *moveTable {
	t := &moveTable{y: y, maxBytes: maxBytes}
	for i := range t.shards {
		t.shards[i].m = map[uint64][]*tableEntry{}
	}
	return t
}

func (t *moveTable) find(sh *tableShard, h uint64, s automata.State) *tableEntry {
	for _, e := range sh.m[h] {
		if automata.Equal(e.key, s) {
			return e
		}
	}
	return nil
}

// moves returns Y's moves from the Y part of a state. Range errors are
// dropped here: the commands that hit them cannot execute, and Decide
// looks for reachable range errors separately. With no budget (maxBytes
// <= 0) nothing is stored.
func (t *moveTable) moves(s automata.State) []normalform.Move {
	mv, _ := t.entry(s)
	return mv
}

// entry is moves, with the table's entry for s (nil when the table has
// no room for it or is disabled).
func (t *moveTable) entry(s automata.State) ([]normalform.Move, *tableEntry) {
	if t.maxBytes <= 0 {
		mv, _ := t.y.Moves(s)
		return mv, nil
	}
	h := hashWords(s)
	sh := &t.shards[h%uint64(len(t.shards))]
	sh.Lock()
	e := t.find(sh, h, s)
	sh.Unlock()
	if e != nil {
		t.hits.Add(1)
		return e.moves, e
	}
	t.misses.Add(1)
	mv, _ := t.y.Moves(s)
	if t.bytes.Load() >= t.maxBytes {
		return mv, nil
	}
	e = &tableEntry{moveEntry: moveEntry{key: append(automata.State(nil), s...), moves: mv}}
	sh.Lock()
	if old := t.find(sh, h, s); old != nil {
		sh.Unlock()
		return old.moves, old
	}
	sh.m[h] = append(sh.m[h], e)
	sh.Unlock()
	t.bytes.Add(entryCost(&e.moveEntry) + 16)
	return mv, e
}

// candidates returns e's ample-set candidates, listing them with rd on
// first use. Two goroutines may list them at once; both find the same
// list, and the first one stored is kept.
func (t *moveTable) candidates(e *tableEntry, rd *reducer, fut *normalform.Future) *candidateList {
	if c := e.cand.Load(); c != nil {
		return c
	}
	c := &candidateList{}
	rd.candidates(t.y, fut, e.key, e.moves, func(r int, mine []uint64) bool {
		c.ranks = append(c.ranks, int32(r))
		c.masks = append(c.masks, mine...)
		return true
	})
	if !e.cand.CompareAndSwap(nil, c) {
		return e.cand.Load()
	}
	t.bytes.Add(int64(48 + 4*len(c.ranks) + 8*len(c.masks)))
	return c
}

// stats are the table's hits and misses so far.
func (t *moveTable) stats() (hits, misses int64) { return t.hits.Load(), t.misses.Load() }
