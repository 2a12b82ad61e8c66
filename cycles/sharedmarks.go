package cycles

import (
	"pgasrob/normalform"
	"pgasrob/pgas"
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

type markMemo struct {
	sigs    *memoTable  // move signature → its number
	spans   *memoTable  // set<<32 | signature number → index in ranges
	ranges  [][2]uint32 // offset and length in results
	results []markResult
	scratch []markResult // the outcomes of the enumeration under way
}

func newMarkMemo() *markMemo {
	return &markMemo{sigs: newMemoTable(), spans: newMemoTable()}
}

// moveSig packs what the markings of mv read, or reports that it does not
// fit in a word.
func (sh *sharedSystem) moveSig(mv *normalform.Move, mu normalform.Mu) (uint64, bool) {
	evs := mv.Events
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
	id := sh.number(mm.sigs, sig)
	key := uint64(set)<<32 | uint64(id)
	if v, ok := mm.spans.get(key); ok {
		rg := mm.ranges[v]
		return mm.results[rg[0] : rg[0]+rg[1]], true
	}
	mm.scratch = mm.scratch[:0]
	sh.level[0] = set
	sh.ranks = sh.sets.ranks[set]
	sh.marker.Step = sh.stepF
	sh.marker.Run(mv, sh.muBuf, sh.eligF, sh.collectF)
	// The enumeration may itself have flushed the memo tables (makeRoom),
	// so its outcomes are gathered aside and stored once it is over.
	sh.makeRoom()
	off := len(mm.results)
	mm.results = append(mm.results, mm.scratch...)
	res := mm.results[off:]
	mm.spans.put(key, uint32(len(mm.ranges)))
	mm.ranges = append(mm.ranges, [2]uint32{uint32(off), uint32(len(res))})
	b := int64(24 + 8 + 8*len(res))
	sh.tables += b
	sh.memoUsed += b
	return res, true
}

func (sh *sharedSystem) collect(_ []normalform.Mark, mu2 []normalform.Mu) {
	sh.marks.scratch = append(sh.marks.scratch, markResult{mu: mu2[sh.mv.Rank-1], set: sh.level[len(sh.mv.Events)]})
}
