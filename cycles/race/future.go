package race

import "github.com/pgasrob/pgasrob/pgas"

// A stopping rule stronger than "every place is marked": a phase-1 state
// is given up when no access that can still happen unmarked can conflict
// with e1. The monitor accepts only at an unmarked access that conflicts
// with e1 (check), and every later event comes from one of these sources:
//
//   - a command of rank r: marked when rank r's place is (the place is
//     never cleared), else a transition reachable from st(r) in the
//     program's control-flow graph;
//   - a pop of an item or request pending now: its cells and kind are in
//     the state, its marks in the places (bits only gain marks);
//   - a pop of an operation issued later by rank r: marked when rank r's
//     place is marked at the issue (the item gets both bits), else issued
//     by a transition reachable from st(r).
//
// So a state none of whose unmarked sources can yield an access that
// conflicts with e1 (one cell, a write among them, an RMA access among
// them, not both atomic) accepts on no path, and the search may drop it.
// The control-flow graph over-approximates what a rank can still do
// (guards are ignored, and assumes unless their condition reads no
// register and is false for the rank: a branch "if rank == 2" is dead for
// rank 1; addresses and ranks that depend on a register may be any), so
// the rule only drops states that cannot reach a race. Applied to the
// state right after a guess, it also drops the guesses of accesses that
// nothing left can race with.

// tmpl is an access a transition may make, before evaluation: the cell's
// rank is the executing rank (own) or the value of rank; the address is
// the value of addr (any, when it reads a register).
type tmpl struct {
	own        bool
	rank, addr *pgas.Expr
	write, rma bool
	atomic     bool // the access is always atomic
}

// templates lists the accesses transition t may make, as classify would
// classify its events (load, store; the popa and popb of reads, writes,
// sends and recvs; the one event of a fetching atomic).
func templates(p *pgas.Program, t int) []tmpl {
	c := &p.Trans[t].Cmd
	local := func(e *pgas.Expr, write bool) tmpl { return tmpl{own: true, addr: e, write: write, rma: true} }
	remote := func(write bool) tmpl { return tmpl{rank: c.Rank, addr: c.Remote, write: write, rma: true} }
	switch c.Op {
	case pgas.OpLoad:
		return []tmpl{{own: true, addr: c.Addr, atomic: c.Guard != nil}}
	case pgas.OpStore:
		return []tmpl{{own: true, addr: c.Addr, write: true}}
	case pgas.OpRead, pgas.OpRecv:
		return []tmpl{remote(false), local(c.Local, true)}
	case pgas.OpWrite:
		return []tmpl{local(c.Local, false), remote(true)}
	case pgas.OpSend:
		w := remote(true)
		w.atomic = atomicSend(p, t)
		if c.Local == nil {
			return []tmpl{w}
		}
		return []tmpl{local(c.Local, false), w}
	case pgas.OpAtomic:
		// a failing compare-and-swap only reads: taking it as a write
		// can only keep more states
		w := remote(true)
		w.atomic = true
		return []tmpl{w}
	case pgas.OpAssign, pgas.OpAssume, pgas.OpBarrier, pgas.OpFence, pgas.OpQuiet:
		return nil
	}
	// a command this file does not know: any access to any cell
	return []tmpl{{write: true, rma: true}}
}

// staticVal is the value of e for rank r of n when it reads no register.
func staticVal(e *pgas.Expr, r, n int) (int64, bool) {
	if e == nil {
		return 0, false
	}
	for _, in := range e.Code {
		if in.Op == pgas.XReg {
			return 0, false
		}
	}
	v, err := e.Eval(pgas.Env{Rank: int64(r), N: int64(n)})
	return v, err == nil
}

// mayConflict reports whether access template t, made by rank r, can be
// an access that conflicts with e1.
func (m *mon) mayConflict(e1 access, t tmpl, r int) bool {
	k := int64(r)
	if !t.own {
		v, ok := staticVal(t.rank, r, m.n)
		if !ok {
			k = int64(e1.cell.Rank) // any rank
		} else {
			k = v
		}
	}
	if k != int64(e1.cell.Rank) {
		return false
	}
	if a, ok := staticVal(t.addr, r, m.n); ok && a != int64(e1.cell.Addr) {
		return false
	}
	return conflict(e1, access{ok: true, cell: e1.cell, write: t.write, rma: t.rma, atomic: t.atomic})
}

type futKey struct {
	r, q int
	e1   access
}

// rankMayRace reports whether rank r, at control state q and unmarked,
// can still make an access that conflicts with e1 (itself or through an
// operation it issues), by the transitions reachable from q. Memoised.
func (m *mon) rankMayRace(r, q int, e1 access) bool {
	k := futKey{r, q, e1}
	if v, ok := m.fut[k]; ok {
		return v
	}
	seen := make([]bool, len(m.p.Labels))
	seen[q] = true
	stack := []int{q}
	res := false
	for len(stack) > 0 && !res {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range m.p.Out[u] {
			if c := &m.p.Trans[t].Cmd; c.Op == pgas.OpAssume {
				// a condition on the rank and N alone (if rank == 2)
				// is false for rank r for ever: the branch is dead
				if v, ok := staticVal(c.Val, r, m.n); ok && v == 0 {
					continue
				}
			}
			for _, tp := range m.tmpls[t] {
				if m.mayConflict(e1, tp, r) {
					res = true
				}
			}
			if v := m.p.Trans[t].To; !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	m.fut[k] = res
	return res
}

// popAccess is the access of a pending pop on cell c.
func (m *mon) popAccess(c pgas.Cell, write, atomic bool) access {
	return access{ok: !hidden(m.p, c.Addr), cell: c, write: write, rma: true, atomic: atomic}
}

// pendingMayRace reports whether a pop pending in s can still happen
// unmarked and conflict with e1.
func (m *mon) pendingMayRace(s *pstate) bool {
	e1 := s.e1
	for r := 1; r <= m.n; r++ {
		for q := 0; q < m.nq; q++ {
			i := m.rq(r, q)
			for j, it := range s.x.Items(r, q) {
				b := s.ci[i][j]
				if !it.Read && b&bitPopa == 0 && conflict(e1, m.popAccess(it.Src, false, false)) {
					return true
				}
				if b&bitPopb == 0 && conflict(e1, m.popAccess(it.Dst, true, atomicSend(m.p, it.Trans))) {
					return true
				}
			}
			for j, rq := range s.x.FA(r, q) {
				b := s.fa[i][j]
				aM := b&bitPopa != 0 || s.faM[i]
				if !aM && conflict(e1, m.popAccess(rq.Src, false, false)) {
					return true
				}
				if !aM && b&bitPopb == 0 && !s.fbM[i] && conflict(e1, m.popAccess(rq.Dst, true, false)) {
					return true
				}
			}
			for j, tr := range s.x.FB(r, q) {
				if s.fb[i][j]&bitPopb == 0 && !s.fbM[i] && conflict(e1, m.popAccess(tr.Dst, true, false)) {
					return true
				}
			}
		}
	}
	return false
}

// guessUseless reports, before the guessed state is built, that guessing
// the access of step st as e1 can lead to no race: the rule above with
// every place unmarked but the guessing rank's after a command (the
// guess marks it). Places that the guess also marks (the step's own
// item, fence and chain successors of a guessed delivery) count as
// unmarked here, which can only keep a guess: the full rule then decides.
func (m *mon) guessUseless(st pgas.Step, e1 access) bool {
	x := st.Next
	for r := 1; r <= m.n; r++ {
		if st.Move.Kind == pgas.MoveCmd && st.Move.Rank == r {
			continue
		}
		if m.rankMayRace(r, x.Control(r), e1) {
			return false
		}
	}
	for r := 1; r <= m.n; r++ {
		for q := 0; q < m.nq; q++ {
			for _, it := range x.Items(r, q) {
				if !it.Read && conflict(e1, m.popAccess(it.Src, false, false)) ||
					conflict(e1, m.popAccess(it.Dst, true, atomicSend(m.p, it.Trans))) {
					return false
				}
			}
			for _, rq := range x.FA(r, q) {
				if conflict(e1, m.popAccess(rq.Src, false, false)) || conflict(e1, m.popAccess(rq.Dst, true, false)) {
					return false
				}
			}
			for _, tr := range x.FB(r, q) {
				if conflict(e1, m.popAccess(tr.Dst, true, false)) {
					return false
				}
			}
		}
	}
	return true
}
