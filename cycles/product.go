package cycles

import (
	"sync/atomic"

	"github.com/bits-and-blooms/bitset"
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
)

// product is the 4-headed automaton Y^M(P,N) × Z^cyc as an on-the-fly
// system. A state is Y's words, then μ for the ranks of the cycle type, then
// the tracker.
type product struct {
	y        *normalform.Y
	cyc      CycleType
	moves    func(s automata.State) []normalform.Move
	eligible []bool // eligible[r]: rank r is in the cycle type
	mu       []automata.Field
	tl       *trackerLayout
	width    int
	cells    int
	// Scratch space, reused: a product is used by one goroutine.
	work tracker
	// While a move's marks are chosen, level[i] is the tracker after its
	// first i events: it points either to buf[i] or, when event i-1
	// changed nothing, to the level before (copy on write).
	buf       []tracker
	level     []*tracker
	mv        *normalform.Move // the move being marked
	f         func(mv *normalform.Move, marks []normalform.Mark, t automata.State)
	stepF     func(i int, mk normalform.Mark) bool
	emitF     func(marks []normalform.Mark, mu []normalform.Mu)
	muBuf     []normalform.Mu
	marker    normalform.Marker
	target    automata.State
	eligibleF func(int) bool
	future    *normalform.Future
	relevant  []uint64
	kept      bitset.BitSet // forgetWritten's scratch: the written bits one part keeps
	late      []lateCell    // prune's scratch: the cells of started pairs (waits.go)
	reduce    *reducer      // nil: explore every move (no partial-order reduction)
	// stuck, while the shared exploration prunes with it, is the set of
	// ranks blocked for good (stuck.go), free their analysis.
	stuck uint64
	free  *freeFuture
	// waitMemo remembers prune's verdict on waiting pairs (waits.go).
	waitMemo  *waitMemo
	waitTried bool
	// table, if set, is the move table behind moves: the product then
	// takes its ample-set candidates from there too (movesAmple).
	table *moveTable
	lastE *tableEntry // the table's entry of the last Y state expanded
	// hintW and hintSlot are the Y state of the successors being emitted
	// (the move's target) and where the table keeps its number
	// (PartHint); hintSlot is nil when there is none. noHint turns off
	// PartHint and PartDecoded (the tests compare).
	hintW    automata.State
	hintSlot *atomic.Uint32
	noHint   bool
	// decW and decN are the Y state of the state the visited set decoded
	// last and its number in the table (PartDecoded); decOK when set.
	decW  automata.State
	decN  uint32
	decOK bool
	// plain turns off the memo of waiting pairs, the memo of move
	// outcomes and the collapsed visited set: the tests compare the two.
	plain bool
	// memo remembers move outcomes (product_memo.go); memoOn is it while
	// Successors enumerates (explain and the other users of each want the
	// marks, which the memo does not keep). noMemo turns it off alone.
	memo      *moveMemo
	memoOn    *moveMemo
	memoTried bool
	noMemo    bool
	// memoCap bounds the memo's bytes (memoLimit; 0: maxMoveMemo);
	// memoResets counts the memos started afresh past it.
	memoCap    int64
	memoResets int
	collectF   func(mv *normalform.Move, marks []normalform.Mark, t automata.State)
	// Successors' callback and label counter (see there).
	succF    func(mv *normalform.Move, marks []normalform.Mark, t automata.State)
	succEmit func(automata.Label, automata.State)
	succN    automata.Label
}

func newProduct(y *normalform.Y, cyc CycleType, moves func(automata.State) []normalform.Move) *product {
	// Each product gets its own copy of the layout so that products for
	// different cycle types can be built concurrently from one Y.
	l := *y.Layout()
	p := &product{y: y, cyc: cyc, moves: moves, eligible: make([]bool, y.N+1)}
	p.cells = y.N * len(y.P.Addrs)
	for _, r := range cyc {
		p.eligible[r] = true
	}
	p.mu = l.Fields(y.N, 2)
	p.tl = newTrackerLayout(&l, len(cyc), p.cells)
	p.width = l.Words()
	p.work = p.newTracker()
	for i := 0; i <= max(3, y.N)+1; i++ {
		p.buf = append(p.buf, p.newTracker())
	}
	p.level = make([]*tracker, len(p.buf))
	p.stepF = p.step
	p.emitF = p.emit
	p.succF = p.successor
	p.collectF = p.collect
	p.muBuf = make([]normalform.Mu, y.N)
	p.target = make(automata.State, p.width)
	p.eligibleF = func(r int) bool { return p.eligible[r] }
	p.future = y.Future()
	p.relevant = make([]uint64, p.future.Words)
	p.kept.SetBitsetFrom(make([]uint64, p.future.Words))
	return p
}

// Fork is a product for another goroutine of the parallel search
// (automata.Forker): its own scratch trackers and reducer; Y, the cycle
// type and the moves function (the move table is safe for concurrent use)
// are shared. Only a per-type product forks: the shared exploration's
// products carry the stuck-rank analysis of one goroutine.
func (p *product) Fork() automata.System {
	f := newProduct(p.y, p.cyc, p.moves)
	f.table, f.plain, f.noMemo, f.noHint, f.memoCap = p.table, p.plain, p.noMemo, p.noHint, p.memoCap
	if p.reduce != nil {
		f.reduce = p.reduce.fork()
	}
	return f
}

func (p *product) newTracker() tracker {
	t := tracker{addrs: len(p.y.P.Addrs), cls: commuteClasses(p.y.P, p.y.Commuting)}
	for _, pr := range p.cyc.Pairs() {
		t.pairs = append(t.pairs, pairState{r1: int16(pr[0]), r2: int16(pr[1])})
	}
	words := (p.cells + 63) / 64
	for h := 2; h <= normalform.Heads; h++ {
		t.written[h].SetBitsetFrom(make([]uint64, words))
	}
	return t
}

func (p *product) Width() int { return p.width }

func (p *product) Initial(emit func(automata.State)) {
	s := make(automata.State, p.width)
	p.y.Initial(s)
	emit(s) // μ = ⊥ everywhere and every pair waiting: all zero
}

func (p *product) Accepting(s automata.State) bool {
	// μ first: most states have a rank of the cycle still to leave, and
	// then the tracker need not be unpacked.
	for _, r := range p.cyc {
		if !normalform.Mu(p.mu[r-1].Get(s)).Left() {
			return false
		}
	}
	p.tl.load(s, &p.work)
	return p.accepting(s, &p.work)
}

func (p *product) accepting(s automata.State, t *tracker) bool {
	crossClass := false
	for _, r := range p.cyc {
		mu := normalform.Mu(p.mu[r-1].Get(s))
		if !mu.Left() {
			return false // F_{Y^M}: every marked rank has left
		}
		crossClass = crossClass || mu == normalform.MuLeave
	}
	for _, pr := range t.pairs {
		if !pr.accepted() {
			return false
		}
		// With two or more ranks a conflict edge joins events of
		// different ranks, hence different ↔-classes.
		if len(p.cyc) > 1 && (pr.st == stWatch || pr.st == stAccCf) {
			crossClass = true
		}
	}
	// A cycle that stays inside one ↔-class is not a violation (for
	// example popa →cf popb of a write whose source is its destination, or
	// all ranks meeting in one barrier).
	return crossClass
}

// each enumerates the transitions of the product from s, in a fixed order,
// with the move and the marks that produce each one.
func (p *product) each(s automata.State, f func(mv *normalform.Move, marks []normalform.Mark, t automata.State)) {
	mu := p.muBuf
	for r := 1; r <= p.y.N; r++ {
		mu[r-1] = normalform.Mu(p.mu[r-1].Get(s))
	}
	p.tl.load(s, &p.buf[0])
	p.level[0] = &p.buf[0]
	p.f = f
	moves, only, e := p.movesAmple(s[:p.y.Words()])
	m := p.memoOn
	var rest uint32
	var sigs []uint32
	if m != nil {
		rest = m.rests.Add(s[m.yw:])
		sigs = p.moveSigs(m, moves, e)
	}
	p.hintW, p.hintSlot = nil, nil
	lo, hi, ranked := 0, len(moves), only == 0
	if only != 0 && e != nil {
		if l, h, ok := e.rankMoves(only); ok {
			lo, hi, ranked = l, h, true
		}
	}
	// quick: the memo's key can be made without reading the move (its
	// signature and its target's control states are in the entry), so a
	// move the memo knows to have no successors is skipped unread.
	quick := m != nil && m.byRank && e != nil && ranked
	for i := lo; i < hi; i++ {
		if quick && sigs[i] != noSig && p.memoKnown(m, rest, sigs[i], e, i, moves) {
			continue
		}
		p.mv = &moves[i]
		if only != 0 && p.mv.Rank != only {
			continue
		}
		if e != nil {
			p.hintW, p.hintSlot = p.mv.Target, e.slot(i)
		}
		if p.mv.Rank == 0 {
			p.marker.Step = nil // a barrier is judged as a whole
		} else {
			if m != nil && p.memoMove(m, rest, sigs[i], e, i, mu) {
				continue
			}
			// Feed the tracker event by event while the marks are chosen,
			// so that hopeless markings are cut at their first event.
			p.marker.Step = p.stepF
		}
		p.marker.Run(p.mv, mu, p.eligibleF, p.emitF)
	}
}

func (p *product) step(i int, mk normalform.Mark) bool {
	cur := p.level[i]
	if mk == 0 {
		// An unmarked event changes no pair (tracker.unmarked): the
		// tracker is copied only when it sets a new written bit.
		he := &p.mv.Events[i]
		if !he.Event.Kind.IsWrite() {
			p.level[i+1] = cur
			return true
		}
		h, cell := int(he.Head), -1
		if he.Event.HasCell {
			cell = cur.cellIndex(he.Event.Cell)
		}
		if !cur.unmarked(int8(h), int32(cell)) {
			return false
		}
		if h < 2 || cur.cls != nil || cur.wrote(h, cell) {
			p.level[i+1] = cur
			return true
		}
		next := &p.buf[i+1]
		next.copyFrom(cur)
		next.written[h].Set(uint(cell))
		p.level[i+1] = next
		return true
	}
	next := &p.buf[i+1]
	next.copyFrom(cur)
	p.level[i+1] = next
	return next.step(p.mv, i, mk)
}

func (p *product) emit(marks []normalform.Mark, mu2 []normalform.Mu) {
	mv := p.mv
	var work *tracker
	if mv.Rank == 0 {
		work = &p.work
		work.copyFrom(p.level[0])
		if !work.barrier(mv, marks) {
			return
		}
	} else {
		work = p.level[len(mv.Events)]
		if work != &p.buf[len(mv.Events)] {
			p.buf[len(mv.Events)].copyFrom(work)
			work = &p.buf[len(mv.Events)]
		}
	}
	if !p.prune(work, mv.Target) {
		return
	}
	target := p.target
	copy(target, mv.Target)
	clear(target[p.y.Words():])
	for r := 1; r <= p.y.N; r++ {
		p.mu[r-1].Set(target, uint64(mu2[r-1]))
	}
	p.tl.store(target, work)
	p.f(mv, marks, target)
}

func (t *tracker) copyFrom(o *tracker) {
	copy(t.pairs, o.pairs)
	for h := 2; h <= normalform.Heads; h++ {
		copy(t.written[h].Words(), o.written[h].Words())
	}
}

func (p *product) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	// The labels are counted in fields and the callback is a method value
	// made once (newProduct): a closure here would be allocated per state.
	p.succEmit, p.succN = emit, 0
	p.memoOn = p.memoFor()
	p.each(s, p.succF)
	p.succEmit, p.memoOn = nil, nil
	p.hintW, p.hintSlot = nil, nil
}

// PartHint is the Y state of the successor emitted last and the move
// table's slot for its number (automata.PartHinter), while Successors
// runs; nil outside it, for a plain product, and for moves the table
// does not hold.
func (p *product) PartHint() (automata.State, *atomic.Uint32) {
	if p.noHint {
		return nil, nil
	}
	return p.hintW, p.hintSlot
}

func (p *product) successor(_ *normalform.Move, _ []normalform.Mark, t automata.State) {
	p.succEmit(p.succN, t)
	p.succN++
}

// explain returns the move and marks of the transition with the given label.
func (p *product) explain(s automata.State, l automata.Label) (normalform.Move, []normalform.Mark) {
	var mv normalform.Move
	var mk []normalform.Mark
	n := automata.Label(0)
	p.each(s, func(m *normalform.Move, marks []normalform.Mark, _ automata.State) {
		if n == l {
			mv, mk = *m, append([]normalform.Mark(nil), marks...)
		}
		n++
	})
	return mv, mk
}

// prune drops states in which some pair can no longer be completed: the
// rank that must still produce its marked event can no longer touch the
// pair's cell (or, for a pair not started, the two ranks share no cell they
// may still touch and cannot both reach a barrier). It also forgets the
// writes of parts 2–4 to cells that no pair can ask about any more. Both
// only remove states from which no accepting state is reachable, or merge
// states that accept the same continuations.
func (p *product) prune(t *tracker, y automata.State) bool {
	keep, _ := p.pruneChanged(t, y)
	return keep
}

// pruneChanged is prune, also telling whether it changed t (the shared
// exploration keeps the element's number when it did not).
func (p *product) pruneChanged(t *tracker, y automata.State) (keep, changed bool) {
	rel := p.relevant
	clear(rel)
	p.late = p.late[:0]
	for k := range t.pairs {
		pr := &t.pairs[k]
		r1, r2 := int(pr.r1), int(pr.r2)
		q1, q2 := p.y.Control(y, r1), p.y.Control(y, r2)
		switch pr.st {
		case stWait:
			if !p.waitPair(k, r1, q1, r2, q2, rel) {
				return false, false
			}
		case stD, stA:
			other := p.cellsAt(r2, q2) // the enter event of r2 is missing
			if pr.st == stA {
				other = p.cellsAt(r1, q1) // the leave event of r1 is missing
			}
			if !bitset.From(other).Test(uint(pr.cell)) {
				return false, false
			}
			p.lateCell(pr, r2, q2)
		}
	}
	return true, p.forgetWritten(t, rel)
}

// fork is a reducer with its own scratch sets and the same tables.
func (rd *reducer) fork() *reducer {
	w := len(rd.started)
	return &reducer{cyclic: rd.cyclic, barrier: rd.barrier,
		mine: make([]uint64, w), others: make([]uint64, w), started: make([]uint64, w)}
}

// CollapseAt splits a product state into Y's words and the rest (μ and the
// tracker) for the visited set (automata.Collapser): both parts repeat
// across the product states (Y's states are met once per marking and
// tracker, a tracker in many states of Y), so a state costs one word of
// the arena.
func (p *product) CollapseAt() int {
	if p.plain {
		return 0
	}
	return p.y.Words()
}

// CollapseTable is the table of Y's states that the visited sets of all
// the per-type searches of a decision share (automata.SharedCollapser):
// a small type walks mostly states of Y it meets once, and paid a copy
// of their words per state when each search kept its own.
func (p *product) CollapseTable() *automata.Interner {
	if p.plain || p.table == nil {
		return nil
	}
	return p.table.ys
}

// PartDecoded remembers the number of the Y state of the state the
// visited set decoded last (automata.PartHinter): the search expands it
// next, and movesAmple then finds its table entry by number.
func (p *product) PartDecoded(ys automata.State, n uint32) {
	if p.noHint {
		return
	}
	p.decW = append(p.decW[:0], ys...)
	p.decN, p.decOK = n, true
}

// movesAmple returns the moves from Y state ys and the rank whose moves
// alone are explored from it with the tracker in p.buf[0], or 0. With a
// move table, the part of the ample-set check that reads Y alone is done
// once per Y state for every cycle type (a tenth of the CPU of the
// per-type search on the ring at N = 6 went to redoing it per product
// state).
func (p *product) movesAmple(ys automata.State) ([]normalform.Move, int, *tableEntry) {
	if p.table == nil || p.plain {
		moves := p.moves(ys)
		if p.reduce == nil {
			return moves, 0, nil
		}
		return moves, p.reduce.ample(p.y, p.future, ys, moves, p.startedCells(&p.buf[0], p.reduce.started)), nil
	}
	// The states of the arena come in runs with one Y state (a move's
	// markings), so the last entry is remembered: the table's lookup
	// takes a lock and a map probe.
	var moves []normalform.Move
	var e *tableEntry
	if p.lastE != nil && automata.Equal(p.lastE.key, ys) {
		moves, e = p.lastE.moves, p.lastE
	} else {
		if p.decOK && automata.Equal(p.decW, ys) {
			e = p.table.entryAt(p.decN)
		}
		if e != nil {
			moves = e.moves
		} else {
			moves, e = p.table.entry(ys)
		}
		p.lastE = e
	}
	switch {
	case p.reduce == nil:
		return moves, 0, e
	case e == nil:
		return moves, p.reduce.ample(p.y, p.future, ys, moves, p.startedCells(&p.buf[0], p.reduce.started)), nil
	}
	c := p.table.candidates(e, p.reduce, p.future)
	if len(c.ranks) == 0 {
		return moves, 0, e
	}
	return moves, c.ample(p.startedCells(&p.buf[0], p.reduce.started)), e
}

// startedCells sets started to the cells of t's pairs that have seen one
// of their events.
func (p *product) startedCells(t *tracker, started []uint64) []uint64 {
	clear(started)
	set := bitset.From(started)
	for k := range t.pairs {
		pr := &t.pairs[k]
		if pr.st == stD || pr.st == stA || pr.st == stWatch {
			set.Set(uint(pr.cell))
		}
	}
	return started
}
