package cycles

import "github.com/pgasrob/pgasrob/normalform"

// Which written bits prune keeps (product.pruneChanged, with lateCell and
// forgetWritten below).
//
// The tracker reads written[h] (h ≥ 2) in three places only (tracker.go,
// pairState.event): when the enter event a of the pair's rank r2 arrives
// first, in part h ≥ 2 (stWait: part h_a); when a arrives after the leave
// event d (stD: parts h_d+1..h_a, empty unless h_a ≥ 2); and when d
// arrives after a (stA: parts h_d+1..h_a-1, so below h_a). In the first
// two, a lies in a part ≥ 2, so it is a pop, and pops are generated with
// their remote command: a is a pop of a remote command r2 has not issued
// yet. Hence:
//   - a waiting pair needs the bits of the cells both ranks may still
//     touch that r2 may still touch by a pop (Future.Pops at its control
//     state), in every part;
//   - a pair in stD needs its cell in parts h_d+1..4 only, and only if r2
//     may still touch the cell by a pop;
//   - a pair in stA needs its cell in parts 2..h_a-1.
// Every other bit is never read again and is forgotten, which merges
// states that accept the same continuations.
//
// Before this rule prune kept every cell both ranks of a waiting pair may
// still touch, in every part, and the cell of a started pair in every
// part. On prodcons at N = 4 the consumer only loads (in part 1), yet its
// pairs kept the late popbs of the producers into its cells: the
// single-rank type (2) had 6,616 (Y, μ, pairs) projections and 40,787
// states.

// lateCell is the cell of a started pair and the parts whose written bits
// it may still read.
type lateCell struct {
	cell   int32
	lo, hi int8
}

// lateCell records what the started pair pr (stD or stA), whose rank r2 is
// at control state q2, still needs of the written sets.
func (p *product) lateCell(pr *pairState, r2, q2 int) {
	lo, hi := pr.h+1, int8(normalform.Heads)
	if pr.st == stA {
		lo, hi = 2, pr.h-1
	} else if p.future.Pops(r2, q2)[pr.cell/64]&(1<<(pr.cell%64)) == 0 {
		return // the enter event will be in part 1: no bit is read
	}
	if lo <= hi {
		p.late = append(p.late, lateCell{pr.cell, lo, hi})
	}
}

// forgetWritten clears the written bits that neither rel (in every part)
// nor p.late (in its parts) keeps; it reports whether it cleared any.
func (p *product) forgetWritten(t *tracker, rel []uint64) (changed bool) {
	for h := 2; h <= normalform.Heads; h++ {
		for w, x := range t.written[h] {
			keep := rel[w]
			for _, lc := range p.late {
				if int(lc.cell)/64 == w && lc.lo <= int8(h) && int8(h) <= lc.hi {
					keep |= 1 << (lc.cell % 64)
				}
			}
			if x&^keep != 0 {
				t.written[h][w] = x & keep
				changed = true
			}
		}
	}
	return changed
}

// waitPair is prune for the waiting pair k = (r1, r2) at control states
// q1, q2: whether it can still complete, with the cells whose written
// bits it needs ORed into rel. It depends on the four numbers only (and
// on the stuck ranks, which only the shared exploration sets), so a
// per-type product remembers it per (k, q1, q2) in waitMemo: prune ran
// it for every pair of every successor.
func (p *product) waitPair(k, r1, q1, r2, q2 int, rel []uint64) bool {
	m := p.waitMemo
	if m == nil && p.free == nil && !p.plain && !p.waitTried {
		p.waitTried = true
		m = p.newWaitMemo()
	}
	if m == nil || p.stuck != 0 {
		return p.waitCells(r1, q1, r2, q2, rel)
	}
	i := (k*m.q+q1)*m.q + q2
	words := len(rel)
	cells := m.rel[i*words : (i+1)*words]
	if m.known[i] == 0 {
		m.known[i] = 1
		if p.waitCells(r1, q1, r2, q2, cells) {
			m.known[i] = 2
		}
	}
	if m.known[i] == 1 {
		return false
	}
	for w, x := range cells {
		rel[w] |= x
	}
	return true
}

// waitCells is waitPair computed: see writtenRead for the cells kept.
func (p *product) waitCells(r1, q1, r2, q2 int, rel []uint64) bool {
	f1, f2 := p.cellsAt(r1, q1), p.cellsAt(r2, q2)
	pops2 := p.future.Pops(r2, q2)
	shared := false
	for w := range rel {
		x := f1[w] & f2[w]
		rel[w] |= x & pops2[w]
		shared = shared || x != 0
	}
	return shared || (p.barrierAhead(q1) && p.barrierAhead(q2))
}

// waitMemo is waitPair's memory: known[i] is 0 (not computed), 1 (the
// pair cannot complete) or 2 (it can, needing the cells rel[i*words:]).
type waitMemo struct {
	q     int
	known []uint8
	rel   []uint64
}

// maxWaitMemo bounds a product's waitMemo (words): large programs with
// many control states compute prune as before.
const maxWaitMemo = 1 << 16

func (p *product) newWaitMemo() *waitMemo {
	q, pairs, words := len(p.y.P.Labels), len(p.tl.pair), p.future.Words
	if pairs*q*q*(words+1) > maxWaitMemo {
		return nil
	}
	p.waitMemo = &waitMemo{q: q, known: make([]uint8, pairs*q*q), rel: make([]uint64, pairs*q*q*words)}
	return p.waitMemo
}
