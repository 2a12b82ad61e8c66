package cycles

import (
	"context"
	"sync/atomic"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/table"
	"github.com/pgasrob/pgasrob/normalform"
)

// The shared exploration (Options.Exploration == Shared) walks Y^M once
// for all cycle types instead of once per type. A state is (Y, μ, S)
// where S is the set of live elements (cycle type, tracker): the trackers
// that the one marked computation leading here has produced, one per
// cycle type that is still possible. A type drops out of S when a mark
// falls on a rank outside it or its tracker rejects (including prune). On
// the unmarked prefix S is the same for every path, so that prefix is
// walked once, not once per type.
//
// Elements and sets are interned to 32-bit numbers, and the step of a set
// over one event (its part, rank, cell, write bit and mark), over one
// barrier (its marks) and the pruning of a set at given control states
// are remembered by number. A set holds at most one element per type (a
// path determines each tracker), so it is a short sorted list of element
// numbers; a bitset over all elements would be larger and no faster.
//
// Everything a per-type product decides is decided here by the same code
// (tracker.step, tracker.barrier, product.prune, product.accepting, on the
// product of the element's type); only the bookkeeping is shared. The
// partial-order reduction (reduce.go) needs, per state, the cells of the
// pairs already started: here the union over the elements of S, so the
// rank it picks is a valid choice for every element at once.

// sharedSystem is the product of Y^M with every searched cycle type at
// once, as an automata.System.
type sharedSystem struct {
	y      *normalform.Y
	types  []CycleType
	prods  []*product // per type: its tracker layout, prune and acceptance
	typeRk []uint64   // per type: its ranks as a bit set
	moves  func(automata.State) []normalform.Move
	mu     []automata.Field
	setF   automata.Field
	width  int
	yw     int
	reduce *reducer

	// v reads the elements and sets, which the forks share (shared_tables.go).
	v       view
	ctlBits int
	ytab    *yTable    // per state of Y: its moves, their control states and keys (shared_y.go)
	yCap    int64      // bytes ytab may hold before it is emptied
	keyIdx  *table.Map // (signature, control states) → key
	succ    *succMemo  // (set, key) → pruned outcomes
	// free is the stuck-rank analysis (stuck.go), nil to prune without it.
	free *freeFuture
	// stop, if set, ends the expansion of states early (Successors).
	stop context.Context

	// dead[k]: types[k] is no longer wanted, and is dropped from the sets
	// of the states expanded from now on. A settled type is only ignored
	// by Accepting: dropping it would change the states that carry it,
	// which then count as new and are explored again.
	dead    []bool
	settled []bool
	epoch   int // bumped whenever dead changes
	live    int // types not dead
	// alive's results (a set without the dead types) as of filtEpoch.
	filt      *table.Map
	filtEpoch int
	// others, if set, are the types other goroutines have settled or
	// found unwanted (shared_run.go), taken over between states; seen is
	// the generation of others last taken over.
	others *doneTypes
	seen   int64

	// Scratch, reused: the system is used by one goroutine.
	wkey     []uint64
	ids      []uint32
	scratch  []automata.State // per type: a state of its product, for packing
	level    []uint32         // sets after the first i events of the move
	mv       *normalform.Move
	ctl      uint32 // number of the control states the move leads to
	muBuf    []normalform.Mu
	marker   normalform.Marker
	target   automata.State
	emit     func(automata.Label, automata.State)
	label    automata.Label
	ranks    uint64
	stepF    func(int, normalform.Mark) bool
	barF     func(int, normalform.Mark) bool
	emitF    func([]normalform.Mark, []normalform.Mu)
	collectF func([]normalform.Mark, []normalform.Mu)
	marks    *markMemo
	eligF    func(int) bool
	yFlushes int
	tables   int64 // estimated bytes of the tables above
	// forks are the system's forks (shared_fork.go); each publishes its
	// tables' bytes in published after every state.
	forks     []*sharedSystem
	published atomic.Int64
}

// newSharedCtx is the shared system of types, or nil when ctx ends while
// the products of the types are set up (a million types at N = 10 take
// minutes).
func newSharedCtx(ctx context.Context, y *normalform.Y, types []CycleType, moves func(automata.State) []normalform.Move, reduce *reducer) *sharedSystem {
	l := *y.Layout()
	sh := &sharedSystem{y: y, types: types, moves: moves, reduce: reduce, yw: y.Words(),
		dead: make([]bool, len(types)), settled: make([]bool, len(types)),
		live: len(types), yCap: 1 << 62}
	// The same μ fields as every per-type product, so that their
	// acceptance test reads μ from a shared state as from their own.
	sh.mu = l.Fields(y.N, 2)
	sh.setF = l.Field(32)
	sh.width = l.Words()
	for i, c := range types {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil
		}
		p := newProduct(y, c, moves)
		sh.prods = append(sh.prods, p)
		var rk uint64
		for _, r := range c {
			rk |= 1 << r
		}
		sh.typeRk = append(sh.typeRk, rk)
	}
	sh.ctlBits = automata.BitsFor(len(y.P.Labels))
	sh.v.t = newTables(y.Future().Words)
	sh.v.refresh()
	sh.free = newFreeFuture(y)
	sh.setUp()
	return sh
}

// setUp gives sh (the system or a fork) its scratch and what it keeps
// for itself (shared_fork.go): the table of Y states, its caches of the
// shared numbering, the filter of dead types.
func (sh *sharedSystem) setUp() {
	y := sh.y
	sh.scratch = nil
	for _, p := range sh.prods {
		p.free = sh.free
		sh.scratch = append(sh.scratch, make(automata.State, p.width))
	}
	sh.filt = table.NewMap()
	sh.level = make([]uint32, max(3, y.N)+2)
	sh.muBuf = make([]normalform.Mu, y.N)
	sh.target = make(automata.State, sh.width)
	sh.stepF, sh.barF, sh.emitF, sh.collectF = sh.step, sh.barStep, sh.emitMarked, sh.collect
	sh.marks = newMarkMemo()
	sh.ytab = newYTable(y.Future().Words)
	sh.keyIdx, sh.succ = table.NewMap(), newSuccMemo()
	sh.eligF = func(r int) bool { return sh.ranks&(1<<r) != 0 }
}

func (sh *sharedSystem) Width() int { return sh.width }

func (sh *sharedSystem) Initial(emit func(automata.State)) {
	s := make(automata.State, sh.width)
	sh.y.Initial(s)
	sh.ids = sh.ids[:0]
	for k, p := range sh.prods {
		if !sh.dead[k] {
			t := p.newTracker() // every pair waiting, nothing written
			sh.ids = append(sh.ids, sh.internElem(k, &t))
		}
	}
	sh.setF.Set(s, uint64(sh.internSet(sh.ids)))
	emit(s)
}

func (sh *sharedSystem) Accepting(s automata.State) bool {
	return sh.acceptingType(s, 0) >= 0
}

// acceptingType returns the smallest index k >= from of a type neither
// dead nor settled whose element in s accepts, or -1. (The elements are in
// the order of their numbers, not of their types.)
func (sh *sharedSystem) acceptingType(s automata.State, from int) int {
	best := -1
	for _, e := range sh.v.accepting(uint32(sh.setF.Get(s))) {
		k := sh.v.typeOf(e)
		if k < from || (best >= 0 && k > best) || sh.dead[k] || sh.settled[k] {
			continue
		}
		w := &sh.prods[k].work
		sh.load(e, w)
		if sh.prods[k].accepting(s, w) {
			best = k
		}
	}
	return best
}

// kill drops type k from every state expanded from now on.
func (sh *sharedSystem) kill(k int) {
	if !sh.dead[k] {
		sh.dead[k] = true
		sh.live--
		sh.epoch++
	}
}

// alive is set without the dead types.
func (sh *sharedSystem) alive(set uint32) uint32 {
	if sh.live == len(sh.types) {
		return set
	}
	if sh.filtEpoch != sh.epoch {
		sh.tables -= 24 * int64(sh.filt.Len())
		sh.filt, sh.filtEpoch = table.NewMap(), sh.epoch
	}
	if f, ok := sh.filt.Get(uint64(set)); ok {
		return f
	}
	ids := sh.ids[:0]
	for _, e := range sh.v.members(set) {
		if !sh.dead[sh.v.typeOf(e)] {
			ids = append(ids, e)
		}
	}
	f := sh.internSet(ids)
	sh.filt.Put(uint64(set), f)
	sh.tables += 24 // given back when the cache is emptied
	return f
}

func (sh *sharedSystem) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	sh.published.Store(sh.tables) // read by the system of which sh is a fork
	if o := sh.others; o != nil {
		if g := o.gen.Load(); g != sh.seen {
			sh.seen = g
			for k := range o.flags {
				if o.flags[k].Load() {
					sh.kill(k)
				}
			}
		}
	}
	if sh.stop != nil && sh.stop.Err() != nil {
		// Ended (every wanted type settled, or a budget): one state's
		// successors can take seconds at large N, so the search would
		// otherwise notice only much later. The caller must not read an
		// exhausted search as Empty after this (exploreShared).
		return
	}
	set := sh.alive(uint32(sh.setF.Get(s)))
	if set == 0 {
		return
	}
	yi := sh.yState(s)
	yt := sh.ytab
	if st := yt.stuck[yi]; st != 0 {
		if set = sh.pruneStuck(set, s, st, yt.stuckKey[yi]); set == 0 {
			return
		}
	}
	moves := yt.moves[yi]
	for r := 1; r <= sh.y.N; r++ {
		sh.muBuf[r-1] = normalform.Mu(sh.mu[r-1].Get(s))
	}
	only := 0
	if sh.reduce != nil {
		only = yt.ample(yi, sh.v.startedCells(set))
	}
	sh.emit, sh.label = emit, 0
	first := int(yt.first[yi])
	for i := range moves {
		mv := &moves[i]
		if only != 0 && mv.Rank != only {
			continue
		}
		sh.mv = mv
		sh.ctl = yt.ctl[first+i]
		if r := mv.Rank; r != 0 {
			saved := sh.muBuf[r-1]
			key := &yt.keys[4*(first+i)+int(saved)]
			if *key == 0 {
				if k := sh.succKey(mv, saved, sh.ctl); k == noKey {
					*key = noKey
				} else {
					*key = k + 1
				}
			}
			if *key != noKey {
				res := sh.successors(set, *key-1, mv)
				for k := range res {
					sh.muBuf[r-1] = res[k].mu
					sh.emitPruned(res[k].set, sh.muBuf)
				}
				sh.muBuf[r-1] = saved
				continue
			}
		}
		sh.level[0] = set
		sh.ranks = sh.v.setRanks(set)
		if mv.Rank == 0 {
			sh.marker.Step = sh.barF
		} else {
			sh.marker.Step = sh.stepF
		}
		sh.marker.Run(mv, sh.muBuf, sh.eligF, sh.emitF)
	}
}

// step is the Marker's hook for an event of a non-barrier move: the set
// after it, cut when empty.
func (sh *sharedSystem) step(i int, mk normalform.Mark) bool {
	cur := sh.level[i]
	he := &sh.mv.Events[i]
	comm := sh.prods[0].work.cls != nil
	if mk == 0 && (!he.Event.Kind.IsWrite() || comm) {
		sh.level[i+1] = cur // an unmarked read (under cf_c any unmarked event) changes no pair
		return true
	}
	cell := 0
	if he.Event.HasCell {
		cell = sh.prods[0].work.cellIndex(he.Event.Cell) + 1
	}
	desc := uint64(he.Head-1) | uint64(mk)<<2 | uint64(he.Event.Rank)<<5 | uint64(cell)<<12
	if he.Event.Kind.IsWrite() {
		desc |= 1 << 4
	}
	key := uint64(cur)<<32 | desc
	// The key leaves out the commuting class of the event; under cf_c
	// an event with one is not memoised (tracker_commute.go).
	noMemo := comm && sh.prods[0].work.class(he.Event) != 0
	next, ok := uint32(0), false
	if !noMemo {
		next, ok = sh.v.t.memo.Get(key)
	}
	if !ok {
		ids := sh.ids[:0]
		for _, e := range sh.v.members(cur) {
			k := sh.v.typeOf(e)
			if mk != 0 && sh.typeRk[k]&(1<<he.Event.Rank) == 0 {
				continue // marks fall only on the ranks of the cycle type
			}
			w := &sh.prods[k].work
			sh.load(e, w)
			if w.step(sh.mv, i, mk) {
				ids = append(ids, sh.internElem(k, w))
			}
		}
		next = sh.internSet(ids)
		if !noMemo {
			sh.remember(false, key, next)
		}
	}
	sh.level[i+1] = next
	return next != 0
}

// barStep is the Marker's hook for the bar event of rank i+1: a mark
// keeps only the types with that rank (the barrier itself is judged
// whole, in emitMarked).
func (sh *sharedSystem) barStep(i int, mk normalform.Mark) bool {
	cur := sh.level[i]
	if mk != 0 && sh.v.setRanks(cur)&(1<<(i+1)) == 0 {
		return false
	}
	sh.level[i+1] = cur
	return true
}

func (sh *sharedSystem) emitMarked(marks []normalform.Mark, mu2 []normalform.Mu) {
	set := sh.level[len(sh.mv.Events)]
	if sh.mv.Rank == 0 {
		set = sh.barrier(set, marks)
	}
	sh.emitSet(set, mu2)
}

// emitSet emits the successor by the current move with μ = mu2 and the
// set after the move's events, once pruned.
func (sh *sharedSystem) emitSet(set uint32, mu2 []normalform.Mu) {
	if set == 0 {
		return
	}
	if set = sh.prune(set, sh.ctl, sh.mv.Target); set != 0 {
		sh.emitPruned(set, mu2)
	}
}

// emitPruned emits the successor by the current move with μ = mu2 and the
// (pruned, non-empty) set.
func (sh *sharedSystem) emitPruned(set uint32, mu2 []normalform.Mu) {
	t := sh.target
	copy(t, sh.mv.Target)
	clear(t[sh.yw:])
	for r := 1; r <= sh.y.N; r++ {
		sh.mu[r-1].Set(t, uint64(mu2[r-1]))
	}
	sh.setF.Set(t, uint64(set))
	sh.emit(sh.label, t)
	sh.label++
}

// barrier is the set after a barrier move with the given marks.
func (sh *sharedSystem) barrier(set uint32, marks []normalform.Mark) uint32 {
	var key uint64
	memo := sh.y.N <= 15
	var byRank [64]normalform.Mark
	rankMarks(sh.mv, marks, byRank[:sh.y.N])
	if memo {
		key = uint64(set)<<32 | 1<<31
		for r, m := range byRank[:sh.y.N] {
			key |= uint64(m) << (2 * r)
		}
		if next, ok := sh.v.t.memo.Get(key); ok {
			return next
		}
	}
	ids := sh.ids[:0]
next:
	for _, e := range sh.v.members(set) {
		k := sh.v.typeOf(e)
		for r, m := range byRank[:sh.y.N] {
			if m != 0 && sh.typeRk[k]&(1<<(r+1)) == 0 {
				continue next
			}
		}
		w := &sh.prods[k].work
		sh.load(e, w)
		if w.barrier(sh.mv, marks) {
			ids = append(ids, sh.internElem(k, w))
		}
	}
	res := sh.internSet(ids)
	if memo {
		sh.remember(false, key, res)
	}
	return res
}

// prune is the set after product.prune of every element at the control
// states of target (the only part of target prune reads), numbered ctl.
func (sh *sharedSystem) prune(set, ctl uint32, target automata.State) uint32 {
	mk := uint64(set)<<32 | uint64(ctl)
	if next, ok := sh.v.t.pruned.Get(mk); ok {
		return next
	}
	ids := sh.ids[:0]
	for _, e := range sh.v.members(set) {
		k := sh.v.typeOf(e)
		w := &sh.prods[k].work
		sh.load(e, w)
		if keep, changed := sh.prods[k].pruneChanged(w, target); keep && changed {
			ids = append(ids, sh.internElem(k, w))
		} else if keep {
			ids = append(ids, e)
		}
	}
	next := sh.internSet(ids)
	sh.remember(true, mk, next)
	return next
}

// controls numbers the control states of target's ranks, the only part
// of a state prune reads. (Numbering them by what prune reads of them,
// the future cells and barrier flag, was tried: on the ring at N = 5 it
// left 654 of 673 numbers and the prune memo's misses unchanged.)
func (sh *sharedSystem) controls(target automata.State) uint32 {
	if sh.ctlBits*sh.y.N <= 64 {
		var packed uint64
		for r := 1; r <= sh.y.N; r++ {
			packed = packed<<sh.ctlBits | uint64(sh.y.Control(target, r))
		}
		return sh.ctlNumber(packed, nil)
	}
	key := sh.wkey[:0]
	for r := 1; r <= sh.y.N; r++ {
		key = append(key, uint64(sh.y.Control(target, r)))
	}
	sh.wkey = key
	return sh.ctlNumber(0, key)
}

// ctlNumber numbers packed control states, or key when it is not nil, in
// the tables every fork shares (their numbers are in the prune memos'
// keys). It is called once per move of a Y state new to the goroutine.
func (sh *sharedSystem) ctlNumber(packed uint64, key []uint64) uint32 {
	t := sh.v.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if key == nil {
		return sh.number(t.ctlIdx, packed)
	}
	id, fresh := t.ctlVec.Add(key)
	if fresh {
		sh.tables += int64(40 + 8*len(key))
	}
	return id
}

// remember stores a memo entry, in the prune memo or the step memo.
// (Their memory is counted by the tables, memoBytes.)
func (sh *sharedSystem) remember(prune bool, key uint64, v uint32) {
	if prune {
		sh.v.t.pruned.Put(key, v)
	} else {
		sh.v.t.memo.Put(key, v)
	}
}
