package oracle

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// TRF decides triangular-race freedom by brute force from the
// definition (trf.go), knowing nothing of patterns or instrumentation: it
// enumerates the SC runs of p (the Machine with every store reaching
// memory at once), keeps per thread the set of cells written since its
// last mfence, sfence, lock or unlock, and in every reachable state looks
// for an adjacent pair: a thread t that can read some x now, with the lock
// free and a pending write to a cell other than x, and another thread u
// whose next step can write x (a plain write, or a locked section, run as
// one atomic step, that writes x somewhere). Only the read-then-write
// order is tried: if w·r are adjacent, r was enabled before w too. The
// model plays no part. Loop-free programs only: the budget (MaxEvents
// bounds a run's length) turns anything else into Unknown.
func TRF(p *prog.Program, m prog.Model, b Budget) Result {
	o := &trfOracle{p: p, s: newSearch[trfNode](b, b.deadline(), "a run has more than %d steps (a loop?)")}
	o.s.key = o.key
	o.s.length = func(n trfNode) int { return n.depth }
	o.s.visit = func(n trfNode) bool {
		if n.mc.Lock < 0 {
			o.findRace(n.mc, n.pend)
		}
		return o.race != ""
	}
	o.s.moves = o.moves
	o.s.explore(trfNode{prog.NewMachine(p, prog.TSO), make([]map[int]bool, len(p.Threads)), 0})
	r := o.s.verdict()
	if o.s.found {
		r.Reason = o.race
	}
	return r
}

type trfOracle struct {
	p    *prog.Program
	s    *search[trfNode]
	race string // description of the race found
}

// trfNode is an SC state with, per thread, the cells it has written since
// its last full fence, and the number of steps that led to it.
type trfNode struct {
	mc    *prog.Machine
	pend  []map[int]bool
	depth int
}

// step executes transition k of thread t under SC and returns t's new
// pending set, or false if the transition is not enabled.
func (o *trfOracle) step(mc *prog.Machine, pend map[int]bool, t, k int) (map[int]bool, bool) {
	tr := &o.p.Threads[t].Trans[k]
	if mc.Exec(t, k) != nil {
		return nil, false
	}
	switch {
	case tr.Op == prog.OpWrite:
		if mc.Flush(t) != nil {
			return nil, false
		}
		n := map[int]bool{}
		for c := range pend {
			n[c] = true
		}
		n[mc.Events[len(mc.Events)-1].Cell] = true
		return n, true
	case tr.Op.IsFull():
		return nil, true
	}
	return pend, true
}

func (o *trfOracle) moves(n trfNode, next func(trfNode)) {
	for t, th := range o.p.Threads {
		for _, k := range th.Out[n.mc.PC[t]] {
			mc := n.mc.Clone()
			pend := append([]map[int]bool(nil), n.pend...)
			var ok bool
			if pend[t], ok = o.step(mc, n.pend[t], t, k); ok {
				next(trfNode{mc, pend, n.depth + 1})
			}
		}
	}
}

// findRace looks for a triangular race whose read can be the next step.
func (o *trfOracle) findRace(mc *prog.Machine, pend []map[int]bool) {
	for t, th := range o.p.Threads {
		for _, k := range th.Out[mc.PC[t]] {
			tr := &th.Trans[k]
			if tr.Op != prog.OpRead {
				continue
			}
			x, ok := o.p.CellOf(tr.Addr.Eval(mc.Regs[t]))
			if !ok {
				continue
			}
			other := false
			for c := range pend[t] {
				if c != x {
					other = true
				}
			}
			if !other {
				continue
			}
			for u := range o.p.Threads {
				if u != t && o.nextWrites(mc, u, x, 0) {
					o.race = fmt.Sprintf("%s reads [%d] with a pending write elsewhere, adjacent to a write of it by %s",
						o.p.Describe(t, k), o.p.Cells[x], o.p.Threads[u].Name)
					return
				}
			}
		}
	}
}

// nextWrites reports whether thread u's next step can write cell x: a
// write of x, or (inLock > 0: inside the locked section it is running)
// any path of the section up to its unlock that writes x.
func (o *trfOracle) nextWrites(mc *prog.Machine, u, x, inLock int) bool {
	if inLock > 64 {
		o.s.stop = "a locked section runs for more than 64 steps"
		return false
	}
	for _, k := range o.p.Threads[u].Out[mc.PC[u]] {
		tr := &o.p.Threads[u].Trans[k]
		switch {
		case inLock == 0 && tr.Op == prog.OpWrite:
			n := mc.Clone()
			if n.Exec(u, k) == nil && n.Events[len(n.Events)-1].Cell == x {
				return true
			}
		case inLock == 0 && tr.Op != prog.OpLock:
		case tr.Op == prog.OpUnlock:
		default:
			n := mc.Clone()
			if n.Exec(u, k) != nil {
				continue
			}
			if tr.Op == prog.OpWrite {
				if n.Events[len(n.Events)-1].Cell == x {
					return true
				}
				if n.Flush(u) != nil {
					continue
				}
			}
			if o.nextWrites(n, u, x, inLock+1) {
				return true
			}
		}
	}
	return false
}

// key encodes the machine state (the trace does not matter here, unlike
// in the robustness oracle) and the pending sets.
func (o *trfOracle) key(n trfNode) string {
	mc, pend := n.mc, n.pend
	var b strings.Builder
	w := func(v int64) { b.WriteString(strconv.FormatInt(v, 10)); b.WriteByte(',') }
	for t := range mc.PC {
		w(int64(mc.PC[t]))
		for _, r := range mc.Regs[t] {
			w(r)
		}
		b.WriteByte('{')
		for c := range o.p.Cells {
			if pend[t][c] {
				w(int64(c))
			}
		}
		b.WriteByte('}')
	}
	for _, v := range mc.Mem {
		w(v)
	}
	w(int64(mc.Lock))
	return b.String()
}
