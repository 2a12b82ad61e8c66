package cycles

import (
	"github.com/pgasrob/pgasrob/automata/table"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The markings of a move of one rank depend, for the shared exploration,
// only on the set before it, the rank's μ and what the tracker and the
// marking rules read of its events (part, cell, write bit, popa/popb). The
// markings are enumerated once per (set, signature) and remembered as
// their outcomes: the rank's μ after the move and the set after its
// events. On the ring this replaces most of the enumeration, which was
// two thirds of the time.

// markResult is one marking's outcome (the marks themselves are not kept:
// a witness is explained by its cycle type's own product).
type markResult struct {
	mu  normalform.Mu
	set uint32
}

// markMemo is a goroutine's access to the tables' store of markings:
// its cache of the signatures' numbers (which the tables give under
// their mutex) and its view of the store.
type markMemo struct {
	sigs    *table.Map // move signature → its number in the tables
	w       resultWriter
	scratch []markResult // the outcomes of the enumeration under way
}

func newMarkMemo() *markMemo {
	return &markMemo{sigs: table.NewMap()}
}

// moveSig packs what the markings of mv read, or reports that it does not
// fit in a word.
func (sh *sharedSystem) moveSig(mv *normalform.Move, mu normalform.Mu) (uint64, bool) {
	evs := mv.Events
	if commutingMove(sh.y, mv) {
		return 0, false // the signature leaves out commuting classes
	}
	if len(evs) > 3 || mv.Rank >= 64 {
		return 0, false
	}
	b := func(x bool) uint64 {
		if x {
			return 1
		}
		return 0
	}
	sig := uint64(len(evs)) | uint64(mu)<<2 | uint64(mv.Rank)<<4
	for i, he := range evs {
		e := &he.Event
		if e.Rank != mv.Rank {
			return 0, false
		}
		cell := 0
		if e.HasCell {
			cell = sh.prods[0].work.cellIndex(e.Cell) + 1
		}
		if cell >= 1<<12 {
			return 0, false
		}
		d := uint64(he.Head-1) | b(e.Kind.IsWrite())<<2 | b(e.Kind == pgas.KPopa)<<3 | b(e.Kind == pgas.KPopb)<<4 | uint64(cell)<<5
		sig |= d << (10 + 17*i)
	}
	return sig, true
}

// markings returns the outcomes of every marking of the non-barrier move
// mv from set (with μ in sh.muBuf), or false when mv has no signature.
func (sh *sharedSystem) markings(set uint32, mv *normalform.Move) ([]markResult, bool) {
	mm := sh.marks
	sig, ok := sh.moveSig(mv, sh.muBuf[mv.Rank-1])
	if !ok {
		return nil, false
	}
	id := sh.globalNumber(mm.sigs, sh.v.t.sigs, sig)
	key := uint64(set)<<32 | uint64(id)
	t := sh.v.t
	if res, ok := t.marks.get(key); ok {
		return res, true
	}
	mm.scratch = mm.scratch[:0]
	sh.level[0] = set
	sh.ranks = sh.v.setRanks(set)
	sh.marker.Step = sh.stepF
	sh.marker.Run(mv, sh.muBuf, sh.eligF, sh.collectF)
	return t.marks.put(key, mm.scratch, &mm.w, &t.mu), true
}

// number returns k's number in t, giving it the next one (and charging
// its entry to the shared tables' memory) when k is new.
func (sh *sharedSystem) number(t *table.Map, k uint64) uint32 {
	id, fresh := t.Number(k)
	if fresh {
		sh.tables += 24
	}
	return id
}

// globalNumber is k's number in global, a numbering the forks share
// (under the tables' mutex), by way of local, the goroutine's cache of it.
func (sh *sharedSystem) globalNumber(local, global *table.Map, k uint64) uint32 {
	if id, ok := local.Get(k); ok {
		return id
	}
	t := sh.v.t
	t.mu.Lock()
	id := sh.number(global, k)
	t.mu.Unlock()
	local.Put(k, id)
	sh.tables += 24
	return id
}

func (sh *sharedSystem) collect(_ []normalform.Mark, mu2 []normalform.Mu) {
	sh.marks.scratch = append(sh.marks.scratch, markResult{mu: mu2[sh.mv.Rank-1], set: sh.level[len(sh.mv.Events)]})
}
