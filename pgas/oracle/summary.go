package oracle

import (
	encbin "encoding/binary"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/pgasrob/pgasrob/pgas"
)

// Why memoising on a summary of the history is sound.
//
// Let τ be a computation prefix whose class graph G (nodes: ↔-classes;
// edges: po/cf edges between different classes) is acyclic. Extending τ by
// more events only adds to G: the po edges, cf edges and ↔-classes among
// old events depend on the old events alone (po joins successive events of
// a rank; cf on what lies between two events; ↔ on FIFO positions), so old
// edges stay and old classes never merge. New events either form new
// classes or join the class of a pending request (a read/write whose popb
// has not happened yet). Every new edge ends at a new event (po and cf
// point forward in time), and starts at a new event or at an old event
// that holds one of these roles:
//
//   - po(r): the last non-pop event of rank r;
//   - w(c): the last write of cell c;
//   - rd(c): a read of cell c since that write.
//
// (A pending class can itself hold a role: its read/write can be po(r),
// and its popa a read of rd(c). It then reaches the role trivially, which
// is no cycle: an edge from a class to itself is not an edge of the class
// graph. Roles po(r) and w(c) never send an edge to their own class, since
// pops have no po edges and a class writes only once, in its last event;
// but the popb of a write or read whose source and destination are the
// same cell gets a cf edge from its own popa. So the pending members of
// rd(c) are kept apart, as a set, from the others, which are summarised
// by their reachers.)
//
// So a new edge enters a new class or a pending class, and leaves a new
// class or a role. A cycle of the extended graph that uses old classes
// enters the old part at a pending class P, follows old edges to the class
// of a role, and leaves from there. Hence all the future needs to know of
// G is which pending classes reach which pending classes, and which
// pending classes reach the class of each role. For rd(c) it is enough to
// know which pending classes reach some read of c since its last write:
// those reads only ever act together, as the sources of cf edges to the
// next write of c. A role whose class no pending class reaches behaves as
// if it were absent (no cycle can pass through it any more), so not even
// the existence of a role needs recording.
//
// OpenSHMEM contexts (docs/shmem-calculus.md) change none of this. A
// context's items are pending classes like requests; ↔ joins a pop with
// the issue its Item names instead of the FIFO position, but still only
// with a pending class, so old classes still never merge. A pending
// class is numbered by the item's position in its context (issue order,
// which the X state's key fixes), not by its issue index, which the key
// leaves out; a popa leaves the item where it is and a popb removes it.
// A blocking send's issue and popa are one move of one new class. The new
// events fit the roles: a fence or quiet has no cell and only takes
// po(r); a fetching atomic is a class of one non-pop event that takes
// po(r) and, as hb treats it (Kind.IsWrite), acts as a write of its cell
// (a KAmo, which also reads it: every conflict with a write is an edge
// anyway) or as a read (a KAFetch), and is complete at once, so it is
// never pending; its single event writes last, like a popb. Whether a
// move is enabled (fence epochs, After, quiet, guards) depends on the X
// state alone.
//
// That is the summary: a reach matrix over the pending classes (numbered
// in queue order, so the numbering is canonical), per role the set of
// pending classes that reach it (for rd(c): that reach one of its members
// that is not pending), and per cell the pending classes in rd(c). Two prefixes with equal X states and
// equal summaries have the same violating extensions, of the same lengths,
// so exploring one of them is enough. The summary is kept transitively
// closed; a new edge from a role to a class v closes a cycle exactly when v
// is pending and already reaches that role.

// summary is the history summary described above. Pending classes are
// numbered in the order of the queues of the X state they belong to: for
// each (rank, queue), the requests of fa, then those of fb, or the items
// of a context.
type summary struct {
	p     int      // number of pending classes
	w     int      // words per bit set
	reach []uint64 // row a (w words): the pending classes pending class a reaches (reflexive)
	col   []uint64 // row R (w words): the pending classes that reach the class of role R (for rd: of a member not pending)
	rdp   []uint64 // row c (w words): the pending classes whose popa is in rd(c)
	n     int      // ranks
	cells int      // n * |ADR|
	nadr  int
	nque  int
	// comm: the commuting conflicts (summary_commute.go); cls gives the
	// commuting class of an event, ops the class of each cell's current
	// block of writes.
	comm bool
	cls  func(pgas.Event) int
	ops  []uint8
}

// Roles are numbered po(1..N), then w(cell), then rd(cell).
func (s *summary) roles() int {
	if s.comm {
		return s.n + 4*s.cells // and prev(cell), rdPrev(cell)
	}
	return s.n + 2*s.cells
}
func (s *summary) rdCells() int { // rows of rdp: rd(c), and rdPrev(c) with comm
	if s.comm {
		return 2 * s.cells
	}
	return s.cells
}
func (s *summary) poRole(r int) int         { return r - 1 }
func (s *summary) wRole(c pgas.Cell) int    { return s.n + (c.Rank-1)*s.nadr + c.Addr }
func (s *summary) rdRole(c pgas.Cell) int   { return s.n + s.cells + (c.Rank-1)*s.nadr + c.Addr }
func (s *summary) row(a int) []uint64       { return s.reach[a*s.w : (a+1)*s.w] }
func (s *summary) column(role int) []uint64 { return s.col[role*s.w : (role+1)*s.w] }
func (s *summary) rdPend(c pgas.Cell) []uint64 {
	i := (c.Rank-1)*s.nadr + c.Addr
	return s.rdp[i*s.w : (i+1)*s.w]
}
func has(set []uint64, i int) bool { return bitset.From(set).Test(uint(i)) }
func add(set []uint64, i int)      { bitset.From(set).Set(uint(i)) }
func or(dst, src []uint64) {
	for i := range dst {
		dst[i] |= src[i]
	}
}

func newSummary(n, nadr, nque int) *summary {
	s := &summary{w: 1, n: n, cells: n * nadr, nadr: nadr, nque: nque}
	s.col = make([]uint64, s.roles()*s.w)
	s.rdp = make([]uint64, s.rdCells()*s.w)
	return s
}

// work is a summary being updated by one move, with room for the class of
// the move when it is new (as a temporary pending class number p).
type work struct {
	summary
	cyclic  bool
	scratch []uint64 // w words, for reachers
}

func (s *summary) begin() *work {
	w := &work{summary: *s}
	w.w = (s.p + 1 + 63) / 64
	ww := w.w
	rc := s.rdCells()
	buf := make([]uint64, (s.p+1)*ww+s.roles()*ww+rc*ww+ww)
	w.reach, buf = buf[:(s.p+1)*ww], buf[(s.p+1)*ww:]
	w.col, buf = buf[:s.roles()*ww], buf[s.roles()*ww:]
	w.rdp, w.scratch = buf[:rc*ww], buf[rc*ww:]
	w.ops = slices.Clone(s.ops)
	if ww == s.w {
		copy(w.reach, s.reach)
		copy(w.col, s.col)
		copy(w.rdp, s.rdp)
		return w
	}
	for a := 0; a < s.p; a++ {
		copy(w.row(a), s.row(a))
	}
	for r := 0; r < s.roles(); r++ {
		copy(w.column(r), s.column(r))
	}
	for i := 0; i < rc; i++ {
		copy(w.rdp[i*ww:(i+1)*ww], s.rdp[i*s.w:(i+1)*s.w])
	}
	return w
}

// edge adds the edges from the class of role R to class c.
func (w *work) edge(role, c int) {
	from := w.column(role)
	if has(from, c) {
		w.cyclic = true
		return
	}
	w.link(from, c)
}

// link records that every class in from now reaches c, and so all that c
// reaches.
func (w *work) link(from []uint64, c int) {
	rc := w.row(c)
	for x := 0; x <= w.p; x++ {
		if has(from, x) {
			or(w.row(x), rc)
		}
	}
	for r := 0; r < w.roles(); r++ {
		if col := w.column(r); has(col, c) {
			or(col, from)
		}
	}
}

// rdEdges adds the cf edges from the reads of cell x to class c (a write).
func (w *work) rdEdges(x pgas.Cell, c int) {
	w.edge(w.rdRole(x), c)
	pend := w.rdPend(x)
	for y := 0; y <= w.p && !w.cyclic; y++ {
		if y == c || !has(pend, y) {
			continue
		}
		if has(w.row(c), y) {
			w.cyclic = true
			return
		}
		w.link(w.reachers(y), c)
	}
}

// reachers returns the classes that reach c, in a buffer that the next
// call reuses.
func (w *work) reachers(c int) []uint64 {
	set := w.scratch
	clear(set)
	for x := 0; x <= w.p; x++ {
		if has(w.row(x), c) {
			add(set, x)
		}
	}
	return set
}

// event adds the po and cf edges of one event of class c and moves the
// roles it takes over to c.
func (w *work) event(e pgas.Event, c int) {
	if !e.Kind.IsPop() {
		po := w.poRole(e.Rank)
		w.edge(po, c)
		if w.cyclic {
			return
		}
		copy(w.column(po), w.reachers(c))
	}
	if !e.HasCell {
		return
	}
	if w.comm {
		w.eventComm(e, c)
		return
	}
	wr, rd := w.wRole(e.Cell), w.rdRole(e.Cell)
	w.edge(wr, c)
	if w.cyclic {
		return
	}
	if e.Kind.IsWrite() {
		w.rdEdges(e.Cell, c)
		if w.cyclic {
			return
		}
		copy(w.column(wr), w.reachers(c))
		clear(w.column(rd))
		clear(w.rdPend(e.Cell))
	} else if e.Kind == pgas.KPopa {
		add(w.rdPend(e.Cell), c)
	} else {
		or(w.column(rd), w.reachers(c))
	}
}

// apply updates the summary of a history ending in X state x for one move
// from x and its events. It reports whether the class graph became cyclic;
// if not it returns the summary of the longer history.
func (s *summary) apply(x *pgas.XState, mv pgas.Move, evs []pgas.Event) (*summary, bool) {
	w := s.begin()
	// start[i] is the number of the first pending class of queue i.
	nq := s.n * s.nque
	start := make([]int, nq+1)
	for i := 0; i < nq; i++ {
		r, q := i/s.nque+1, i%s.nque
		start[i+1] = start[i] + x.Pending(r, q)
	}
	ctx := mv.Kind != pgas.MoveCmd && mv.Kind != pgas.MoveBarrier && x.Items(mv.Rank, mv.Queue) != nil
	item := 0 // the position of the item a context pop names
	if ctx {
		item = slices.IndexFunc(x.Items(mv.Rank, mv.Queue), func(it pgas.Item) bool { return it.Issue == mv.Item })
	}
	c := s.p // a new class, unless the move pops a pending one
	qi := -1 // the queue the move changes
	switch {
	case mv.Kind == pgas.MoveCmd:
		if e := evs[0]; e.Kind == pgas.KRead || e.Kind == pgas.KWrite {
			qi = (e.Rank-1)*s.nque + e.Queue
		}
	case ctx:
		// Items stay in issue order: a pop finds its pending class by
		// the item's position.
		qi = (mv.Rank-1)*s.nque + mv.Queue
		c = start[qi] + item
	case mv.Kind == pgas.MovePopa:
		qi = (mv.Rank-1)*s.nque + mv.Queue
		c = start[qi]
	case mv.Kind == pgas.MovePopb:
		qi = (mv.Rank-1)*s.nque + mv.Queue
		c = start[qi] + len(x.FA(mv.Rank, mv.Queue))
	}
	add(w.row(c), c)
	for _, e := range evs {
		w.event(e, c)
		if w.cyclic {
			return nil, true
		}
	}
	if mv.Kind == pgas.MovePopb {
		// c is complete: its popa, if still a read of its cell since the
		// last write, joins the members that are not pending.
		for i := 0; i < s.cells; i++ {
			if pend := w.rdp[i*w.w : (i+1)*w.w]; has(pend, c) {
				or(w.column(s.n+s.cells+i), w.reachers(c))
			}
			if !s.comm {
				continue
			}
			if pend := w.rdp[(s.cells+i)*w.w : (s.cells+i+1)*w.w]; has(pend, c) {
				or(w.column(s.n+3*s.cells+i), w.reachers(c))
			}
		}
	}
	// Renumber: the classes pending after the move, in queue order.
	order := make([]int, 0, s.p+1)
	for i := 0; i < nq; i++ {
		r, q := i/s.nque+1, i%s.nque
		a, b := start[i], start[i]+len(x.FA(r, q)) // fa is a..b-1, fb is b..start[i+1]-1
		switch {
		case i != qi:
			order = appendSeq(order, a, start[i+1])
		case ctx && mv.Kind == pgas.MovePopa: // the item stays in place
			order = appendSeq(order, a, start[i+1])
		case ctx: // popb: the item leaves
			order = appendSeq(order, a, c)
			order = appendSeq(order, c+1, start[i+1])
		case x.Items(r, q) != nil: // a new item at the end of the context
			order = appendSeq(order, a, start[i+1])
			order = append(order, s.p)
		case mv.Kind == pgas.MoveCmd: // a new request at the end of fa
			order = appendSeq(order, a, b)
			order = append(order, s.p)
			order = appendSeq(order, b, start[i+1])
		case mv.Kind == pgas.MovePopa: // the head of fa moves to the end of fb
			order = appendSeq(order, a+1, start[i+1])
			order = append(order, a)
		default: // popb: the head of fb leaves
			order = appendSeq(order, a, b)
			order = appendSeq(order, b+1, start[i+1])
		}
	}
	t := &summary{p: len(order), w: max(1, (len(order)+63)/64), n: s.n, cells: s.cells, nadr: s.nadr, nque: s.nque,
		comm: s.comm, cls: s.cls, ops: w.ops}
	tw := t.w
	buf := make([]uint64, t.p*tw+t.roles()*tw+t.rdCells()*tw)
	t.reach, buf = buf[:t.p*tw], buf[t.p*tw:]
	t.col, t.rdp = buf[:t.roles()*tw], buf[t.roles()*tw:]
	for a, oa := range order {
		ra := w.row(oa)
		for b, ob := range order {
			if has(ra, ob) {
				add(t.row(a), b)
			}
		}
	}
	for r := 0; r < t.roles(); r++ {
		cr := w.column(r)
		for a, oa := range order {
			if has(cr, oa) {
				add(t.column(r), a)
			}
		}
	}
	for i := 0; i < t.rdCells(); i++ {
		pend := w.rdp[i*w.w : (i+1)*w.w]
		for a, oa := range order {
			if has(pend, oa) {
				add(t.rdp[i*tw:(i+1)*tw], a)
			}
		}
	}
	return t, false
}

func appendSeq(s []int, from, to int) []int {
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// appendKey encodes the summary after b. The number of pending classes is
// implied by the X state the summary belongs to.
func (s *summary) appendKey(b []byte) []byte {
	for _, x := range s.reach {
		b = encbin.AppendUvarint(b, x)
	}
	for _, x := range s.col {
		b = encbin.AppendUvarint(b, x)
	}
	for _, x := range s.rdp {
		b = encbin.AppendUvarint(b, x)
	}
	return append(b, s.ops...)
}
