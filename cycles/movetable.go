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
// moves are stored once, attached to the state's entry in ys, the table
// of Y's states that the per-type searches' visited sets share, until
// the table has used its byte budget; after that, new states' moves are
// computed and not stored. Nothing is evicted: the product of every cycle
// type walks mostly the same states of Y, so the states met first are
// met again by every later type.
type moveTable struct {
	y            *normalform.Y
	bytes        atomic.Int64
	maxBytes     int64
	hits, misses atomic.Int64
	// ys numbers Y's states for the visited sets of the per-type
	// searches (product.CollapseTable): each Y state met by any type is
	// kept once for the decision. It is not bounded by maxBytes: the
	// searches that add to it are charged for it (the table only for the
	// states it adds itself, which no search has stored).
	ys *automata.Interner
	// sigIDs numbers move signatures (perstatememo.go) for all the
	// products of the decision.
	sigMu  sync.Mutex
	sigIDs map[uint64]uint32
}

// tableEntry is a Y state's moves and, once a product with the table
// (product.table) has asked, its ample-set candidates: the part of the
// check of reduce.go that reads Y alone, the same for every cycle type.
type tableEntry struct {
	moveEntry
	cand atomic.Pointer[candidateList]
	// index, once a memoising product has asked, is what moveIndex
	// lists, the same for every cycle type.
	index atomic.Pointer[moveIndex]
}

// moveIndex is the numbers of a Y state's moves' signatures (noSig for a
// move without one).
type moveIndex struct {
	sigs []uint32
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
	return &moveTable{y: y, maxBytes: maxBytes, ys: automata.NewInterner(y.Words()), sigIDs: map[uint64]uint32{}}
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
	n, v, known := t.ys.Lookup(s)
	if v != nil {
		t.hits.Add(1)
		e := v.(*tableEntry)
		return e.moves, e
	}
	t.misses.Add(1)
	mv, _ := t.y.Moves(s)
	if t.bytes.Load() >= t.maxBytes {
		return mv, nil
	}
	if !known {
		var fresh bool
		if n, fresh = t.ys.Intern(s); fresh {
			t.bytes.Add(int64(8*len(s) + 16))
		}
	}
	e := &tableEntry{moveEntry: moveEntry{key: append(automata.State(nil), s...), moves: mv}}
	if old := t.ys.SetValue(n, e).(*tableEntry); old != e {
		return old.moves, old
	}
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

// sigNumber is the number of move signature sig, the next one if new.
func (t *moveTable) sigNumber(sig uint64) uint32 {
	t.sigMu.Lock()
	defer t.sigMu.Unlock()
	id, ok := t.sigIDs[sig]
	if !ok {
		id = uint32(len(t.sigIDs))
		t.sigIDs[sig] = id
	}
	return id
}

// moveIndex returns e's move index, making it on first use. Two
// goroutines may make it at once; both find the same.
func (t *moveTable) moveIndex(e *tableEntry) *moveIndex {
	if x := e.index.Load(); x != nil {
		return x
	}
	x := &moveIndex{sigs: make([]uint32, len(e.moves))}
	addrs := len(t.y.P.Addrs)
	for i := range e.moves {
		x.sigs[i] = noSig
		if sig, ok := moveSig(addrs, &e.moves[i]); ok {
			x.sigs[i] = t.sigNumber(sig)
		}
	}
	if e.index.CompareAndSwap(nil, x) {
		t.bytes.Add(int64(48 + 4*len(x.sigs)))
	}
	return e.index.Load()
}
