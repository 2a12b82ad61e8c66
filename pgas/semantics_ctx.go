package pgas

import (
	encbin "encoding/binary"
	"fmt"
	"slices"
)

// This file is the part of X(P,N) for the OpenSHMEM commands: the table
// "The semantics X(P,N)" of docs/shmem-calculus.md. A context c of rank r
// holds a list of items in issue order; any item whose rule is enabled
// may pop, so a pop move names its item (Move.Item).
//
// Programs without contexts never reach this file: their states carry no
// items, epochs or counters, and their keys are those of Tables 1 and 3.

// Item is a pending send or recv of a context.
type Item struct {
	Recv bool
	// Src is what the popa reads: mem[Local] of the issuer for a send,
	// the remote cell for a recv. An immediate send (HasSrc false) has its
	// value from the issue and no popa.
	Src    Cell
	HasSrc bool
	Dst    Cell  // what the popb writes
	Val    int64 // the value to deliver, once Read
	Read   bool  // the popa is done (or the send is immediate)
	Amo    AmoOp // AmoAdd: the popb adds Val to Dst modulo Values, into Lo..Hi
	Epoch  int   // the fence epoch of (rank, context) at issue
	After  int   // the Head of the chain whose popbs must come first; -1 if none
	Head   int   // a send's chain: the Issue of its put-with-signal's first send (Cmd.Chain); -1 for a recv
	Issue  int   // the index of the issue event in the rank's program order (Event.Item)
	Trans  int
}

// Items returns the items of context q of rank r, oldest first. The
// caller must not modify them.
func (s *XState) Items(r, q int) []Item {
	if s.ctxState == nil {
		return nil
	}
	return s.ci[(r-1)*s.m.nque+q]
}

// Epoch returns the fence epoch of context q of rank r.
func (s *XState) Epoch(r, q int) int {
	if s.ctxState == nil {
		return 0
	}
	return s.ep[(r-1)*s.m.nque+q]
}

// ctxEnabled reports whether the popb of item j of (r, q) is enabled:
// its popa is done; for a send, no undelivered send of (r, q) to the same
// rank has a smaller epoch (fence); for After, every send of the chain it
// follows is delivered.
func (s *XState) popbEnabled(r, q, j int) bool {
	items := s.Items(r, q)
	it := items[j]
	if !it.Read {
		return false
	}
	if it.Recv {
		return true
	}
	if s.fenced(items, it.Dst.Rank, it.Epoch) {
		return false
	}
	_, _, pending := s.pendingHead(r, it.After)
	return !pending
}

// pendingHead reports whether rank r still has an undelivered send of the
// chain whose first send was issued as head, and where the first one in
// context and list order is.
func (s *XState) pendingHead(r, head int) (q, pos int, ok bool) {
	if head < 0 {
		return 0, 0, false
	}
	for q := 0; q < s.m.nque; q++ {
		for j, it := range s.Items(r, q) {
			if !it.Recv && it.Head == head {
				return q, j, true
			}
		}
	}
	return 0, 0, false
}

// fenced reports whether some send of items to rank k has an epoch
// smaller than ep: a fence separates it from what is issued in epoch ep.
func (s *XState) fenced(items []Item, k, ep int) bool {
	for _, o := range items {
		if !o.Recv && o.Dst.Rank == k && o.Epoch < ep {
			return true
		}
	}
	return false
}

// ctxPopMoves appends the pops enabled in context q of rank r, in item
// order, popa before popb.
func (m *Machine) ctxPopMoves(s *XState, r, q int, moves []Move) []Move {
	for j, it := range s.Items(r, q) {
		if !it.Read {
			moves = append(moves, Move{Kind: MovePopa, Rank: r, Queue: q, Item: it.Issue})
		}
		if s.popbEnabled(r, q, j) {
			moves = append(moves, Move{Kind: MovePopb, Rank: r, Queue: q, Item: it.Issue})
		}
	}
	return moves
}

// PopMoves lists the pop moves enabled in s, by rank and queue.
func (m *Machine) PopMoves(s *XState) []Move {
	var moves []Move
	for r := 1; r <= m.n; r++ {
		for q := 0; q < m.nque; q++ {
			if m.p.IsCtx(q) {
				moves = m.ctxPopMoves(s, r, q, moves)
				continue
			}
			if len(s.FA(r, q)) > 0 {
				moves = append(moves, Move{Kind: MovePopa, Rank: r, Queue: q})
			}
			if len(s.FB(r, q)) > 0 {
				moves = append(moves, Move{Kind: MovePopb, Rank: r, Queue: q})
			}
		}
	}
	return moves
}

// ownCtx gives a clone its own item map before one list changes; lists
// are copied on write.
func (s *XState) ownCtx() { s.ci = append([][]Item(nil), s.ci...) }

// ctxPop applies (popa) or (popb) to the item of (r, q) issued as iss.
func (m *Machine) ctxPop(s *XState, kind MoveKind, r, q, iss int) (*XState, Event, error) {
	i := (r-1)*m.nque + q
	j := slices.IndexFunc(s.ci[i], func(it Item) bool { return it.Issue == iss })
	if j < 0 {
		return nil, Event{}, fmt.Errorf("context %d of rank %d has no item %d", q, r, iss)
	}
	it := s.ci[i][j]
	next := s.clone()
	next.ownCtx()
	ev := Event{Rank: r, HasCell: true, Trans: it.Trans, Queue: q, Item: iss}
	if kind == MovePopa {
		if it.Read {
			return nil, Event{}, fmt.Errorf("popa: item %d of context %d of rank %d is read already", iss, q, r)
		}
		it.Val, it.Read = s.Mem(it.Src), true
		next.ci[i] = slices.Clone(s.ci[i])
		next.ci[i][j] = it
		ev.Kind, ev.Cell = KPopa, it.Src
		return next, ev, nil
	}
	if !s.popbEnabled(r, q, j) {
		return nil, Event{}, fmt.Errorf("popb: item %d of context %d of rank %d is not deliverable", iss, q, r)
	}
	v := it.Val
	if it.Amo == AmoAdd {
		v = m.add(next, s.Mem(it.Dst), v, it.Trans)
	} else if it.Amo.Bitwise() {
		v = m.bitwise(next, it.Amo, s.Mem(it.Dst), v, it.Trans)
	}
	next.mem[(it.Dst.Rank-1)*m.nadr+it.Dst.Addr] = v
	next.ci[i] = slices.Delete(slices.Clone(s.ci[i]), j, j+1)
	ev.Kind, ev.Cell = KPopb, it.Dst
	return next, ev, nil
}

// command applies the rule of transition t for rank r: exec for the
// commands of Tables 1 and 3, execCtx for the OpenSHMEM ones. It counts
// the issue event in np, which names the items of contexts.
func (m *Machine) command(s *XState, r, t int) (*XState, []Event, error) {
	var next *XState
	var evs []Event
	if m.p.Trans[t].Cmd.Op.IsCtxOp() {
		var err error
		if next, evs, err = m.execCtx(s, r, t); err != nil {
			return nil, nil, err
		}
		next.st[r-1] = m.p.Trans[t].To
	} else {
		n, ev, err := m.exec(s, r, t)
		if err != nil {
			return nil, nil, err
		}
		next, evs = n, []Event{ev}
	}
	if next.ctxState != nil {
		next.np[r-1]++
	}
	return next, evs, nil
}

// execCtx applies the rule of an OpenSHMEM command for rank r and
// transition t. It returns the events of the move: two for a blocking
// send (issue and popa).
func (m *Machine) execCtx(s *XState, r, t int) (*XState, []Event, error) {
	tr := &m.p.Trans[t]
	c := &tr.Cmd
	env := Env{Regs: s.regs[(r-1)*m.nregs : r*m.nregs], Rank: int64(r), N: int64(m.n)}
	ev := Event{Rank: r, Trans: t, Queue: -1}
	q64, err := m.p.QueueOf(c.Queue, env)
	if err != nil {
		return nil, nil, err
	}
	q := int(q64)
	if !m.p.IsCtx(q) {
		return nil, nil, fmt.Errorf("%v: internal error: %v on queue %s, which is not a context", tr.Pos, c.Op, m.p.Queues[q])
	}
	i := (r-1)*m.nque + q
	switch c.Op {
	case OpFence: // epoch(r, c) + 1
		next := s.clone()
		next.ep[i]++
		ev.Kind = KFence
		return next, []Event{ev}, nil
	case OpQuiet: // enabled when (r, c) holds no item
		if len(s.ci[i]) > 0 {
			return nil, nil, errBlocked
		}
		ev.Kind = KQuiet
		return s.clone(), []Event{ev}, nil
	case OpAtomic:
		return m.execAtomic(s, r, t, q, env)
	}
	it, err := m.newItem(s, r, t, q, env)
	if err != nil {
		return nil, nil, err
	}
	next := s.clone()
	next.ownCtx()
	ev.Kind, ev.Queue = KWrite, q
	if it.Recv {
		ev.Kind = KRead
	} else {
		it.After = -1
		if c.After {
			it.After = s.last[r-1]
		}
		// s.last is the head of the rank's current chain: a Chain send
		// joins it, any other send starts a new one.
		if c.Chain && !c.After && s.last[r-1] >= 0 {
			it.Head = s.last[r-1]
		} else {
			it.Head = it.Issue
			next.last[r-1] = it.Issue
		}
	}
	evs := []Event{ev}
	if c.Blocking && it.HasSrc {
		// A blocking put returns once its source is read: the popa is
		// part of the same step.
		it.Val, it.Read = s.Mem(it.Src), true
		evs = append(evs, Event{Kind: KPopa, Rank: r, HasCell: true, Cell: it.Src, Trans: t, Queue: q, Item: it.Issue})
	}
	next.ci[i] = append(slices.Clip(s.ci[i]), it)
	return next, evs, nil
}

// newItem evaluates a send or recv into its item (without After).
func (m *Machine) newItem(s *XState, r, t, q int, env Env) (Item, error) {
	c := &m.p.Trans[t].Cmd
	rk, err := m.p.RankOf(c.Rank, env)
	if err != nil {
		return Item{}, err
	}
	rem, err := m.p.Address(c.Remote, env)
	if err != nil {
		return Item{}, err
	}
	it := Item{Dst: Cell{int(rk), int(rem)}, Amo: c.Amo, Epoch: s.ep[(r-1)*m.nque+q], Issue: s.np[r-1], Trans: t, After: -1, Head: -1}
	if c.Amo != AmoNone && (c.Amo != AmoAdd && !c.Amo.Bitwise() || c.Op == OpRecv) {
		return Item{}, fmt.Errorf("%v: internal error: %v with atomic %v", m.p.Trans[t].Pos, c.Op, c.Amo)
	}
	if c.Local == nil {
		if c.Op == OpRecv {
			return Item{}, fmt.Errorf("%v: internal error: recv without a local cell", m.p.Trans[t].Pos)
		}
		v, err := m.p.Value(c.Val, env)
		if err != nil {
			return Item{}, err
		}
		it.Val, it.Read = v, true
		return it, nil
	}
	loc, err := m.p.Address(c.Local, env)
	if err != nil {
		return Item{}, err
	}
	it.Src, it.HasSrc = Cell{r, int(loc)}, true
	if c.Op == OpRecv {
		it.Recv, it.Src, it.Dst = true, it.Dst, it.Src
	}
	return it, nil
}

// execAtomic is the (atomic) rule: once no send of (r, q) to rank k from
// an earlier fence epoch is undelivered and the guard holds with Reg = the
// old value, read (k, m), write the result and set Reg, in one event.
func (m *Machine) execAtomic(s *XState, r, t, q int, env Env) (*XState, []Event, error) {
	tr := &m.p.Trans[t]
	c := &tr.Cmd
	rk, err := m.p.RankOf(c.Rank, env)
	if err != nil {
		return nil, nil, err
	}
	rem, err := m.p.Address(c.Remote, env)
	if err != nil {
		return nil, nil, err
	}
	var v, cmp int64
	if c.Amo != AmoFetch {
		if v, err = m.p.Value(c.Val, env); err != nil {
			return nil, nil, err
		}
	}
	if c.Amo == AmoCSwap {
		if cmp, err = m.p.Value(c.Val2, env); err != nil {
			return nil, nil, err
		}
	}
	if c.Reg < 0 || c.Reg >= m.nregs {
		return nil, nil, fmt.Errorf("%v: internal error: register %d of %d", tr.Pos, c.Reg, m.nregs)
	}
	i := (r-1)*m.nque + q
	if s.fenced(s.ci[i], int(rk), s.ep[i]) {
		return nil, nil, errBlocked
	}
	cell := Cell{int(rk), int(rem)}
	old := s.Mem(cell)
	next := s.clone()
	next.regs[(r-1)*m.nregs+c.Reg] = old
	if c.Guard != nil {
		genv := Env{Regs: next.regs[(r-1)*m.nregs : r*m.nregs], Rank: int64(r), N: int64(m.n)}
		ok, err := m.p.Holds(c.Guard, genv)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, errBlocked
		}
	}
	ev := Event{Kind: KAmo, Rank: r, HasCell: true, Cell: cell, Trans: t, Queue: -1}
	switch c.Amo {
	case AmoAdd:
		next.mem[(cell.Rank-1)*m.nadr+cell.Addr] = m.add(next, old, v, t)
	case AmoAnd, AmoOr, AmoXor:
		next.mem[(cell.Rank-1)*m.nadr+cell.Addr] = m.bitwise(next, c.Amo, old, v, t)
	case AmoSwap:
		next.mem[(cell.Rank-1)*m.nadr+cell.Addr] = v
	case AmoCSwap:
		if old != cmp {
			ev.Kind = KAFetch
			break
		}
		next.mem[(cell.Rank-1)*m.nadr+cell.Addr] = v
	case AmoFetch:
		ev.Kind = KAFetch
	default:
		return nil, nil, fmt.Errorf("%v: internal error: atomic %v", tr.Pos, c.Amo)
	}
	return next, []Event{ev}, nil
}

// appendCtxKey encodes the context part of a state up to what its future
// cannot see. Issue indices (Item) are left out: they only name items in
// events, and two states that differ in them alone have the same
// computations up to that renaming, which maps happens-before relations
// to equal ones (↔ joins the same issue with the same pops). So the
// oracle may treat them as one state, and its memo closes loops; the
// state kept is always the one of the path explored (oracle.explorer.add),
// so the events it reports are those of a real computation. Epochs are
// encoded by their rank among the epochs of the context, since rules only
// compare them. Chains (Item.Head, the rank's current chain in last, the
// chain an After item follows) matter only through which pending sends
// share one, so a chain is encoded by where its first pending send is, or
// -1 if none is: a chain with no pending send is never waited for again
// (an After send's chain is closed, and the current chain only grows
// with sends issued later). Without Cmd.Chain every chain is one send and
// the item's own position needs no encoding.
func (s *XState) appendCtxKey(b []byte) []byte {
	for r := 1; r <= s.m.n; r++ {
		b = s.appendHeadRef(b, r, s.last[r-1])
		for q := 0; q < s.m.nque; q++ {
			if !s.m.p.IsCtx(q) {
				continue
			}
			items := s.Items(r, q)
			eps := []int{s.Epoch(r, q)}
			for _, it := range items {
				eps = append(eps, it.Epoch)
			}
			slices.Sort(eps)
			eps = slices.Compact(eps)
			rank := func(e int) int { k, _ := slices.BinarySearch(eps, e); return k }
			b = appendInts(b, rank(s.Epoch(r, q)), len(items))
			for _, it := range items {
				flags := 0
				for k, f := range []bool{it.Recv, it.HasSrc, it.Read} {
					if f {
						flags |= 1 << k
					}
				}
				b = appendInts(b, flags, it.Src.Rank, it.Src.Addr, it.Dst.Rank, it.Dst.Addr, int(it.Amo), rank(it.Epoch), it.Trans)
				b = encbin.AppendVarint(b, it.Val)
				b = s.appendHeadRef(b, r, it.After)
				if s.m.hasChain && !it.Recv {
					b = s.appendHeadRef(b, r, it.Head)
				}
			}
		}
	}
	return b
}

// appendHeadRef encodes the chain of rank r whose first send was issued
// as head by the context and position of its first pending send, or -1 if
// there is none.
func (s *XState) appendHeadRef(b []byte, r, head int) []byte {
	if q, j, ok := s.pendingHead(r, head); ok {
		return appendInts(b, q, j)
	}
	return appendInts(b, -1)
}

// bitwise is the result of a bitwise atomic on old with operand v (two's
// complement on int64, as C's). And of two values of the domain stays in
// it when both are of one sign; or and xor can leave it, which is a wrap
// as for add: the result taken into the domain (WrapValue), reported as a
// run-time error finding.
func (m *Machine) bitwise(next *XState, op AmoOp, old, v int64, t int) int64 {
	var r int64
	switch op {
	case AmoAnd:
		r = old & v
	case AmoOr:
		r = old | v
	default:
		r = old ^ v
	}
	if r > m.p.Hi() || r < m.p.Lo {
		next.wrap = &RangeError{Pos: m.p.Trans[t].Pos, What: "atomic", Val: r, Min: m.p.Lo, Max: m.p.Hi()}
	}
	return m.p.WrapValue(r)
}

// add is the arithmetic of an atomic add of transition t: old + v taken
// into the domain (WrapValue), so that every step stays executable (the
// normal form re-runs computations with events removed, Lemma 6). A
// result outside the domain is left in next.wrap for the caller to
// report: the real program holds it (a C int), X cannot.
func (m *Machine) add(next *XState, old, v int64, t int) int64 {
	sum := old + v
	if sum > m.p.Hi() || sum < m.p.Lo {
		next.wrap = &RangeError{Pos: m.p.Trans[t].Pos, What: "atomic", Val: sum, Min: m.p.Lo, Max: m.p.Hi()}
	}
	return m.p.WrapValue(sum)
}
