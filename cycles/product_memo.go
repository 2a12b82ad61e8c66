package cycles

import (
	"cmp"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/table"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The successors of a per-type product state (Y, μ, tracker) along a move
// of one rank are Y's target beside the outcomes of the move's markings.
// Those outcomes (μ and the tracker after the move, pruned) depend on
// little: μ and the tracker before it, what the marking rules and the
// tracker read of the move's events (their rank, part, cell, write bit,
// popa/popb/bar), and, for prune, the control states of the cycle's ranks
// in the target. A per-type product remembers them per (rest, signature,
// control states), the rest being the words of the state after Y's (μ and
// the tracker), and replays them in the order the enumeration made them,
// so the search sees the same successors in the same order. The shared
// exploration does the same over its sets (shared_marks.go).
//
// On the ring at N = 6 the markings with their tracker steps and prune
// were over half of the CPU of a per-type search; most moves meet a
// (rest, signature, control states) that an earlier state met.

// moveMemo is a product's memory of move outcomes.
type moveMemo struct {
	yw       int
	rests    *table.Vecs    // rests (μ and tracker words) → number
	sigs     *table.Map     // move signature → number (without a move table)
	spans    *table.PairMap // (rest, signature, control states) → index in ranges
	ranges   [][2]uint32
	outs     []uint32 // the outcomes' rests, by number
	scratch  []uint32 // the outcomes of the enumeration under way
	sigBuf   []uint32 // moveSigs' numbers when the moves have no table entry
	ctrlBits int
	// byRank: the control states of the key are packed at their rank's
	// place among all N (ctrl), so that a move table's entry can give
	// them for every cycle type (tableEntry.ctrl, masked by ctrlMask);
	// else packed one after the other, for products whose N ranks' do
	// not fit in 32 bits (ctrlPacking).
	byRank   bool
	ctrlMask uint64
	// hits and misses count the moves replayed and enumerated.
	hits, misses int64
	calls        int64 // of Successors, to weigh the memo now and then
}

// maxMoveMemo bounds a memo (bytes): past it the memo starts afresh, so
// that a large search does not keep a second copy of its rests forever.
// The moves repeat mostly among nearby states: on the ring at N = 6 caps
// of 4, 16 and 64 MiB cost the same CPU within the noise (11.3, 11.9
// and 11.8 s), and a memo emptied every 1,024 states took 13.9 s.
const maxMoveMemo = 16 << 20

// pressedMemo is a memo's bound under memory pressure: the moves repeat
// mostly among nearby states, so a small memo keeps most of its hits.
const pressedMemo = 1 << 20

// memoLimit is the size past which p's memo starts afresh: memoCap, or
// maxMoveMemo when it is not set; pressedMemo while the process's memory
// is under pressure (Options.Pressure), so that a memo gives back what
// it holds beyond that at its next weighing.
func (p *product) memoLimit() int64 {
	if p.table != nil && p.table.pressure.On() {
		return min(pressedMemo, cmp.Or(p.memoCap, maxMoveMemo))
	}
	if p.memoCap > 0 {
		return p.memoCap
	}
	return maxMoveMemo
}

// newMoveMemo is a memo for p, or nil when the control states of the
// cycle's ranks do not fit in a word.
func newMoveMemo(p *product) *moveMemo {
	bits := automata.BitsFor(len(p.y.P.Labels))
	if bits*len(p.cyc) > 62 {
		return nil
	}
	m := &moveMemo{yw: p.y.Words(), ctrlBits: bits, rests: table.NewVecs(p.width - p.y.Words()),
		sigs: table.NewMap(), spans: table.NewPairMap()}
	if _, ok := ctrlPacking(p.y); ok {
		m.byRank = true
		for _, r := range p.cyc {
			m.ctrlMask |= (1<<bits - 1) << ((r - 1) * bits)
		}
	}
	return m
}

func (m *moveMemo) bytes() int64 {
	return m.rests.Bytes() + m.sigs.Bytes() + m.spans.Bytes() +
		int64(cap(m.ranges))*8 + int64(cap(m.outs))*4
}

// memoFor is p's memo, made on first use; nil when the product does not
// memoise (a plain product, or one of the shared exploration, whose prune
// reads the stuck ranks).
func (p *product) memoFor() *moveMemo {
	if p.plain || p.noMemo || p.free != nil || p.stuck != 0 {
		return nil
	}
	if p.memo == nil && !p.memoTried {
		p.memoTried = true
		p.memo = newMoveMemo(p)
	}
	if m := p.memo; m != nil {
		if m.calls++; m.calls&1023 == 0 {
			if m.bytes() > p.memoLimit() {
				p.memo = newMoveMemo(p)
				p.memoResets++
			}
		}
	}
	return p.memo
}

// noSig stands for a move whose signature does not fit in a word.
const noSig = ^uint32(0)

// moveSig packs what the markings and the tracker read of a non-barrier
// move (cells numbered with addrs addresses per rank), or reports that it
// does not fit in a word.
func moveSig(addrs int, mv *normalform.Move) (uint64, bool) {
	evs := mv.Events
	if len(evs) > 3 || mv.Rank >= 64 || mv.Rank == 0 {
		return 0, false
	}
	b := func(x bool) uint64 {
		if x {
			return 1
		}
		return 0
	}
	sig := uint64(len(evs)) | uint64(mv.Rank)<<2
	for i, he := range evs {
		e := &he.Event
		if e.Rank != mv.Rank {
			return 0, false
		}
		cell := 0
		if e.HasCell {
			cell = (e.Cell.Rank-1)*addrs + e.Cell.Addr + 1
		}
		if cell >= 1<<12 {
			return 0, false
		}
		d := uint64(he.Head-1) | b(e.Kind.IsWrite())<<2 | b(e.Kind == pgas.KPopa)<<3 |
			b(e.Kind == pgas.KPopb)<<4 | b(e.Kind == pgas.KBar)<<5 | uint64(cell)<<6
		sig |= d << (8 + 18*i)
	}
	return sig, true
}

// moveSigs is the numbers of the signatures of moves, whose move-table
// entry is e (nil when the table has no room or there is no table).
func (p *product) moveSigs(m *moveMemo, moves []normalform.Move, e *tableEntry) []uint32 {
	if e != nil {
		return p.table.moveIndex(e).sigs
	}
	m.sigBuf = m.sigBuf[:0]
	addrs := len(p.y.P.Addrs)
	for i := range moves {
		id := noSig
		if sig, ok := moveSig(addrs, &moves[i]); ok && !commutingMove(p.y, &moves[i]) {
			if p.table != nil {
				id = p.table.sigNumber(sig)
			} else {
				id, _ = m.sigs.Number(sig)
			}
		}
		m.sigBuf = append(m.sigBuf, id)
	}
	return m.sigBuf
}

// ctrl packs the control states of the cycle's ranks in Y state ys.
func (p *product) ctrl(m *moveMemo, ys automata.State) uint64 {
	var k uint64
	for _, r := range p.cyc {
		if m.byRank {
			k |= uint64(p.y.Control(ys, r)) << ((r - 1) * m.ctrlBits)
		} else {
			k = k<<m.ctrlBits | uint64(p.y.Control(ys, r))
		}
	}
	return k
}

// memoMove emits the successors of p.mv (a move of one rank, whose
// signature is numbered sig, the i-th of its Y state's, whose move-table
// entry is e, nil if none) from the state whose rest is
// numbered rest,
// through p.f, from the memo; it enumerates them first when they are not
// there. It reports false when the move has no signature (the caller
// enumerates as usual).
func (p *product) memoMove(m *moveMemo, rest, sig uint32, e *tableEntry, i int, mu []normalform.Mu) bool {
	mv := p.mv
	if sig == noSig {
		return false
	}
	var b uint64
	if e != nil && m.byRank {
		b = e.ctrl(i) & m.ctrlMask
	} else {
		b = p.ctrl(m, mv.Target)
	}
	a := uint64(rest)<<32 | uint64(sig)
	v, ok := m.spans.Get(a, b)
	if ok {
		m.hits++
		p.replay(m, v)
		return true
	}
	m.misses++
	m.scratch = m.scratch[:0]
	f := p.f
	p.f = p.collectF
	p.marker.Step = p.stepF
	p.marker.Run(mv, mu, p.eligibleF, p.emitF)
	p.f = f
	v = uint32(len(m.ranges))
	m.ranges = append(m.ranges, [2]uint32{uint32(len(m.outs)), uint32(len(m.scratch))})
	m.outs = append(m.outs, m.scratch...)
	m.spans.Put(a, b, v)
	p.replay(m, v)
	return true
}

// memoKnown emits the successors of moves[i] (a move of one rank, with
// a signature, of entry e) from the memo, as memoMove does, if the memo
// has them; it reports false when it does not (then the caller goes on
// as usual). It reads the move only when there are successors to emit.
func (p *product) memoKnown(m *moveMemo, rest, sig uint32, e *tableEntry, i int, moves []normalform.Move) bool {
	v, ok := m.spans.Get(uint64(rest)<<32|uint64(sig), e.ctrl(i)&m.ctrlMask)
	if !ok {
		return false
	}
	m.hits++
	if m.ranges[v][1] > 0 {
		p.mv = &moves[i]
		p.hintW, p.hintSlot = p.mv.Target, e.slot(i)
		p.replay(m, v)
	}
	return true
}

// replay emits the successors of p.mv kept in the memo as entry v.
func (p *product) replay(m *moveMemo, v uint32) {
	mv := p.mv
	rg := m.ranges[v]
	target := p.target
	for _, o := range m.outs[rg[0] : rg[0]+rg[1]] {
		copy(target, mv.Target)
		copy(target[m.yw:], m.rests.Get(o))
		p.f(mv, nil, target)
	}
}

// collect is p.f while a memo entry is enumerated: it keeps the rest.
func (p *product) collect(_ *normalform.Move, _ []normalform.Mark, t automata.State) {
	m := p.memo
	m.scratch = append(m.scratch, m.rests.Add(t[m.yw:]))
}
