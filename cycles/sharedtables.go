package cycles

import (
	"slices"

	"pgasrob/automata"
)

// The interned elements and sets of the shared exploration, kept in flat
// arrays without pointers: they grow to millions of entries, and a slice
// per entry made the garbage collector scan them all at every cycle.

// elemTable holds the elements (cycle type, tracker). An element's key is
// its type's index followed by the tracker fields as its type's product
// packs them (μ and Y's words left out), so equal trackers share a
// number and a tracker is unpacked from its key when needed.
type elemTable struct {
	keys *interner
	typ  []int32 // typ[e]: index of the element's type
}

// setTable holds the sets of elements. Set 0 is the empty set; set i > 0
// is number i-1 of keys.
type setTable struct {
	keys      *interner
	off       []uint32 // members of set i: elems[off[i]:off[i+1]], increasing
	elems     []uint32
	ranks     []uint64 // bit r: some member's type contains rank r
	startIdx  []uint32 // 0, or j+1: the started pairs' cells are started[j*words:(j+1)*words]
	started   []uint64
	accOff    []uint32 // members whose pairs have all accepted: accept[accOff[i]:accOff[i+1]]
	accept    []uint32
	filtEpoch []int32 // filtered[i] is set i without the dead types as of this epoch (+1)
	filtered  []uint32
	words     int
}

func (st *setTable) init(words int) {
	st.keys, st.words = newInterner(), words
	st.off, st.accOff = []uint32{0, 0}, []uint32{0, 0}
	st.ranks, st.startIdx = []uint64{0}, []uint32{0}
	st.filtEpoch, st.filtered = []int32{0}, []uint32{0}
}

func (st *setTable) members(i uint32) []uint32   { return st.elems[st.off[i]:st.off[i+1]] }
func (st *setTable) accepting(i uint32) []uint32 { return st.accept[st.accOff[i]:st.accOff[i+1]] }

// startedCells is the union of the cells of the pairs of set i's members
// that have seen one of their events, nil if there is none.
func (st *setTable) startedCells(i uint32) []uint64 {
	j := st.startIdx[i]
	if j == 0 {
		return nil
	}
	return st.started[int(j-1)*st.words : int(j)*st.words]
}

// load unpacks element e's tracker into w (which must belong to the
// element's type).
func (sh *sharedSystem) load(e uint32, w *tracker) {
	k := sh.elems.typ[e]
	s := sh.scratch[k]
	copy(s[sh.yw:], sh.elems.keys.key(e)[1:])
	sh.prods[k].tl.load(s, w)
}

// internElem returns the number of (types[k], t).
func (sh *sharedSystem) internElem(k int, t *tracker) uint32 {
	s := sh.scratch[k]
	clear(s)
	sh.prods[k].tl.store(s, t)
	key := append(sh.wkey[:0], uint64(k))
	key = append(key, s[sh.yw:]...)
	sh.wkey = key
	id, fresh := sh.elems.keys.intern(key)
	if fresh {
		sh.elems.typ = append(sh.elems.typ, int32(k))
		sh.tables += int64(4 + 12 + 8*len(key))
	}
	return id
}

// internSet returns the number of the set of elements ids (in any order;
// ids is sorted in place).
func (sh *sharedSystem) internSet(ids []uint32) uint32 {
	if len(ids) == 0 {
		return 0
	}
	slices.Sort(ids)
	key := sh.wkey[:0]
	for i := 0; i < len(ids); i += 2 {
		w := uint64(ids[i]) + 1
		if i+1 < len(ids) {
			w |= uint64(ids[i+1]+1) << 32
		}
		key = append(key, w)
	}
	sh.wkey = key
	st := &sh.sets
	id, fresh := st.keys.intern(key)
	id++
	if !fresh {
		return id
	}
	st.elems = append(st.elems, ids...)
	st.off = append(st.off, uint32(len(st.elems)))
	var ranks uint64
	var started []uint64
	for _, e := range ids {
		k := sh.elems.typ[e]
		ranks |= sh.typeRk[k]
		w := &sh.prods[k].work
		sh.load(e, w)
		all := true
		for _, pr := range w.pairs {
			all = all && pr.accepted()
			if pr.st == stD || pr.st == stA || pr.st == stWatch {
				if started == nil {
					started = make([]uint64, st.words)
				}
				started[pr.cell/64] |= 1 << (pr.cell % 64)
			}
		}
		if all {
			st.accept = append(st.accept, e)
		}
	}
	st.accOff = append(st.accOff, uint32(len(st.accept)))
	st.ranks = append(st.ranks, ranks)
	if started == nil {
		st.startIdx = append(st.startIdx, 0)
	} else {
		st.started = append(st.started, started...)
		st.startIdx = append(st.startIdx, uint32(len(st.started)/st.words))
	}
	st.filtEpoch = append(st.filtEpoch, 0)
	st.filtered = append(st.filtered, 0)
	sh.tables += int64(12 + 36 + 12*len(ids) + 8*len(started))
	return id
}

// typedState is the state of types[k]'s own product that the shared
// state s stands for, or nil when s carries no element of that type.
func (sh *sharedSystem) typedState(s automata.State, k int) automata.State {
	for _, e := range sh.sets.members(uint32(sh.setF.Get(s))) {
		if int(sh.elems.typ[e]) == k {
			p := sh.prods[k]
			t := make(automata.State, p.width)
			copy(t[sh.yw:], sh.elems.keys.key(e)[1:])
			copy(t, s[:sh.yw])
			for r := 1; r <= sh.y.N; r++ {
				p.mu[r-1].Set(t, sh.mu[r-1].Get(s))
			}
			return t
		}
	}
	return nil
}
