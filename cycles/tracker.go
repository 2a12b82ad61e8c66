package cycles

import (
	"pgasrob/automata"
	"pgasrob/normalform"
	"pgasrob/pgas"
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
	cell   int  // cell index (rank-1)*|ADR| + addr, for stD, stA, stWatch
	write  bool // whether the event seen first writes the cell
	h, hi  int  // stD/stA: part of the event seen first; stWatch: lo = h, hi
	r1, r2 int
}

func (p pairState) accepted() bool {
	return p.st == stWatch || p.st == stAccCf || p.st == stAccBar
}

// needsHistory reports whether the pair may still have to look at writes
// that were generated before its cell was known.
func (p pairState) needsHistory() bool { return p.st == stWait || p.st == stD || p.st == stA }

type tracker struct {
	pairs   []pairState
	written [normalform.Heads + 1][]uint64 // written[h]: cells written in part h (h = 2..4)
	addrs   int
}

func (t *tracker) cellIndex(c pgas.Cell) int { return (c.Rank-1)*t.addrs + c.Addr }

func (t *tracker) wrote(h, cell int) bool {
	return h >= 2 && t.written[h][cell/64]&(1<<(cell%64)) != 0
}

// advance feeds one move of Y^M (its events in generation order, with their
// marks) to every pair. It returns false when some pair can no longer
// accept, which prunes the product state.
func (t *tracker) advance(mv *normalform.Move, marks []normalform.Mark) bool {
	if mv.Rank == 0 {
		return t.barrier(mv, marks)
	}
	for i, he := range mv.Events {
		h, e, mk := he.Head, he.Event, marks[i]
		cell := -1
		if e.HasCell {
			cell = t.cellIndex(e.Cell)
		}
		write := e.Kind.IsWrite()
		for k := range t.pairs {
			if !t.pairs[k].event(t, h, e, mk, cell, write) {
				return false
			}
		}
		if write && h >= 2 {
			t.written[h][cell/64] |= 1 << (cell % 64)
		}
	}
	t.forgetHistory()
	return true
}

func (p *pairState) event(t *tracker, h int, e pgas.Event, mk normalform.Mark, cell int, write bool) bool {
	leave := e.Rank == p.r1 && mk&normalform.Leave != 0
	enter := e.Rank == p.r2 && mk&normalform.Enter != 0
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
			if h == 1 || t.wrote(h, cell) {
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
				if t.wrote(hh, cell) {
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
				if t.wrote(hh, cell) {
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

// barrier handles the N bar events of one barrier: HB6–HB8 relate two bar
// events only inside one barrier (the extraction lets HB7 skip into the
// next barrier, which would relate unrelated barriers).
func (t *tracker) barrier(mv *normalform.Move, marks []normalform.Mark) bool {
	for k := range t.pairs {
		p := &t.pairs[k]
		d := marks[p.r1-1]&normalform.Leave != 0
		a := marks[p.r2-1]&normalform.Enter != 0
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
	t.forgetHistory()
	return true
}

func (t *tracker) forgetHistory() {
	for _, p := range t.pairs {
		if p.needsHistory() {
			return
		}
	}
	for h := 2; h <= normalform.Heads; h++ {
		clear(t.written[h])
	}
}

// trackerLayout packs a tracker into state fields.
type trackerLayout struct {
	st, cell, write, h, hi []automata.Field
	written                [normalform.Heads + 1][]automata.Field // 64-bit fields
}

func newTrackerLayout(l *automata.Layout, pairs, cells int) *trackerLayout {
	tl := &trackerLayout{}
	cb := automata.BitsFor(cells)
	for i := 0; i < pairs; i++ {
		tl.st = append(tl.st, l.Field(3))
		tl.cell = append(tl.cell, l.Field(cb))
		tl.write = append(tl.write, l.Field(1))
		tl.h = append(tl.h, l.Field(2))
		tl.hi = append(tl.hi, l.Field(2))
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
		p.st = status(tl.st[i].Get(s))
		p.cell = int(tl.cell[i].Get(s))
		p.write = tl.write[i].Get(s) != 0
		p.h = int(tl.h[i].Get(s)) + 1
		p.hi = int(tl.hi[i].Get(s)) + 1
	}
	for h := 2; h <= normalform.Heads; h++ {
		for w, f := range tl.written[h] {
			t.written[h][w] = f.Get(s)
		}
	}
}

func (tl *trackerLayout) store(s automata.State, t *tracker) {
	for i, p := range t.pairs {
		// Fields a status does not use are zeroed so that equivalent
		// states pack to the same key.
		switch p.st {
		case stWait, stAccCf, stAccBar:
			p.cell, p.write, p.h, p.hi = 0, false, 0, 0
		case stD, stA:
			p.hi = 0
		case stWatch:
			p.write = false
		}
		tl.st[i].Set(s, uint64(p.st))
		tl.cell[i].Set(s, uint64(max(p.cell, 0)))
		b := uint64(0)
		if p.write {
			b = 1
		}
		tl.write[i].Set(s, b)
		tl.h[i].Set(s, uint64(max(p.h-1, 0)))
		tl.hi[i].Set(s, uint64(max(p.hi-1, 0)))
	}
	for h := 2; h <= normalform.Heads; h++ {
		for w, f := range tl.written[h] {
			f.Set(s, t.written[h][w])
		}
	}
}
