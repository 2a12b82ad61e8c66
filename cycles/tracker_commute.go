package cycles

import (
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The trackers for the commuting conflict relation cf_c
// (docs/deviations.md, entry 14). A pair (d, a) is accepted when d comes
// before a in τ1·τ2·τ3·τ4, both access one cell, one of them writes it,
// and they are not independent (not two popbs of non-fetching atomics of
// one commuting class). There is no "no write between" condition: cf_c
// relates all such pairs, not adjacent ones only. So no write kills a
// pair, the written-cell sets stay empty, and a pair is accepted for good
// (stAccCf) as soon as both events are known; stWatch is not used.

// commuteClasses gives the commuting class of the popb of each transition
// of p (pgas.Program.CommuteClass), or nil when the strict relation is
// asked for.
func commuteClasses(p *pgas.Program, commuting bool) []uint8 {
	if !commuting {
		return nil
	}
	cls := make([]uint8, len(p.Trans))
	for i := range p.Trans {
		cls[i] = uint8(p.CommuteClass(pgas.Event{Kind: pgas.KPopb, Trans: i}))
	}
	return cls
}

// class is the commuting class of e (0 for all but the popbs of
// commuting updates).
func (t *tracker) class(e pgas.Event) uint8 {
	if e.Kind != pgas.KPopb || e.Trans < 0 || e.Trans >= len(t.cls) {
		return 0
	}
	return t.cls[e.Trans]
}

// stepComm is step under cf_c: only marked events move a pair.
func (t *tracker) stepComm(h int8, e pgas.Event, mk normalform.Mark, cell int32, write bool) bool {
	if mk == 0 {
		return true
	}
	cls := t.class(e)
	for k := range t.pairs {
		if !t.pairs[k].eventComm(h, e, mk, cell, write, cls) {
			return false
		}
	}
	return true
}

// conflicts: the two events of a pair are related by cf_c, given that
// they access one cell.
func conflictsComm(w1 bool, c1 uint8, w2 bool, c2 uint8) bool {
	return (w1 || w2) && (c1 == 0 || c1 != c2)
}

func (p *pairState) eventComm(h int8, e pgas.Event, mk normalform.Mark, cell int32, write bool, cls uint8) bool {
	leave := e.Rank == int(p.r1) && mk&normalform.Leave != 0
	enter := e.Rank == int(p.r2) && mk&normalform.Enter != 0
	switch p.st {
	case stWait:
		switch {
		case leave && enter:
			return false // d = a: an event is not in conflict with itself
		case leave:
			*p = pairState{st: stD, cell: cell, write: write, cls: cls, h: h, r1: p.r1, r2: p.r2}
		case enter:
			// d must come before a, so it will be generated later in an
			// earlier part: impossible if a is in part 1.
			if h == 1 {
				return false
			}
			*p = pairState{st: stA, cell: cell, write: write, cls: cls, h: h, r1: p.r1, r2: p.r2}
		}
	case stD:
		if enter {
			if h < p.h || cell != p.cell || !conflictsComm(p.write, p.cls, write, cls) {
				return false
			}
			*p = pairState{st: stAccCf, r1: p.r1, r2: p.r2}
		}
	case stA:
		if leave {
			if h >= p.h || cell != p.cell || !conflictsComm(p.write, p.cls, write, cls) {
				return false
			}
			*p = pairState{st: stAccCf, r1: p.r1, r2: p.r2}
		}
	}
	return true
}

// commutingMove reports whether, under cf_c, mv has an event with a
// commuting class. The signatures of moves (moveSig, sharedSystem.moveSig)
// leave classes out, so such a move must not be memoised by signature.
func commutingMove(y *normalform.Y, mv *normalform.Move) bool {
	if !y.Commuting {
		return false
	}
	for _, he := range mv.Events {
		if he.Event.Kind == pgas.KPopb && y.P.CommuteClass(he.Event) != 0 {
			return true
		}
	}
	return false
}

// happensBefore is pgas.HappensBefore, or HappensBeforeCommuting under
// cf_c: a witness is certified against the relation it was found for.
func happensBefore(p *pgas.Program, evs []pgas.Event, commuting bool) *pgas.HB {
	if commuting {
		return pgas.HappensBeforeCommuting(p, evs)
	}
	return pgas.HappensBefore(evs)
}
