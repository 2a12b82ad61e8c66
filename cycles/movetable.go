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
	m map[uint64][]*moveEntry
}

func newMoveTable(y *normalform.Y, maxBytes int64) *moveTable {
	t := &moveTable{y: y, maxBytes: maxBytes}
	for i := range t.shards {
		t.shards[i].m = map[uint64][]*moveEntry{}
	}
	return t
}

func (t *moveTable) find(sh *tableShard, h uint64, s automata.State) *moveEntry {
	for _, e := range sh.m[h] {
		if automata.Equal(e.key, s) {
			return e
		}
	}
	return nil
}

func (t *moveTable) moves(s automata.State) []normalform.Move {
	if t.maxBytes <= 0 {
		mv, _ := t.y.Moves(s)
		return mv
	}
	h := hashWords(s)
	sh := &t.shards[h%uint64(len(t.shards))]
	sh.Lock()
	e := t.find(sh, h, s)
	sh.Unlock()
	if e != nil {
		t.hits.Add(1)
		return e.moves
	}
	t.misses.Add(1)
	mv, _ := t.y.Moves(s)
	if t.bytes.Load() >= t.maxBytes {
		return mv
	}
	e = &moveEntry{key: append(automata.State(nil), s...), moves: mv}
	sh.Lock()
	if old := t.find(sh, h, s); old != nil {
		sh.Unlock()
		return old.moves
	}
	sh.m[h] = append(sh.m[h], e)
	sh.Unlock()
	t.bytes.Add(entryCost(e))
	return mv
}

// moves returns Y's moves from the Y part of a state. Range errors are
// dropped here: the commands that hit them cannot execute, and Decide
// looks for reachable range errors separately. With no budget (maxBytes
// <= 0) nothing is stored.
func (t *moveTable) stats() (hits, misses int64) { return t.hits.Load(), t.misses.Load() }
