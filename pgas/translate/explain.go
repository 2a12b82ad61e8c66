package translate

import (
	"github.com/pgasrob/pgasrob/pgas"
)

// Cause names a difference between X(P, N) and its translation: a
// behaviour of PGAS that the framework program cannot show
// (docs/translate.md, "Where the routes differ").
type Cause string

const (
	// CauseDelayedSource: a popa comes after a later command of its rank.
	// The framework loads a source when the operation is issued; it
	// cannot delay a load.
	CauseDelayedSource Cause = "delayed-source"
	// CauseOwnRead: a rank reads a cell (a load, or the source of its own
	// operation) while one of its own operations still has to write it.
	// A framework thread reads its own buffered stores.
	CauseOwnRead Cause = "own-read"
	// CauseLocalStore: a rank stores to a cell while one of its
	// operations is still in flight, and either another rank can reach
	// the cell (the framework's sfence after the store waits for every
	// buffered store) or the operation writes the same cell (one
	// per-address buffer keeps the two in issue order).
	CauseLocalStore Cause = "local-store"
	// CauseWait: a wait passes while another operation of the rank is in
	// flight. The framework has only sfence to wait with.
	CauseWait Cause = "wait"
	// CauseStoreOrder: two operations of a rank write in the other order
	// than issued, where the framework keeps them in order: the same
	// destination (one per-address buffer), or the earlier one's
	// destination is in the queue fence of the later one.
	CauseStoreOrder Cause = "store-order"
	// CauseFenceBarrier: an operation is still in flight at a barrier of
	// its rank, and a later operation of the rank has a queue fence over
	// its destination before that barrier. The fence moved its store into
	// the all-addresses buffer, which is FIFO, so the barrier's flag store
	// lands after it and the barrier waits for it: the "total ordering of
	// different buffers" the framework paper mentions.
	CauseFenceBarrier Cause = "fence-barrier"
	// CauseAtomicity: the cycle only closes because PGAS identifies an
	// operation with its two pops (↔): it enters the operation at its
	// popb and leaves at its popa. A framework operation is a load
	// followed by a store, two actions that an SC run may separate.
	CauseAtomicity Cause = "atomicity"
	// CauseUnexplained: none of the above; the framework should have
	// the violation. A bug, in the translation or in a checker.
	CauseUnexplained Cause = "unexplained"
)

// Causes lists the documented causes in the order Explain tries them.
var Causes = []Cause{CauseDelayedSource, CauseOwnRead, CauseLocalStore, CauseWait, CauseStoreOrder, CauseFenceBarrier, CauseAtomicity}

// op is one remote operation of a computation and where its events are.
type op struct {
	rank, cmd, popa, popb int // event indices; -1 if not in the prefix
	queue                 int
	src, dst              pgas.Cell
}

// Explain names why the translation of (p, n) misses a violating
// computation evs of X(P, N): the first documented difference, in the
// order of Causes, that the computation still uses once it is made as
// little relaxed as it can be while it stays a violating computation
// (Derelax), in its shortest violating prefix. It looks at this one
// computation; another violation of the program may need other
// relaxations.
func Explain(p *pgas.Program, n int, evs []pgas.Event) Cause {
	t := &translator{p: p, n: n, res: &Result{N: n, Origins: make([][]Origin, n)}}
	t.analyse()
	evs = Derelax(p, n, evs)
	evs = evs[:violatingPrefix(evs)]
	h := pgas.HappensBefore(evs)
	ops := opsOf(t, evs, h)
	switch {
	case delayedSource(evs, ops):
		return CauseDelayedSource
	case ownRead(evs, ops):
		return CauseOwnRead
	case localStore(t, evs, ops):
		return CauseLocalStore
	case waitInFlight(t, evs, ops):
		return CauseWait
	case storeOrder(t, ops):
		return CauseStoreOrder
	case fenceBarrier(t, evs, ops):
		return CauseFenceBarrier
	case !splitCyclic(evs, h, ops):
		return CauseAtomicity
	}
	return CauseUnexplained
}

// Derelax moves, one operation at a time, each popa right behind its
// command and then each popb right behind its popa, keeping a move only
// if the result is still a computation of X(P, N) (pgas.ReplayPrefix) and
// still violating. What is left delayed is delayed for the violation's
// sake, as far as this greedy search can tell.
func Derelax(p *pgas.Program, n int, evs []pgas.Event) []pgas.Event {
	t := &translator{p: p, n: n}
	t.analyse()
	for pass := 0; pass < 2; pass++ {
		for changed := true; changed; {
			changed = false
			for _, o := range opsOf(t, evs, pgas.HappensBefore(evs)) {
				from, to := o.popa, o.cmd+1
				if pass == 1 {
					from, to = o.popb, o.popa+1
				}
				if from < 0 || to <= 0 || from <= to {
					continue
				}
				cand := moveEvent(evs, from, to)
				if _, err := pgas.ReplayPrefix(p, n, cand); err == nil && pgas.HappensBefore(cand).Violating() {
					evs, changed = cand, true
					break
				}
			}
		}
	}
	return evs
}

// moveEvent returns a copy of evs with event from moved to index to < from.
func moveEvent(evs []pgas.Event, from, to int) []pgas.Event {
	out := make([]pgas.Event, 0, len(evs))
	out = append(out, evs[:to]...)
	out = append(out, evs[from])
	out = append(out, evs[to:from]...)
	return append(out, evs[from+1:]...)
}

// violatingPrefix is the length of the shortest violating prefix (all of
// evs if none is).
func violatingPrefix(evs []pgas.Event) int {
	for k := 1; k < len(evs); k++ {
		if pgas.HappensBefore(evs[:k]).Violating() {
			return k
		}
	}
	return len(evs)
}

// opsOf pairs every user operation with its pops (pgas.EventID names a
// pop by its command); the hidden reads of waits are left out, as the
// translation drops them.
func opsOf(t *translator, evs []pgas.Event, h *pgas.HB) []op {
	type key struct{ rank, seq int }
	at := map[key]int{}
	var ops []op
	for i, e := range evs {
		if e.Kind != pgas.KRead && e.Kind != pgas.KWrite {
			continue
		}
		if !t.isOp(&t.p.Trans[e.Trans].Cmd) {
			continue
		}
		id := h.ID(i)
		at[key{id.Rank, id.Seq}] = len(ops)
		ops = append(ops, op{rank: e.Rank, cmd: i, popa: -1, popb: -1, queue: e.Queue})
	}
	for i, e := range evs {
		if !e.Kind.IsPop() {
			continue
		}
		id := h.ID(i)
		j, ok := at[key{id.Rank, id.Seq}]
		if !ok {
			continue
		}
		if e.Kind == pgas.KPopa {
			ops[j].popa, ops[j].src = i, e.Cell
		} else {
			ops[j].popb, ops[j].dst = i, e.Cell
		}
	}
	return ops
}

// inFlight reports whether o was issued before event i and has not
// written its destination by then.
func (o op) inFlight(i int) bool { return o.cmd < i && (o.popb < 0 || o.popb > i) }

func delayedSource(evs []pgas.Event, ops []op) bool {
	for _, o := range ops {
		if o.popa < 0 {
			continue
		}
		for i := o.cmd + 1; i < o.popa; i++ {
			if evs[i].Rank == o.rank && !evs[i].Kind.IsPop() {
				return true
			}
		}
	}
	return false
}

func ownRead(evs []pgas.Event, ops []op) bool {
	for i, e := range evs {
		if !e.Kind.IsRead() {
			continue
		}
		for _, o := range ops {
			// An operation reading its own destination is one load and
			// one store in the framework: that is atomicity, not this.
			if o.rank == e.Rank && o.popb > i && o.cmd < i && o.dst == e.Cell && o.popa != i {
				return true
			}
		}
	}
	return false
}

func localStore(t *translator, evs []pgas.Event, ops []op) bool {
	for i, e := range evs {
		if e.Kind != pgas.KStore || t.p.Shadow[e.Cell.Addr] {
			continue
		}
		for _, o := range ops {
			if o.rank == e.Rank && o.inFlight(i) && (t.seen[e.Cell.Addr] || o.popb > i && o.dst == e.Cell) {
				return true
			}
		}
	}
	return false
}

func waitInFlight(t *translator, evs []pgas.Event, ops []op) bool {
	for i, e := range evs {
		if e.Kind != pgas.KLoad || t.p.Trans[e.Trans].Cmd.Guard == nil {
			continue
		}
		for _, o := range ops {
			if o.rank == e.Rank && o.inFlight(i) {
				return true
			}
		}
	}
	return false
}

func storeOrder(t *translator, ops []op) bool {
	for _, a := range ops {
		for _, b := range ops {
			if a.rank != b.rank || a.cmd >= b.cmd || b.popb < 0 || a.popb >= 0 && a.popb < b.popb {
				continue
			}
			// b wrote before a (or a never did within the prefix).
			if a.popb < 0 {
				continue // a's destination is not known
			}
			d := Global(t.p, a.dst.Rank, a.dst.Addr)
			if a.dst == b.dst || contains(t.dests(b.rank, b.queue), d) && len(t.dests(b.rank, b.queue)) > 1 {
				return true
			}
		}
	}
	return false
}

func fenceBarrier(t *translator, evs []pgas.Event, ops []op) bool {
	for i, e := range evs {
		if e.Kind != pgas.KBar {
			continue
		}
		for _, a := range ops {
			if a.rank != e.Rank || a.cmd > i || a.popb < i {
				continue // not in flight across the barrier (or never landing)
			}
			d := Global(t.p, a.dst.Rank, a.dst.Addr)
			for _, b := range ops {
				fence := t.dests(b.rank, b.queue)
				if b.rank == a.rank && a.cmd < b.cmd && b.cmd < i && len(fence) > 1 && contains(fence, d) {
					return true
				}
			}
		}
	}
	return false
}

// splitCyclic reports whether the computation still has a cycle when every
// operation is split the way the framework runs it: the command, its popa
// (the load) and its popb (the store) in program order, each its own node.
// Barrier events stay one node, as the central barrier of the translation
// orders every event before it before every event after it.
func splitCyclic(evs []pgas.Event, h *pgas.HB, ops []op) bool {
	node := make([]int, len(evs))
	for i, e := range evs {
		node[i] = i
		if e.Kind == pgas.KBar {
			node[i] = len(evs) + h.Class[i]
		}
	}
	succ := map[int][]int{}
	add := func(a, b int) {
		if a >= 0 && b >= 0 && node[a] != node[b] {
			succ[node[a]] = append(succ[node[a]], node[b])
		}
	}
	after := map[int]op{}
	for _, o := range ops {
		after[o.cmd] = o
	}
	for _, e := range h.Edges {
		add(e.From, e.To)
		if o, ok := after[e.From]; ok && e.Rel == pgas.RelPO {
			add(o.popa, e.To)
			add(o.popb, e.To)
		}
	}
	for _, o := range ops {
		add(o.cmd, o.popa)
		add(o.popa, o.popb)
		add(o.cmd, o.popb)
	}
	return hasCycle(succ)
}

func hasCycle(succ map[int][]int) bool {
	const (
		white = iota
		grey
		black
	)
	color := map[int]int{}
	var visit func(v int) bool
	visit = func(v int) bool {
		color[v] = grey
		for _, w := range succ[v] {
			switch color[w] {
			case grey:
				return true
			case white:
				if visit(w) {
					return true
				}
			}
		}
		color[v] = black
		return false
	}
	for v := range succ {
		if color[v] == white && visit(v) {
			return true
		}
	}
	return false
}
