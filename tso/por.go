package tso

import (
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Partial-order reduction of the instrumented SC search (issue 10).
//
// A transition of thread i is *private* when what it reads and writes
// belongs to thread i alone: its control label, its registers, its cells
// (no other thread's code may touch them), the attacker's own buffer
// fields when i is the attacker, and the access level of its cells; or it
// reads a cell that no thread writes. Concretely: local, check, noop,
// mfence/sfence, address-list fences over constant addresses, and loads
// and stores at a constant address c where c is owned by i or (loads only)
// never written, in every role but the attacker's first delayed store and
// last action (they set stAddr and hb, which the goal reads) and lock and
// unlock (the lock decides who may move). A label q of thread i is
// *reducible* when every instrumented transition leaving it is private.
//
// The reduced search expands, in a state where the lock is free and some
// thread i sits at a reducible label with at least one enabled transition,
// only thread i's transitions from that label (a persistent set of one
// thread); otherwise every thread. Why this keeps every reachable goal:
// take a run ρ from state s to a goal, and let T be i's enabled
// transitions at q.
//
//   - If i fires some t from q in ρ, at step k, then t is already enabled
//     at s: i's registers do not change before k, its cells and levels
//     are written by nobody else, a never-written cell holds its initial
//     value, and the helpers' "hb is down" guard holds at k hence at s (hb
//     is never lowered). Moving t to the front changes the states before
//     k only in components private to i, which no other transition's
//     guard or effect and not the goal predicate (hb, lock, level of the
//     attacker's delayed cell, which i does not own) depend on; a load
//     of a never-written cell only raises that cell's level to "load",
//     which nothing reads (only a store's level is tested, by the goal
//     and by helper loads). So t·(ρ without t) reaches a goal and its
//     remainder is one step shorter.
//   - If i never moves in ρ, any t in T can be prepended for the same
//     reasons; the remainder is as long as ρ.
//
// The second case can repeat, which is the "ignoring" problem: the search
// could walk around a cycle of reduced states forever while the step ρ
// needs is never expanded. A static cycle proviso rules it out: on each
// thread's instrumented control graph, the reducible labels contain no
// cycle (planPOR makes a label on each such cycle non-reducible). A cycle
// of reduced states would move each of its threads around a cycle of
// reducible labels, so every cycle of the reduced graph contains a fully
// expanded state, and the argument above ends after finitely many steps in
// a shorter run. Overflow stays detected: a transition of T that
// overflows is tried and flags it, and a thread whose T is empty is not
// chosen. The proviso is a property of the graph, not of the search
// order, so depth-first and breadth-first search and the witness
// shortening all stay complete on the reduced graph, and a path found
// there is a path of the full one (same transitions), replayed as usual.

// planPOR returns, per thread and instrumented label, whether the label is
// reducible (nil when no label is).
func planPOR(p *prog.Program, threads []ithread) [][]bool {
	nc := len(p.Cells)
	// users[c] is the set of threads whose code may access cell c (-1:
	// none yet, -2: several); written[c] whether some code may store to
	// c. Non-constant addresses may touch every cell.
	users := make([]int, nc)
	for c := range users {
		users[c] = -1
	}
	written := make([]bool, nc)
	use := func(ti, c int, write bool) {
		switch users[c] {
		case -1:
			users[c] = ti
		case ti:
		default:
			users[c] = -2
		}
		if write {
			written[c] = true
		}
	}
	for ti, th := range p.Threads {
		for _, t := range th.Trans {
			if t.Op != prog.OpRead && t.Op != prog.OpWrite {
				continue
			}
			if c, ok := constCell(p, t.Addr); ok {
				use(ti, c, t.Op == prog.OpWrite)
				continue
			}
			for c := 0; c < nc; c++ {
				use(ti, c, t.Op == prog.OpWrite)
			}
		}
	}
	private := func(ti int, it *itrans) bool {
		t := &p.Threads[ti].Trans[it.orig]
		switch it.role {
		case rAttStart, rAttLast, rHelperLock:
			return false
		}
		switch t.Op {
		case prog.OpLocal, prog.OpCheck, prog.OpNoop, prog.OpMFence, prog.OpSFence:
			return true
		case prog.OpFence:
			for _, e := range t.Addrs {
				if _, ok := constCell(p, e); !ok {
					return false
				}
			}
			return true
		case prog.OpRead, prog.OpWrite:
			c, ok := constCell(p, t.Addr)
			return ok && (users[c] == ti || t.Op == prog.OpRead && !written[c])
		}
		return false // lock, unlock
	}
	var plan [][]bool
	some := false
	for ti := range threads {
		th := &threads[ti]
		red := make([]bool, th.labels)
		for q := range red {
			red[q] = len(th.out[q]) > 0
			for _, k := range th.out[q] {
				if !private(ti, &th.trans[k]) {
					red[q] = false
					break
				}
			}
		}
		breakCycles(th, red)
		for _, r := range red {
			some = some || r
		}
		plan = append(plan, red)
	}
	if !some {
		return nil
	}
	return plan
}

// constCell is the cell of a constant address expression.
func constCell(p *prog.Program, e *prog.Expr) (int, bool) {
	if e == nil {
		return 0, false
	}
	a, ok := e.Const()
	if !ok {
		return 0, false
	}
	return p.CellOf(a)
}

// breakCycles clears red[q] for labels until the subgraph of reducible
// labels (edges between two reducible labels) is acyclic: every depth-
// first back edge closes a cycle, and clearing its target opens it.
func breakCycles(th *ithread, red []bool) {
	const (
		white = iota
		grey
		black
	)
	for {
		color := make([]uint8, th.labels)
		found := false
		var visit func(q int)
		visit = func(q int) {
			color[q] = grey
			for _, k := range th.out[q] {
				to := int(th.trans[k].to)
				if !red[to] || found {
					continue
				}
				switch color[to] {
				case grey:
					red[to] = false
					found = true
				case white:
					visit(to)
				}
			}
			color[q] = black
		}
		for q := 0; q < th.labels && !found; q++ {
			if red[q] && color[q] == white {
				visit(q)
			}
		}
		if !found {
			return
		}
	}
}
