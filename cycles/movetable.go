package cycles

import (
	"sync"
	"sync/atomic"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/table"
	"github.com/pgasrob/pgasrob/normalform"
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
	// sigIDs numbers move signatures (product_memo.go) for all the
	// products of the decision.
	sigMu  sync.Mutex
	sigIDs *table.Map
	// pressure, while on, keeps new moves out of the table (and the
	// products' memos small, memoLimit): the process nears its memory
	// budget, and what the table would keep can be computed again.
	pressure *automata.Pressure
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
	// aux is, for k moves, three arrays in one (a Y state's entry is kept
	// for the whole decision, so it is kept small):
	//
	//   - aux[i], i < k: the number of moves[i]'s target in ys plus one,
	//     or 0 until a visited set has stored a successor along it: the
	//     hint of product.PartHint, which spares the visited sets
	//     interning the target again (automata/hint.go);
	//   - aux[k+i], when the table's ctrlOK: the control states of every
	//     rank in moves[i]'s target, ctrlBits each, rank r's at bit
	//     (r-1)*ctrlBits (a memoising product's key, moveMemo.byRank);
	//   - aux[2k+r], r = 1..N+1, when ranked: the index of the first move
	//     of rank r or higher (barriers, rank 0, come last), so that the
	//     moves of an ample rank are visited without reading the others.
	aux    []atomic.Uint32
	ranked bool
}

// slot is the hint slot of move i (see aux).
func (e *tableEntry) slot(i int) *atomic.Uint32 { return &e.aux[i] }

// ctrl is the control states of move i's target (see aux).
func (e *tableEntry) ctrl(i int) uint64 { return uint64(e.aux[len(e.moves)+i].Load()) }

// rankMoves is the range of the moves of rank r, or false when unknown.
func (e *tableEntry) rankMoves(r int) (lo, hi int, ok bool) {
	if !e.ranked {
		return 0, 0, false
	}
	b := 2 * len(e.moves)
	return int(e.aux[b+r].Load()), int(e.aux[b+r+1].Load()), true
}

// ctrlPacking is the bits per rank of the control states packed in aux,
// and whether those of all N ranks fit in 32 bits.
func ctrlPacking(y *normalform.Y) (bits int, ok bool) {
	bits = automata.BitsFor(len(y.P.Labels))
	return bits, bits*y.N <= 32
}

// newTableEntry is the entry of Y state s with moves mv.
func (t *moveTable) newTableEntry(s automata.State, mv []normalform.Move) *tableEntry {
	k, n := len(mv), t.y.N
	e := &tableEntry{moveEntry: moveEntry{key: append(automata.State(nil), s...), moves: mv},
		aux: make([]atomic.Uint32, 2*k+n+2)}
	if bits, ok := ctrlPacking(t.y); ok {
		for i := range mv {
			var c uint32
			for r := 1; r <= n; r++ {
				c |= uint32(t.y.Control(mv[i].Target, r)) << ((r - 1) * bits)
			}
			e.aux[k+i].Store(c)
		}
	}
	if starts := rankStarts(mv, n); starts != nil {
		e.ranked = true
		for r := 1; r <= n+1; r++ {
			e.aux[2*k+r].Store(uint32(starts[r]))
		}
	}
	return e
}

// rankStarts lists where the moves of each rank start (tableEntry.aux)
// for moves of n ranks, or nil when they are not in rank order.
func rankStarts(moves []normalform.Move, n int) []int32 {
	starts := make([]int32, n+2)
	r, last := 1, 1
	for i := range moves {
		k := moves[i].Rank
		if k == 0 {
			k = n + 1
		}
		if k < last || k > n+1 {
			return nil
		}
		last = k
		for ; r <= k; r++ {
			starts[r] = int32(i)
		}
	}
	for ; r <= n+1; r++ {
		starts[r] = int32(len(moves))
	}
	return starts
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
	return &moveTable{y: y, maxBytes: maxBytes, ys: automata.NewInterner(y.Words()), sigIDs: table.NewMap()}
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
	if t.bytes.Load() >= t.maxBytes || t.pressure.On() {
		return mv, nil
	}
	if !known {
		var fresh bool
		if n, fresh = t.ys.Intern(s); fresh {
			t.bytes.Add(int64(8*len(s) + 16))
		}
	}
	e := t.newTableEntry(s, mv)
	if old := t.ys.SetValue(n, e).(*tableEntry); old != e {
		return old.moves, old
	}
	t.bytes.Add(entryCost(&e.moveEntry) + 16 + 4*int64(len(e.aux)))
	return mv, e
}

// entryAt is the entry of the Y state numbered n in ys, or nil when it
// has none yet (then entry makes it).
func (t *moveTable) entryAt(n uint32) *tableEntry {
	if t.maxBytes <= 0 {
		return nil
	}
	if v := t.ys.Value(n); v != nil {
		t.hits.Add(1)
		return v.(*tableEntry)
	}
	return nil
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
	id, _ := t.sigIDs.Number(sig)
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
		if sig, ok := moveSig(addrs, &e.moves[i]); ok && !commutingMove(t.y, &e.moves[i]) {
			x.sigs[i] = t.sigNumber(sig)
		}
	}
	if e.index.CompareAndSwap(nil, x) {
		t.bytes.Add(int64(48 + 4*len(x.sigs)))
	}
	return e.index.Load()
}
