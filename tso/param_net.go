package tso

import (
	"encoding/binary"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/petri"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// The counter abstraction of Section 6 of tso-robustness-attacks.md. The
// copies of a replicated thread run the same code and never learn which
// copy they are, so an instance of the instrumented program P_A is fully
// described by a global part (memory, the auxiliary addresses of the
// instrumentation, the flags, the lock and the single threads) and, per
// local state of a copy (template, instrumented label, registers, whether
// it holds the lock), how many copies are in it. That is a Petri net: one
// place per global state (exactly one token among them) and one place per
// local state (one token per copy there); a move of a copy takes the tokens
// of the old global and local state and puts them on the new ones.
//
// The places and transitions are those met by a forward exploration of an
// abstraction of the net (param_abs.go) that is coarser than the net, so
// no transition that a run of the net can fire is missing.

// Layout of a global state vector.
type pLayout struct {
	nc                         int
	mem, bufSet, bufVal, level int
	hb, taken, stAddr, lock    int
	single                     []int // offset of a single thread's label (registers follow); -1 for templates
	size                       int
}

// Lock field: 0 free, 1+t held by single thread t, lockCopy held by the
// copy whose local state says so.
const lockCopy = -1

// Local state vector: template, label, holds-lock, registers.
const (
	lTmpl = iota
	lLabel
	lHolds
	lRegs
)

// pnet builds and holds the counter abstraction of one attack.
type pnet struct {
	p       *prog.Program
	a       Attack
	threads []ithread
	live    [][][]bool
	lay     pLayout

	gIndex map[string]int32
	gs     [][]int64
	gPlace []int32
	lIndex map[string]int32
	ls     [][]int64
	lPlace []int32
	kind   []int32 // per place: global index, or -1-local index

	net   petri.Net
	moves []pmove // per net transition
	bytes int64

	// The forward exploration: transitions leaving a global state (single
	// threads) and a pair of global and local state (copies), and the
	// abstract states met, by global state.
	singleFrom map[int32][]int32
	copyFrom   map[[2]int32][]int32
	reach      map[int32][][]absLocal
	absStates  int
	joinOnly   bool // explore with the join only (param_abs.go)
	cut        int8 // cut-off of the abstract counts (param_abs.go)

	trouble string // a value outside 32 bits or an address outside memory
}

// pmove says which thread moved along which instrumented transition.
type pmove struct {
	thread, trans int32
}

// paramThreads instruments every thread for attack a: the attacker (a
// single thread) as in Fig. 5, every other thread as a helper (Fig. 7).
// When the attacker is replicated, its template is both: a copy runs as a
// helper (labels 0..3L-1) until it issues the attacking store, which it may
// only do by winning a test-and-set flag; it then continues in the
// attacker's copy of the code (3L..4L-1) and waits at 4L.
func paramThreads(p *prog.Program, a Attack) []ithread {
	out := instrument(p, Attack{Thread: -1}, AttackerTSO)
	att := instrument(p, a, AttackerTSO)[a.Thread]
	if !p.Threads[a.Thread].Replicated {
		out[a.Thread] = att
		return out
	}
	L := int32(len(p.Threads[a.Thread].Labels))
	h := out[a.Thread]
	c := ithread{labels: int(4*L + 1), trans: append([]itrans(nil), h.trans...)}
	shift := func(q int32) int32 {
		if q < L {
			return q
		}
		return q + 2*L
	}
	for _, t := range att.trans {
		if t.role != rExec {
			c.trans = append(c.trans, itrans{from: shift(t.from), to: shift(t.to), role: t.role, orig: t.orig})
		}
	}
	c.index()
	out[a.Thread] = c
	return out
}

func newPNet(p *prog.Program, a Attack) *pnet {
	n := &pnet{p: p, a: a, threads: paramThreads(p, a), gIndex: map[string]int32{}, lIndex: map[string]int32{},
		singleFrom: map[int32][]int32{}, copyFrom: map[[2]int32][]int32{}, reach: map[int32][][]absLocal{}, cut: 1}
	nc := len(p.Cells)
	l := &n.lay
	l.nc = nc
	l.mem, l.bufSet, l.bufVal, l.level = 0, nc, 2*nc, 3*nc
	l.hb, l.taken, l.stAddr, l.lock = 4*nc, 4*nc+1, 4*nc+2, 4*nc+3
	l.size = 4*nc + 4
	for ti, th := range p.Threads {
		it := n.threads[ti]
		L := len(th.Labels)
		var live [][]bool
		switch {
		case it.labels == 2*L+1:
			live = liveRegs(th, it.labels, true)
		case it.labels == 4*L+1:
			live = append(liveRegs(th, 4*L, false), make([]bool, len(th.Regs)))
		default:
			live = liveRegs(th, it.labels, false)
		}
		n.live = append(n.live, live)
		if th.Replicated {
			l.single = append(l.single, -1)
			continue
		}
		l.single = append(l.single, l.size)
		l.size += 1 + len(th.Regs)
	}
	return n
}

func key(v []int64) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(x)))
	}
	return string(b)
}

// global returns the index of global state g, adding it (and its place)
// when new; fresh reports the addition.
func (n *pnet) global(g []int64) (int32, bool) {
	k := key(g)
	if i, ok := n.gIndex[k]; ok {
		return i, false
	}
	i := int32(len(n.gs))
	n.gIndex[k] = i
	n.gs = append(n.gs, append([]int64(nil), g...))
	n.gPlace = append(n.gPlace, int32(len(n.kind)))
	n.kind = append(n.kind, i)
	n.bytes += int64(len(k))*3 + 96
	return i, true
}

func (n *pnet) local(l []int64) (int32, bool) {
	k := key(l)
	if i, ok := n.lIndex[k]; ok {
		return i, false
	}
	i := int32(len(n.ls))
	n.lIndex[k] = i
	n.ls = append(n.ls, append([]int64(nil), l...))
	n.lPlace = append(n.lPlace, int32(len(n.kind)))
	n.kind = append(n.kind, -1-i)
	n.bytes += int64(len(k))*3 + 96
	return i, true
}

// bounds are the invariants of every reachable marking: one global state,
// at most one copy acting as attacker, at most one copy holding the lock.
func (n *pnet) bounds() {
	var gl, att, holds []int32
	gl = append(gl, n.gPlace...)
	L := int64(len(n.p.Threads[n.a.Thread].Labels))
	for i, l := range n.ls {
		if int(l[lTmpl]) == n.a.Thread && l[lLabel] >= 3*L {
			att = append(att, n.lPlace[i])
		}
		if l[lHolds] != 0 {
			holds = append(holds, n.lPlace[i])
		}
	}
	n.net.Bounds = []petri.PlaceBound{{Places: gl, Max: 1}, {Places: att, Max: 1}, {Places: holds, Max: 1}}
}

func (n *pnet) addTrans(pre, post []int32, thread, trans int) int32 {
	m := func(ps []int32) petri.Marking {
		out := petri.Marking{}
		for _, p := range ps {
			out = append(out, petri.PlaceCount{Place: p, Count: 1})
		}
		if len(out) == 2 && out[0].Place > out[1].Place {
			out[0], out[1] = out[1], out[0]
		}
		return out
	}
	n.net.Trans = append(n.net.Trans, petri.Transition{Pre: m(pre), Post: m(post), Label: automata.Label(len(n.moves))})
	n.moves = append(n.moves, pmove{thread: int32(thread), trans: int32(trans)})
	n.bytes += 240 // the transition, its move, its entry in a cache, map overhead
	return int32(len(n.net.Trans) - 1)
}

// singleMoves lists the transitions of single threads from global state
// gi, adding them to the net the first time.
func (n *pnet) singleMoves(gi int32) []int32 {
	if ts, ok := n.singleFrom[gi]; ok {
		return ts
	}
	var out []int32
	defer func() { n.singleFrom[gi] = out }()
	lay := &n.lay
	for ti, th := range n.p.Threads {
		off := lay.single[ti]
		if off < 0 {
			continue
		}
		g := n.gs[gi]
		if lk := g[lay.lock]; lk != 0 && lk != int64(ti+1) {
			continue
		}
		nr := len(th.Regs)
		for _, k := range n.threads[ti].out[g[off]] {
			it := &n.threads[ti].trans[k]
			g2 := append([]int64(nil), g...)
			regs := g2[off+1 : off+1+nr]
			if !n.exec(ti, it, g2, regs, nil) {
				continue
			}
			g2[off] = int64(it.to)
			clearDead(regs, n.live[ti][it.to])
			gj, _ := n.global(g2)
			if gj != gi {
				out = append(out, n.addTrans([]int32{n.gPlace[gi]}, []int32{n.gPlace[gj]}, ti, int(k)))
			}
		}
	}
	return out
}

// copyMoves lists the transitions of a copy in local state li from global
// state gi, adding them to the net the first time.
func (n *pnet) copyMoves(gi, li int32) []int32 {
	if ts, ok := n.copyFrom[[2]int32{gi, li}]; ok {
		return ts
	}
	var out []int32
	defer func() { n.copyFrom[[2]int32{gi, li}] = out }()
	g, l := n.gs[gi], n.ls[li]
	if lk := g[n.lay.lock]; lk != 0 && (lk != lockCopy || l[lHolds] == 0) {
		return nil
	}
	ti := int(l[lTmpl])
	for _, k := range n.threads[ti].out[l[lLabel]] {
		it := &n.threads[ti].trans[k]
		g2 := append([]int64(nil), g...)
		l2 := append([]int64(nil), l...)
		if !n.exec(ti, it, g2, l2[lRegs:], &l2[lHolds]) {
			continue
		}
		l2[lLabel] = int64(it.to)
		clearDead(l2[lRegs:], n.live[ti][it.to])
		gj, _ := n.global(g2)
		lj, _ := n.local(l2)
		if gj != gi || lj != li {
			out = append(out, n.addTrans([]int32{n.gPlace[gi], n.lPlace[li]}, []int32{n.gPlace[gj], n.lPlace[lj]}, ti, int(k)))
		}
	}
	return out
}

func clearDead(regs []int64, live []bool) {
	for r := range regs {
		if !live[r] {
			regs[r] = 0
		}
	}
}

// accepting is the goal of Eq. (13): the hb flag is up, the lock free, and
// a helper has accessed the address of the attacking store.
func (n *pnet) accepting(g []int64) bool {
	l := &n.lay
	return g[l.hb] != 0 && g[l.lock] == 0 && g[l.level+int(g[l.stAddr])] != lvNone
}

func (n *pnet) targets() []petri.Marking {
	var out []petri.Marking
	for i, g := range n.gs {
		if n.accepting(g) {
			out = append(out, petri.Marking{{Place: n.gPlace[i], Count: 1}})
		}
	}
	return out
}
