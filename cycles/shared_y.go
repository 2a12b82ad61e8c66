package cycles

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/table"
	"github.com/pgasrob/pgasrob/normalform"
)

// What the shared exploration needs of a state of Y, kept per Y state
// (its 32-bit number in yTable). A shared state is expanded many times
// over one Y state (once per (μ, set) met there), and each expansion used
// to look up the Y state's moves in the move table, number the control
// states every move leads to, number every move's marking signature and
// redo the part of the ample-set check that reads Y alone: four hash
// probes per move and a mutex per state. Here they are found once per Y
// state, and a move of one rank is reduced to a key per μ of its rank:
// (signature, control states), so that the successors of (set, key) — its
// markings' outcomes, already pruned — are one probe of succMemo.

// noKey marks a move whose markings have no signature (barriers, or more
// events than a signature holds): it takes the enumerating path.
const noKey = ^uint32(0)

type yTable struct {
	words *table.Seqs
	moves [][]normalform.Move
	first []uint32 // first[i]: index of Y state i's first move in ctl and keys
	ctl   []uint32 // per move: the number of its target's control states
	// keys[4j+μ]: for move j with its rank's μ, 1 + the number of
	// (signature, control states), noKey, or 0 when not yet known.
	keys []uint32
	// stuck[i]: the ranks blocked for good in Y state i (stuck.go);
	// stuckKey[i], when stuck[i] != 0, numbers its control states and
	// stuck ranks for the memo of the pruning with them.
	stuck    []uint64
	stuckKey []uint32
	candOff  []uint32 // Y state i's ample candidates: cand[candOff[i]:candOff[i+1]]
	cand     []int32  // the candidates' ranks
	masks    []uint64 // per candidate: its cells, words each
	words_   int
	bytes    int64
}

func newYTable(words int) *yTable {
	return &yTable{words: table.NewSeqs(), first: []uint32{0}, candOff: []uint32{0}, words_: words}
}

// yState returns the number of the Y part of s, filling its entry when it
// is new. The table is emptied first when it holds more than maxBytes (it
// is a cache; the numbers are only used within one expansion).
func (sh *sharedSystem) yState(s automata.State) uint32 {
	yt := sh.ytab
	if yt.bytes > sh.yCap {
		sh.tables -= yt.bytes
		yt = newYTable(yt.words_)
		sh.ytab = yt
		sh.yFlushes++
	}
	id, fresh := yt.words.Add(s[:sh.yw])
	if !fresh {
		return id
	}
	moves := sh.moves(s[:sh.yw])
	yt.moves = append(yt.moves, moves)
	for i := range moves {
		yt.ctl = append(yt.ctl, sh.controls(moves[i].Target))
	}
	yt.keys = append(yt.keys, make([]uint32, 4*len(moves))...)
	yt.first = append(yt.first, uint32(len(yt.ctl)))
	if sh.reduce != nil {
		sh.reduce.candidates(sh.y, sh.prods[0].future, s, moves, func(r int, mine []uint64) bool {
			yt.cand = append(yt.cand, int32(r))
			yt.masks = append(yt.masks, mine...)
			return true
		})
	}
	yt.candOff = append(yt.candOff, uint32(len(yt.cand)))
	var stuck uint64
	var key uint32
	if sh.free != nil {
		stuck = sh.free.stuckRanks(sh.y, s, moves)
	}
	if stuck != 0 {
		key = sh.stuckControls(s, stuck)
	}
	yt.stuck, yt.stuckKey = append(yt.stuck, stuck), append(yt.stuckKey, key)
	b := int64(8*sh.yw+4+8) + 24 + 4 + 4 + 12 + movesCost(moves) + int64(len(yt.cand)-int(yt.candOff[id]))*int64(4+8*yt.words_)
	yt.bytes += b
	sh.tables += b
	return id
}

// ample is the rank whose moves alone are explored from Y state i when
// the started pairs' cells are started (nil: none), or 0; the same rank
// as reducer.ample.
func (yt *yTable) ample(i uint32, started []uint64) int {
	for c := yt.candOff[i]; c < yt.candOff[i+1]; c++ {
		if started == nil {
			return int(yt.cand[c])
		}
		if disjoint(yt.masks[int(c)*yt.words_:int(c+1)*yt.words_], started) {
			return int(yt.cand[c])
		}
	}
	return 0
}

// succKey numbers (signature of mv with μ, control states ctl), or
// returns noKey when mv has no signature.
func (sh *sharedSystem) succKey(mv *normalform.Move, mu normalform.Mu, ctl uint32) uint32 {
	sig, ok := sh.moveSig(mv, mu)
	if !ok {
		return noKey
	}
	t := sh.v.t
	sid := sh.globalNumber(sh.marks.sigs, t.sigs, sig)
	return sh.globalNumber(sh.keyIdx, t.keyIdx, uint64(sid)<<32|uint64(ctl))
}

// succMemo is a goroutine's access to the tables' store of successors:
// per (set, key), the pruned outcomes of every marking of the move, μ of
// its rank after it and the set, empty sets left out, in the order of
// the enumeration.
type succMemo struct {
	w       resultWriter
	scratch []markResult
}

func newSuccMemo() *succMemo { return &succMemo{} }

// successors returns the pruned outcomes of the markings of mv (a move
// with a key, whose target's control states are sh.ctl) from set.
func (sh *sharedSystem) successors(set, key uint32, mv *normalform.Move) []markResult {
	k := uint64(set)<<32 | uint64(key)
	sm, t := sh.succ, sh.v.t
	if res, ok := t.succ.get(k); ok {
		return res
	}
	res, _ := sh.markings(set, mv)
	out := sm.scratch[:0]
	for _, x := range res {
		if x.set == 0 {
			continue
		}
		if p := sh.prune(x.set, sh.ctl, mv.Target); p != 0 {
			out = append(out, markResult{mu: x.mu, set: p})
		}
	}
	sm.scratch = out
	return t.succ.put(k, out, &sm.w, &t.mu)
}

// stuckControls numbers the control states of s together with the stuck
// ranks, the only parts of s that the pruning with them reads. The
// numbers are those of controls, in keys one word longer, so that the
// two never meet.
func (sh *sharedSystem) stuckControls(s automata.State, stuck uint64) uint32 {
	key := sh.wkey[:0]
	for r := 1; r <= sh.y.N; r++ {
		key = append(key, uint64(sh.y.Control(s, r)))
	}
	key = append(key, stuck)
	sh.wkey = key
	return sh.ctlNumber(0, key)
}

// pruneStuck is the set after product.prune of every element of set with
// the stuck ranks of the Y state of s (key numbers them with s's control
// states), before s is expanded.
func (sh *sharedSystem) pruneStuck(set uint32, s automata.State, stuck uint64, key uint32) uint32 {
	mk := uint64(set)<<32 | uint64(key)
	if next, ok := sh.v.t.stuckPruned.Get(mk); ok {
		return next
	}
	ids := sh.ids[:0]
	for _, e := range sh.v.members(set) {
		k := sh.v.typeOf(e)
		p := sh.prods[k]
		sh.load(e, &p.work)
		p.stuck = stuck
		keep, changed := p.pruneChanged(&p.work, s)
		p.stuck = 0
		if keep && changed {
			ids = append(ids, sh.internElem(k, &p.work))
		} else if keep {
			ids = append(ids, e)
		}
	}
	next := sh.internSet(ids)
	sh.v.t.stuckPruned.Put(mk, next)
	return next
}

// disjoint reports whether the cell sets a and b (as bit words) share no
// cell: the test of a rank's candidate cells against the started pairs'.
func disjoint(a, b []uint64) bool {
	for w := range a {
		if a[w]&b[w] != 0 {
			return false
		}
	}
	return true
}
