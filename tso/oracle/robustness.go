package oracle

import (
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// Robustness decides robustness by brute force, straight from the definition:
// it enumerates the relaxed computations of p on the Machine and looks for
// one whose happens-before relation is cyclic (Lemma 1 of both papers). It
// knows nothing of attacks or instrumentation. Two computations are merged
// only when both the machine state and the trace built so far coincide,
// since then their extensions and final traces coincide too; so the oracle
// explores traces, not states, and it terminates only on loop-free
// programs. Use it on small programs; the budget turns anything larger into
// Unknown.
func Robustness(p *prog.Program, m prog.Model, b Budget) Result {
	s := newSearch[*prog.Machine](b, b.deadline(), "a computation has more than %d events (a loop?)")
	var events []prog.Event
	var cycle []prog.Edge
	s.key = robustnessKey
	s.length = func(mc *prog.Machine) int { return len(mc.Events) }
	s.visit = func(mc *prog.Machine) bool {
		if !mc.Quiescent() {
			return false
		}
		// A complete computation: is its trace cyclic?
		cycle = prog.FindCycle(len(mc.Events), prog.HappensBefore(mc.Events), -1)
		events = mc.Events
		return cycle != nil
	}
	s.moves = relaxedMoves
	s.explore(prog.NewMachine(p, m))
	r := s.verdict()
	if s.found {
		r.Events, r.Cycle = events, cycle
	}
	return r
}

// relaxedMoves are the steps of the relaxed semantics: a thread executes
// an instruction, a store advances from a per-address buffer into the
// all-addresses one (PSO), or the oldest entry of the all-addresses buffer
// reaches memory.
func relaxedMoves(mc *prog.Machine, next func(*prog.Machine)) {
	p := mc.P
	for t, th := range p.Threads {
		for _, k := range th.Out[mc.PC[t]] {
			n := mc.Clone()
			if n.Exec(t, k) == nil {
				next(n)
			}
		}
		cells, all := mc.Pending(t)
		for _, c := range cells {
			n := mc.Clone()
			if n.Advance(t, c) != nil {
				continue
			}
			// Without fences in the all-addresses buffer, the time a store
			// spends there is unobservable: land it at once.
			if !p.HasFence && n.Flush(t) != nil {
				continue
			}
			next(n)
		}
		if all {
			n := mc.Clone()
			if n.Flush(t) == nil {
				next(n)
			}
		}
	}
}

// key encodes the machine state and the trace so far. Events are named by
// (thread, position in the thread) and stores carry their rank in the
// store order of their cell, so interleavings with the same trace and the
// same state share a key.
func robustnessKey(mc *prog.Machine) string {
	var b strings.Builder
	w := func(v int64) { b.WriteString(strconv.FormatInt(v, 10)); b.WriteByte(',') }
	for t := range mc.PC {
		w(int64(mc.PC[t]))
		for _, r := range mc.Regs[t] {
			w(r)
		}
		b.WriteByte('|')
	}
	for _, v := range mc.Mem {
		w(v)
	}
	w(int64(mc.Lock))
	name := func(ev int) int64 {
		if ev < 0 {
			return -1
		}
		e := mc.Events[ev]
		return int64(e.Thread)<<16 | int64(e.Seq)
	}
	for t := range mc.P.Threads {
		b.WriteByte('[')
		for _, e := range mc.Buffer(t) {
			if e.Fence {
				b.WriteString("F,")
			} else {
				w(name(e.Event))
			}
		}
		for c, q := range mc.CellBuffers(t) {
			if len(q) > 0 {
				w(int64(c))
				for _, e := range q {
					w(name(e.Event))
				}
			}
		}
		b.WriteByte(']')
	}
	// The trace: per thread, its events in order.
	rank := map[int]int64{}
	count := map[int]int64{}
	order := make([]int, 0, len(mc.Events))
	for i, e := range mc.Events {
		if e.Kind == prog.EvStore && e.Land >= 0 {
			order = append(order, i)
		}
	}
	// Stores in landing order give each its rank within its cell.
	for a := 1; a < len(order); a++ {
		for b2 := a; b2 > 0 && mc.Events[order[b2]].Land < mc.Events[order[b2-1]].Land; b2-- {
			order[b2], order[b2-1] = order[b2-1], order[b2]
		}
	}
	for _, i := range order {
		c := mc.Events[i].Cell
		rank[i] = count[c]
		count[c]++
	}
	for t := range mc.PC {
		b.WriteByte('#')
		for i, e := range mc.Events {
			if e.Thread != t {
				continue
			}
			w(int64(e.Kind))
			w(int64(e.Trans))
			w(int64(e.Cell))
			w(e.Val)
			if e.Kind == prog.EvLoad {
				w(name(e.Src))
			} else if r, ok := rank[i]; ok {
				w(r)
			} else {
				w(-1)
			}
		}
	}
	return b.String()
}
