package cycles

import (
	"slices"
	"sync"

	"github.com/pgasrob/pgasrob/automata"
)

// The interned elements and sets of the shared exploration, kept in flat
// arrays without pointers: they grow to millions of entries, and a slice
// per entry made the garbage collector scan them all at every cycle.
//
// The tables are shared by the shared system and its forks (the parallel
// frontier, Fork in shared_fork.go): set numbers are part of the states,
// so every goroutine must give a set the same number. They are only ever
// appended to, and an entry never changes once written. So a goroutine
// interns under the tables' mutex and reads through a view of its own:
// copies of the arrays' headers, taken under the mutex, which stay valid
// for every number below their lengths (a later append may move the
// arrays, not change what the old ones hold). A view is renewed when it
// meets a number it does not cover yet: one made by another goroutine
// since, which reached this one through the search (a state) after the
// mutex was released.

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
	keys     *interner
	off      []uint32 // members of set i: elems[off[i]:off[i+1]], increasing
	elems    []uint32
	ranks    []uint64 // bit r: some member's type contains rank r
	startIdx []uint32 // 0, or j+1: the started pairs' cells are started[j*words:(j+1)*words]
	started  []uint64
	accOff   []uint32 // members whose pairs have all accepted: accept[accOff[i]:accOff[i+1]]
	accept   []uint32
	words    int
}

// tables is what the shared system and its forks share.
type tables struct {
	mu    sync.Mutex
	elems elemTable
	sets  setTable
	// The numbers of control states (with stuck ranks, in ctlVec too),
	// which the prune memos' keys hold; under mu.
	ctlIdx *memoTable // packed control states → number, when they fit a word
	ctlVec *interner  // the same, when they do not
	// The memos of steps and prunings, read and written without mu
	// (shared_memo.go): (set, event or barrier marks) → set, (set,
	// control states) → set, and (set, control states and stuck ranks)
	// → set.
	memo, pruned, stuckPruned *sharedMemo
	// The numbers of move signatures and of (signature, control states)
	// keys, under mu (each goroutine caches them), and the stores of the
	// markings and of the successors they give, by set and signature or
	// key (shared_marks.go, shared_y.go).
	sigs, keyIdx *memoTable
	marks, succ  results
}

// setMemoCap sizes the memos for at most memos entries each and the
// stores for at most runs runs each, emptying them; called before the
// search.
func (t *tables) setMemoCap(memos, runs int) {
	t.memo, t.pruned, t.stuckPruned = newSharedMemo(memos), newSharedMemo(memos), newSharedMemo(memos)
	t.marks.reset(runs)
	t.succ.reset(runs)
}

// memoBytes is the memory the shared memos hold.
func (t *tables) memoBytes() int64 {
	b := t.memo.bytes.Load() + t.pruned.bytes.Load() + t.stuckPruned.bytes.Load()
	for _, rs := range []*results{&t.marks, &t.succ} {
		b += rs.bytes.Load() + rs.cur.Load().spans.bytes.Load()
	}
	return b
}

func newTables(words int) *tables {
	t := &tables{}
	t.elems.keys = newInterner()
	st := &t.sets
	st.keys, st.words = newInterner(), words
	st.off, st.accOff = []uint32{0, 0}, []uint32{0, 0}
	st.ranks, st.startIdx = []uint64{0}, []uint32{0}
	t.ctlIdx, t.ctlVec = newMemoTable(), newInterner()
	t.sigs, t.keyIdx = newMemoTable(), newMemoTable()
	t.setMemoCap(1<<20, 1<<21)
	return t
}

// view is one goroutine's copy of the tables' headers (see above).
type view struct {
	t              *tables
	typ            []int32
	edata          []uint64
	eoff           []uint32
	off, elems     []uint32
	ranks          []uint64
	startIdx       []uint32
	started        []uint64
	accOff, accept []uint32
	words          int
}

// renew copies the headers; the caller holds t.mu.
func (v *view) renew() {
	t := v.t
	v.typ, v.edata, v.eoff = t.elems.typ, t.elems.keys.data, t.elems.keys.off
	st := &t.sets
	v.off, v.elems, v.ranks = st.off, st.elems, st.ranks
	v.startIdx, v.started, v.accOff, v.accept, v.words = st.startIdx, st.started, st.accOff, st.accept, st.words
}

func (v *view) refresh() {
	v.t.mu.Lock()
	v.renew()
	v.t.mu.Unlock()
}

// set makes sure the view covers set i.
func (v *view) set(i uint32) {
	if int(i)+1 >= len(v.off) {
		v.refresh()
	}
}

func (v *view) members(i uint32) []uint32 {
	v.set(i)
	return v.elems[v.off[i]:v.off[i+1]]
}

func (v *view) accepting(i uint32) []uint32 {
	v.set(i)
	return v.accept[v.accOff[i]:v.accOff[i+1]]
}

func (v *view) setRanks(i uint32) uint64 {
	v.set(i)
	return v.ranks[i]
}

// startedCells is the union of the cells of the pairs of set i's members
// that have seen one of their events, nil if there is none.
func (v *view) startedCells(i uint32) []uint64 {
	v.set(i)
	j := v.startIdx[i]
	if j == 0 {
		return nil
	}
	return v.started[int(j-1)*v.words : int(j)*v.words]
}

// elem makes sure the view covers element e.
func (v *view) elem(e uint32) {
	if int(e) >= len(v.typ) {
		v.refresh()
	}
}

// typeOf is the index of element e's type.
func (v *view) typeOf(e uint32) int {
	v.elem(e)
	return int(v.typ[e])
}

// key is element e's key.
func (v *view) key(e uint32) []uint64 {
	v.elem(e)
	return v.edata[v.eoff[e]:v.eoff[e+1]]
}

// load unpacks element e's tracker into w (which must belong to the
// element's type).
func (sh *sharedSystem) load(e uint32, w *tracker) {
	sh.loadKey(sh.v.typeOf(e), sh.v.key(e), w)
}

func (sh *sharedSystem) loadKey(k int, key []uint64, w *tracker) {
	s := sh.scratch[k]
	copy(s[sh.yw:], key[1:])
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
	tb := sh.v.t
	tb.mu.Lock()
	id, fresh := tb.elems.keys.intern(key)
	if fresh {
		tb.elems.typ = append(tb.elems.typ, int32(k))
		sh.tables += int64(4 + 12 + 8*len(key))
		sh.v.renew()
	}
	tb.mu.Unlock()
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
	tb := sh.v.t
	tb.mu.Lock()
	defer tb.mu.Unlock()
	st := &tb.sets
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
		k := tb.elems.typ[e]
		ranks |= sh.typeRk[k]
		w := &sh.prods[k].work
		sh.loadKey(int(k), tb.elems.keys.key(e), w)
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
	sh.tables += int64(12 + 36 + 12*len(ids) + 8*len(started))
	sh.v.renew()
	return id
}

// typedState is the state of types[k]'s own product that the shared
// state s stands for, or nil when s carries no element of that type.
func (sh *sharedSystem) typedState(s automata.State, k int) automata.State {
	for _, e := range sh.v.members(uint32(sh.setF.Get(s))) {
		if sh.v.typeOf(e) == k {
			p := sh.prods[k]
			t := make(automata.State, p.width)
			copy(t[sh.yw:], sh.v.key(e)[1:])
			copy(t, s[:sh.yw])
			for r := 1; r <= sh.y.N; r++ {
				p.mu[r-1].Set(t, sh.mu[r-1].Get(s))
			}
			return t
		}
	}
	return nil
}
