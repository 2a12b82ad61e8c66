package cycles

import (
	"github.com/bits-and-blooms/bitset"
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The tracker replaces the guessing of Lemma 10 for Z^cyc. For a pair
// (r1, r2), Z^{r1,r2} accepts iff the leave event d of r1 comes before the
// enter event a of r2 in τ1·τ2·τ3·τ4, both access one cell, one of them
// writes it, and no write to the cell lies strictly between them (HB2–HB4);
// or d and a are bar events of one barrier (HB6–HB8, same barrier).
//
// Y^M generates the parts interleaved, but each part in order. So "x comes
// before y in the computation" is: part(x) < part(y), or equal parts and x
// generated first. The tracker keeps, per pair, the part and cell of
// whichever of d and a was generated first, and for parts 2–4 the set of
// cells written so far (only pops write there), which decides the writes
// that were generated before the cell was known. Once both events are
// known, only the parts in which a later write would fall between them are
// watched.

type status uint8

const (
	stWait   status = iota // neither d nor a generated yet
	stD                    // d generated first: part h, cell, write bit
	stA                    // a generated first: part h, cell, write bit
	stWatch                // both generated; a later write to the cell in parts lo..hi-1 kills the pair
	stAccCf                // accepted through a conflict edge d →cf a, nothing can kill it any more
	stAccBar               // accepted through a barrier d ↔ a
)

type pairState struct {
	st     status
	write  bool  // whether the event seen first writes the cell
	cls    uint8 // stD/stA with commuting conflicts: the commuting class of the event seen first
	h, hi  int8  // stD/stA: part of the event seen first; stWatch: lo = h, hi
	r1, r2 int16 // the pair of ranks
	cell   int32 // cell index (rank-1)*|ADR| + addr, for stD, stA, stWatch
}

func (p pairState) accepted() bool {
	return p.st == stWatch || p.st == stAccCf || p.st == stAccBar
}

type tracker struct {
	pairs   []pairState
	written [normalform.Heads + 1]bitset.BitSet // written[h]: cells written in part h (h = 2..4)
	addrs   int
	// cls, if not nil, makes the conflict relation cf_c (tracker_commute.go):
	// cls[t] is the commuting class of the popb of transition t.
	cls []uint8
}

func (t *tracker) cellIndex(c pgas.Cell) int { return (c.Rank-1)*t.addrs + c.Addr }

func (t *tracker) wrote(h, cell int) bool {
	return h >= 2 && t.written[h].Test(uint(cell))
}

// advance feeds one move of Y^M (its events in generation order, with their
// marks) to every pair. It returns false when some pair can no longer
// accept, which prunes the product state.
func (t *tracker) advance(mv *normalform.Move, marks []normalform.Mark) bool {
	if mv.Rank == 0 {
		return t.barrier(mv, marks)
	}
	for i := range mv.Events {
		if !t.step(mv, i, marks[i]) {
			return false
		}
	}
	return true
}

// step feeds event i of a (non-barrier) move with its mark to every pair.
func (t *tracker) step(mv *normalform.Move, i int, mk normalform.Mark) bool {
	h, e := mv.Events[i].Head, mv.Events[i].Event
	cell := -1
	if e.HasCell {
		cell = t.cellIndex(e.Cell)
	}
	write := e.Kind.IsWrite()
	if t.cls != nil {
		return t.stepComm(int8(h), e, mk, int32(cell), write)
	}
	for k := range t.pairs {
		if !t.pairs[k].event(t, int8(h), e, mk, int32(cell), write) {
			return false
		}
	}
	if write && h >= 2 {
		t.written[h].Set(uint(cell))
	}
	return true
}

// unmarked is step for an unmarked write in part h to cell, without its
// written bit: no pair changes (pairState.event moves a pair only on a
// marked event), and it reports false when the write falls between the
// two events of a pair, as step would.
func (t *tracker) unmarked(h int8, cell int32) bool {
	if t.cls != nil {
		return true // no write kills a pair under cf_c
	}
	for k := range t.pairs {
		p := &t.pairs[k]
		switch p.st {
		case stD:
			if cell == p.cell && h == p.h {
				return false
			}
		case stWatch:
			if cell == p.cell && p.h <= h && h < p.hi {
				return false
			}
		}
	}
	return true
}

func (p *pairState) event(t *tracker, h8 int8, e pgas.Event, mk normalform.Mark, cell int32, write bool) bool {
	leave := e.Rank == int(p.r1) && mk&normalform.Leave != 0
	enter := e.Rank == int(p.r2) && mk&normalform.Enter != 0
	h := h8
	switch p.st {
	case stWait:
		switch {
		case leave && enter:
			return false // d = a: an event is not in conflict with itself
		case leave:
			*p = pairState{st: stD, cell: cell, write: write, h: h, r1: p.r1, r2: p.r2}
		case enter:
			// d must come before a, so it will be generated later in an
			// earlier part: impossible if a is in part 1, and every
			// write to the cell already in a's part lies between them.
			if h == 1 || t.wrote(int(h), int(cell)) {
				return false
			}
			*p = pairState{st: stA, cell: cell, write: write, h: h, r1: p.r1, r2: p.r2}
		}
	case stD:
		if enter {
			if h < p.h || cell != p.cell || !(p.write || write) {
				return false
			}
			for hh := p.h + 1; hh <= h; hh++ {
				if t.wrote(int(hh), int(cell)) {
					return false
				}
			}
			if h == p.h {
				p.st = stAccCf
			} else {
				p.st, p.hi = stWatch, h
			}
		} else if write && cell == p.cell && h == p.h {
			// After d in d's own part, and a cannot come earlier.
			return false
		}
	case stA:
		if leave {
			if h >= p.h || cell != p.cell || !(p.write || write) {
				return false
			}
			for hh := h + 1; hh < p.h; hh++ {
				if t.wrote(int(hh), int(cell)) {
					return false
				}
			}
			p.st, p.hi, p.h = stWatch, p.h, h
		}
	case stWatch:
		if write && cell == p.cell && p.h <= h && h < p.hi {
			return false
		}
	}
	return true
}

// barrier handles the bar events of one barrier: HB6–HB8 relate two bar
// events only inside one barrier (the extraction lets HB7 skip into the
// next barrier, which would relate unrelated barriers).
//
// A barrier over part of the ranks has bar events of its members only: a
// rank outside it counts as unmarked, so a pair with one rank outside can
// only die at it (d and a must lie in one barrier).
func (t *tracker) barrier(mv *normalform.Move, marks []normalform.Mark) bool {
	var byRank [64]normalform.Mark
	rankMarks(mv, marks, byRank[:])
	for k := range t.pairs {
		p := &t.pairs[k]
		d := byRank[p.r1-1]&normalform.Leave != 0
		a := byRank[p.r2-1]&normalform.Enter != 0
		switch p.st {
		case stWait:
			switch {
			case d && a && p.r1 != p.r2:
				p.st = stAccBar
			case d || a:
				return false
			}
		case stD:
			if a {
				return false
			}
		case stA:
			if d {
				return false
			}
		}
	}
	return true
}

// trackerLayout packs a tracker into state fields: one field per pair
// (status, write bit, parts, commuting class and cell together) and the
// written-cell sets.
type trackerLayout struct {
	pair    []automata.Field
	written [normalform.Heads + 1][]automata.Field // 64-bit fields
}

// pairCellShift is where a packed pair's cell starts: status (3 bits),
// write (1), h (2), hi (2), cls (3).
const pairCellShift = 11

func newTrackerLayout(l *automata.Layout, pairs, cells int) *trackerLayout {
	tl := &trackerLayout{}
	for i := 0; i < pairs; i++ {
		tl.pair = append(tl.pair, l.Field(pairCellShift+automata.BitsFor(cells)))
	}
	words := (cells + 63) / 64
	for h := 2; h <= normalform.Heads; h++ {
		for w := 0; w < words; w++ {
			rest := cells - 64*w
			tl.written[h] = append(tl.written[h], l.Field(min(rest, 64)))
		}
	}
	return tl
}

func (tl *trackerLayout) load(s automata.State, t *tracker) {
	for i := range t.pairs {
		p := &t.pairs[i]
		v := tl.pair[i].Get(s)
		p.st = status(v & 7)
		p.write = v&8 != 0
		p.h = int8(v>>4&3) + 1
		p.hi = int8(v>>6&3) + 1
		p.cls = uint8(v >> 8 & 7)
		p.cell = int32(v >> pairCellShift)
	}
	for h := 2; h <= normalform.Heads; h++ {
		words := t.written[h].Words()
		for w, f := range tl.written[h] {
			words[w] = f.Get(s)
		}
	}
}

func (tl *trackerLayout) store(s automata.State, t *tracker) {
	for i, p := range t.pairs {
		// Fields a status does not use are zeroed so that equivalent
		// states pack to the same key.
		v := uint64(p.st)
		switch p.st {
		case stD, stA:
			if p.write {
				v |= 8
			}
			v |= uint64(p.h-1)<<4 | uint64(p.cls)<<8 | uint64(p.cell)<<pairCellShift
		case stWatch:
			v |= uint64(p.h-1)<<4 | uint64(p.hi-1)<<6 | uint64(p.cell)<<pairCellShift
		}
		tl.pair[i].Set(s, v)
	}
	for h := 2; h <= normalform.Heads; h++ {
		words := t.written[h].Words()
		for w, f := range tl.written[h] {
			f.Set(s, words[w])
		}
	}
}

// rankMarks writes the marks of a barrier move's events (parallel to
// mv.Events) by rank: out[r-1] is the mark of rank r's bar event, 0 for a
// rank outside the barrier's set.
func rankMarks(mv *normalform.Move, marks []normalform.Mark, out []normalform.Mark) {
	clear(out)
	for i, m := range marks {
		out[mv.Events[i].Event.Rank-1] = m
	}
}
