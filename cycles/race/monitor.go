package race

import (
	"slices"

	"github.com/pgasrob/pgasrob/pgas"
)

// The monitor: a state of X with, once the first access of a race has
// been guessed, one bit per place through which api_hb reaches later
// events, saying whether what happens there next is api_hb-after the
// guessed access ("marked"). Every edge of api_hb points forward in the
// computation, so the bit of an event is known when it happens: it is the
// disjunction of the bits of the places its direct predecessors left.

// Bits of a pending operation.
const (
	bitPopa = 1 // its popa is marked (its issue was)
	bitPopb = 2 // its popb is marked (issue, popa, an earlier-epoch delivery, its chain)
)

// pstate is a state of the product of X and the monitor.
type pstate struct {
	x     *pgas.XState
	phase uint8 // 0 no access guessed, 1 guessed (e1 set), 2 race found (accepting)
	e1    access
	// the places, once phase >= 1
	rank   []bool    // rank r's next event (index r-1): program order, local completion, barriers
	ci     [][]uint8 // per (r, q) of a context: bits of its items, in the order of XState.Items
	fa, fb [][]uint8 // per FIFO (r, q): bits of the requests of fa and of the transfers of fb
	faM    []bool    // per FIFO (r, q): a marked popa happened (FIFO order of popas)
	fbM    []bool    // per FIFO (r, q): a marked popb happened
	quietM []bool    // per context (r, q): a marked pop of one of its items happened
	fm, fc []bool    // per (r, q, k): a marked delivery of a send to k in an earlier epoch / in the current one
	chain  []bool    // per rank: a marked delivery of its current chain happened
	head   []int     // per rank: the Issue of its current chain's first send (not in the key)
	rel    []bool    // per cell: the release sequence of its current value holds a marked atomic write
}

// mon holds what the monitor needs of the program.
type mon struct {
	p          *pgas.Program
	n          int
	nq, na     int
	queueConst []int // per transition: the constant queue of a context command, else -1
	// rmaAddr[a]: some RMA access (a pop or a fetching atomic) may touch
	// address a, on some rank: a's address is the Local or Remote of a
	// remote operation, or one of them is not a constant.
	rmaAddr []bool
	localQ  []bool          // per control state: reduce.go
	tmpls   [][]tmpl        // per transition: the accesses it may make (future.go)
	fut     map[futKey]bool // rankMayRace's memo
}

func newMon(p *pgas.Program, n int) *mon {
	m := &mon{p: p, n: n, nq: len(p.Queues), na: len(p.Addrs), queueConst: make([]int, len(p.Trans)), rmaAddr: make([]bool, len(p.Addrs)), localQ: localStates(p),
		tmpls: make([][]tmpl, len(p.Trans)), fut: map[futKey]bool{}}
	for t := range p.Trans {
		m.tmpls[t] = templates(p, t)
		m.queueConst[t] = -1
		c := p.Trans[t].Cmd
		if c.Op.IsCtxOp() && c.Queue != nil {
			if v, ok := c.Queue.Const(); ok {
				m.queueConst[t] = int(v)
			}
		}
		switch c.Op {
		case pgas.OpRead, pgas.OpWrite, pgas.OpSend, pgas.OpRecv, pgas.OpAtomic:
			m.markRMA(c.Local)
			m.markRMA(c.Remote)
		}
	}
	return m
}

// markRMA records that the address e names may be touched by an RMA
// access: every address when e is not a constant.
func (m *mon) markRMA(e *pgas.Expr) {
	if e == nil {
		return
	}
	if v, ok := e.Const(); ok && v >= 0 && int(v) < len(m.rmaAddr) {
		m.rmaAddr[v] = true
		return
	}
	for a := range m.rmaAddr {
		m.rmaAddr[a] = true
	}
}

// mayRace reports whether access a can be the first of a race: a race
// needs an RMA access among its two (conflict), so a plain access to a
// cell no RMA access can touch races with nothing, and guessing it
// would only grow the product.
func (m *mon) mayRace(a access) bool {
	return a.ok && (a.rma || m.rmaAddr[a.cell.Addr])
}

func (m *mon) rq(r, q int) int         { return (r-1)*m.nq + q }
func (m *mon) rqk(r, q, k int) int     { return ((r-1)*m.nq+q)*m.n + k - 1 }
func (m *mon) cellIdx(c pgas.Cell) int { return (c.Rank-1)*m.na + c.Addr }

// guessed turns a phase-0 state (which has no places) into a phase-1
// state with every place unmarked.
func (m *mon) guessed(s *pstate, e1 access) *pstate {
	ns := &pstate{x: s.x, phase: 1, e1: e1,
		rank: make([]bool, m.n), ci: make([][]uint8, m.n*m.nq), fa: make([][]uint8, m.n*m.nq), fb: make([][]uint8, m.n*m.nq),
		faM: make([]bool, m.n*m.nq), fbM: make([]bool, m.n*m.nq), quietM: make([]bool, m.n*m.nq),
		fm: make([]bool, m.n*m.nq*m.n), fc: make([]bool, m.n*m.nq*m.n), chain: make([]bool, m.n), head: slices.Clone(s.head),
		rel: make([]bool, m.n*m.na)}
	for r := 1; r <= m.n; r++ {
		for q := 0; q < m.nq; q++ {
			i := m.rq(r, q)
			ns.ci[i] = make([]uint8, len(s.x.Items(r, q)))
			ns.fa[i] = make([]uint8, len(s.x.FA(r, q)))
			ns.fb[i] = make([]uint8, len(s.x.FB(r, q)))
		}
	}
	return ns
}

func (s *pstate) clone() *pstate {
	c := *s
	if s.phase == 0 {
		return &c // head is shared: a step that changes it copies it
	}
	// One allocation for the eight bool vectors, and the item lists shared
	// with s until a step writes one (own): a successor differs from its
	// state in one or two places, and the copies were half of the cost of
	// a product state.
	bs := [...]*[]bool{&c.rank, &c.faM, &c.fbM, &c.quietM, &c.fm, &c.fc, &c.chain, &c.rel}
	total := 0
	for _, p := range bs {
		total += len(*p)
	}
	buf := make([]bool, 0, total)
	for _, p := range bs {
		k := len(buf)
		buf = append(buf, *p...)
		*p = buf[k:len(buf):len(buf)]
	}
	k := len(s.ci)
	lists := make([][]uint8, 0, 3*k)
	c.ci, lists = shareLists(lists, s.ci)
	c.fa, lists = shareLists(lists, s.fa)
	c.fb, _ = shareLists(lists, s.fb)
	return &c
}

// shareLists appends to buf the lists of l, shared, clipped so that an
// append makes a copy, and returns them as a slice of buf (and buf). A
// step that writes into a list in place first takes its own copy with own.
func shareLists(buf, l [][]uint8) ([][]uint8, [][]uint8) {
	k := len(buf)
	for _, x := range l {
		buf = append(buf, x[:len(x):len(x)])
	}
	return buf[k:len(buf):len(buf)], buf
}

// own replaces l[i] by a copy of it, before a write in place (|=,
// slices.Delete): the original may be shared with the state it was cloned
// from.
func own(l [][]uint8, i int) []uint8 {
	l[i] = slices.Clone(l[i])
	return l[i]
}

// appendKey appends the product state's identity to b: X's key and the
// places in X's order of items (issue indices are not part of it, as in
// XState.Key).
func (m *mon) appendKey(b []byte, s *pstate) []byte {
	b = s.x.AppendKey(b)
	b = append(b, '|', s.phase)
	if s.phase == 0 {
		return b
	}
	e := s.e1
	b = append(b, byte(e.cell.Rank), byte(e.cell.Addr), byte(e.cell.Addr>>8), flags(e.write, e.rma, e.atomic))
	bools := func(xs []bool) {
		var acc, nb byte
		for _, x := range xs {
			if x {
				acc |= 1 << nb
			}
			if nb++; nb == 8 {
				b, acc, nb = append(b, acc), 0, 0
			}
		}
		b = append(b, acc)
	}
	for _, xs := range [][]bool{s.rank, s.faM, s.fbM, s.quietM, s.fm, s.fc, s.chain, s.rel} {
		bools(xs)
	}
	for r := 1; r <= m.n; r++ {
		for q := 0; q < m.nq; q++ {
			i := m.rq(r, q)
			b = append(b, ':')
			for j, it := range s.x.Items(r, q) {
				v := s.ci[i][j]
				if !it.Recv && it.Head == s.head[r-1] {
					v |= 4
				}
				b = append(b, v)
			}
			b = append(b, ';')
			b = append(b, s.fa[i]...)
			b = append(b, ';')
			b = append(b, s.fb[i]...)
		}
	}
	return b
}

func flags(xs ...bool) byte {
	var v byte
	for i, x := range xs {
		if x {
			v |= 1 << i
		}
	}
	return v
}

// allMarked reports whether every rank's next event is marked, and so is
// every pending pop (the popa and popb of each context item, the popa of
// each FIFO request and the popb of each transfer). Marks only spread (an
// event is marked when one of its direct api_hb predecessors' places is),
// a marked rank issues marked items, and a race needs an unmarked access
// after e1; so no computation from such a state has one.
func (m *mon) allMarked(s *pstate) bool {
	if slices.Contains(s.rank, false) {
		return false
	}
	for i := range s.ci {
		for _, b := range s.ci[i] {
			if b != bitPopa|bitPopb {
				return false
			}
		}
		for _, b := range s.fa[i] {
			if b&bitPopa == 0 && !s.faM[i] {
				return false
			}
		}
		for _, b := range s.fb[i] {
			if b&bitPopb == 0 && !s.fbM[i] {
				return false
			}
		}
	}
	return true
}

// done reports whether a phase-1 state can no longer reach a race, and
// the search need not go on from it: every place is marked (allMarked),
// or no unmarked rank or pending pop can still make an access that
// conflicts with e1 (future.go).
func (m *mon) done(s *pstate) bool {
	if s.phase != 1 {
		return false
	}
	if m.allMarked(s) {
		return true
	}
	for r := 1; r <= m.n; r++ {
		if !s.rank[r-1] && m.rankMayRace(r, s.x.Control(r), s.e1) {
			return false
		}
	}
	return !m.pendingMayRace(s)
}
