package race

import (
	"slices"

	"github.com/pgasrob/pgasrob/pgas"
)

// hit is the second access of a race: the event and its access.
type hit struct {
	ev  pgas.Event
	acc access
}

// after applies one step of X to s. With guess (phase 0 only, and only
// for a step with an access event), that access becomes e1. It returns
// the successor and, in phase 1, the access of the step that races with
// e1, if any.
func (m *mon) after(s *pstate, st pgas.Step, guess bool) (*pstate, *hit) {
	var ns *pstate
	if guess {
		// the places are made from the item lists before the step
		ns = m.guessed(s, classify(m.p, accessEvent(st.Events)))
	} else {
		ns = s.clone()
	}
	ns.x = st.Next
	mv := st.Move
	switch mv.Kind {
	case pgas.MoveBarrier:
		// A barrier orders its members only (Bar[r-1] < 0 for a rank
		// outside its set): once one member's next event is after e1,
		// every member's is; the other ranks are not synchronised.
		if ns.phase == 1 {
			after := false
			for i, t := range mv.Bar {
				after = after || t >= 0 && ns.rank[i]
			}
			if after {
				for i, t := range mv.Bar {
					if t >= 0 {
						ns.rank[i] = true
					}
				}
			}
		}
		return ns, nil
	case pgas.MoveCmd:
		return m.command(ns, s.x, st, guess)
	}
	return m.pop(ns, s.x, st, guess)
}

// accessEvent is the event of a step that accesses a cell, if any (the
// popa of a blocking put comes after its issue event).
func accessEvent(evs []pgas.Event) pgas.Event {
	for _, e := range evs {
		if e.HasCell {
			return e
		}
	}
	return pgas.Event{}
}

// check reports the race of access a (marked or not) with e1.
func (m *mon) check(ns *pstate, ev pgas.Event, marked bool) *hit {
	if ns.phase != 1 || marked {
		return nil
	}
	a := classify(m.p, ev)
	if !conflict(ns.e1, a) {
		return nil
	}
	return &hit{ev: ev, acc: a}
}

// write updates the release-sequence bit of the cell written by e.
func (m *mon) write(ns *pstate, e pgas.Event, marked bool) {
	if ns.phase != 1 {
		return
	}
	c := m.cellIdx(e.Cell)
	if hidden(m.p, e.Cell.Addr) {
		ns.rel[c] = marked
		return
	}
	a := classify(m.p, e)
	switch {
	case a.atomic && a.rmw:
		ns.rel[c] = ns.rel[c] || marked
	case a.atomic:
		ns.rel[c] = marked
	default:
		ns.rel[c] = false
	}
}

// observes reports whether e is an atomic read that synchronises with the
// release sequence it reads from: an await (on any cell), a fetching
// atomic.
func (m *mon) observes(e pgas.Event) bool {
	switch e.Kind {
	case pgas.KLoad:
		return e.Trans >= 0 && m.p.Trans[e.Trans].Cmd.Guard != nil
	case pgas.KAmo, pgas.KAFetch:
		return true
	}
	return false
}

// command is a step of one rank's command.
func (m *mon) command(ns *pstate, prev *pgas.XState, st pgas.Step, guess bool) (*pstate, *hit) {
	r := st.Move.Rank
	tr := &m.p.Trans[st.Move.Trans]
	op := tr.Cmd.Op
	ev := st.Events[0]
	marked := ns.phase == 1 && ns.rank[r-1]
	if ns.phase == 1 {
		switch q := m.queueConst[st.Move.Trans]; op {
		case pgas.OpQuiet:
			marked = marked || ns.quietM[m.rq(r, q)]
		case pgas.OpAtomic:
			marked = marked || ns.fm[m.rqk(r, q, ev.Cell.Rank)]
		}
		if ev.HasCell && m.observes(ev) {
			marked = marked || ns.rel[m.cellIdx(ev.Cell)]
		}
	}
	var h *hit
	if ev.HasCell {
		marked = marked || guess
		h = m.check(ns, ev, marked)
		if ev.Kind.IsWrite() {
			m.write(ns, ev, marked)
		}
	}
	switch op {
	case pgas.OpSend, pgas.OpRecv:
		q := m.queueConst[st.Move.Trans]
		items := ns.x.Items(r, q)
		it := items[len(items)-1]
		if len(st.Events) > 1 { // a blocking put: its popa is this step's access
			pe := st.Events[1]
			marked = marked || guess
			if h == nil {
				h = m.check(ns, pe, marked)
			}
		}
		var bits uint8
		if marked {
			bits = bitPopa | bitPopb
		}
		if !it.Recv {
			if it.After >= 0 && it.After == ns.head[r-1] && ns.phase == 1 && ns.chain[r-1] {
				bits |= bitPopb
			}
			if ns.phase == 1 && ns.fm[m.rqk(r, q, it.Dst.Rank)] {
				bits |= bitPopb
			}
			if it.Head == it.Issue {
				ns.head = slices.Clone(ns.head) // shared with the state before
				ns.head[r-1] = it.Issue
				if ns.phase == 1 {
					ns.chain[r-1] = false
				}
			}
		}
		if ns.phase == 1 {
			i := m.rq(r, q)
			ns.ci[i] = append(ns.ci[i], bits)
		}
	case pgas.OpRead, pgas.OpWrite:
		if ns.phase == 1 {
			for q := 0; q < m.nq; q++ {
				if len(ns.x.FA(r, q)) > len(prev.FA(r, q)) {
					i := m.rq(r, q)
					var bits uint8
					if marked {
						bits = bitPopa | bitPopb
					}
					ns.fa[i] = append(ns.fa[i], bits)
				}
			}
		}
	case pgas.OpFence:
		if ns.phase == 1 {
			q := m.queueConst[st.Move.Trans]
			for k := 1; k <= m.n; k++ {
				j := m.rqk(r, q, k)
				ns.fm[j] = ns.fm[j] || ns.fc[j]
				ns.fc[j] = false
			}
		}
	}
	if ns.phase == 1 {
		ns.rank[r-1] = marked
	}
	return ns, h
}

// pop is a popa or popb step.
func (m *mon) pop(ns *pstate, prev *pgas.XState, st pgas.Step, guess bool) (*pstate, *hit) {
	mv, ev := st.Move, st.Events[0]
	r, q := mv.Rank, mv.Queue
	i := m.rq(r, q)
	if !m.p.IsCtx(q) {
		return m.popFIFO(ns, st, guess)
	}
	items := prev.Items(r, q)
	j := slices.IndexFunc(items, func(it pgas.Item) bool { return it.Issue == mv.Item })
	it := items[j]
	var bits uint8
	if ns.phase == 1 {
		bits = ns.ci[i][j]
	}
	if mv.Kind == pgas.MovePopa {
		marked := bits&bitPopa != 0 || guess
		h := m.check(ns, ev, marked)
		if ns.phase == 1 && marked {
			own(ns.ci, i)[j] |= bitPopb
			ns.quietM[i] = true
		}
		return ns, h
	}
	marked := bits&bitPopb != 0 || guess
	h := m.check(ns, ev, marked)
	m.write(ns, ev, marked)
	if ns.phase != 1 {
		return ns, h
	}
	ns.ci[i] = slices.Delete(own(ns.ci, i), j, j+1)
	if !marked {
		return ns, h
	}
	ns.quietM[i] = true
	if it.Recv {
		return ns, h
	}
	// fence order: later-epoch sends of (r, q) to the same rank
	k := it.Dst.Rank
	owned := false
	for jj, o := range ns.x.Items(r, q) {
		if !o.Recv && o.Dst.Rank == k && o.Epoch > it.Epoch {
			if !owned {
				own(ns.ci, i)
				owned = true
			}
			ns.ci[i][jj] |= bitPopb
		}
	}
	if it.Epoch < ns.x.Epoch(r, q) {
		ns.fm[m.rqk(r, q, k)] = true
	} else {
		ns.fc[m.rqk(r, q, k)] = true
	}
	// put-with-signal: the signals that follow this send's chain
	for qq := 0; qq < m.nq; qq++ {
		owned := false
		for jj, o := range ns.x.Items(r, qq) {
			if !o.Recv && o.After == it.Head {
				if !owned {
					own(ns.ci, m.rq(r, qq))
					owned = true
				}
				ns.ci[m.rq(r, qq)][jj] |= bitPopb
			}
		}
	}
	if it.Head == ns.head[r-1] {
		ns.chain[r-1] = true
	}
	return ns, h
}

// popFIFO is a popa or popb on a FIFO queue of the calculus.
func (m *mon) popFIFO(ns *pstate, st pgas.Step, guess bool) (*pstate, *hit) {
	mv, ev := st.Move, st.Events[0]
	i := m.rq(mv.Rank, mv.Queue)
	if mv.Kind == pgas.MovePopa {
		marked := guess
		var bits uint8
		if ns.phase == 1 {
			bits = ns.fa[i][0]
			marked = marked || bits&bitPopa != 0 || ns.faM[i]
		}
		h := m.check(ns, ev, marked)
		if ns.phase == 1 {
			ns.fa[i] = ns.fa[i][1:]
			nb := bits & bitPopb
			if marked {
				nb = bitPopb
				ns.faM[i] = true
			}
			ns.fb[i] = append(ns.fb[i], nb)
		}
		return ns, h
	}
	marked := guess
	if ns.phase == 1 {
		marked = marked || ns.fb[i][0]&bitPopb != 0 || ns.fbM[i]
	}
	h := m.check(ns, ev, marked)
	m.write(ns, ev, marked)
	if ns.phase == 1 {
		ns.fb[i] = ns.fb[i][1:]
		if marked {
			ns.fbM[i] = true
		}
	}
	return ns, h
}
