package oracle

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"pgasrob/tso/prog"
)

// OracleBudget bounds the oracle. Zero fields mean no bound.
type OracleBudget struct {
	MaxNodes int64 // distinct (state, trace) pairs explored
	// MaxEvents bounds the length of a computation (loads and stores);
	// 0 means 64. Programs with loops have unboundedly long ones.
	MaxEvents int
	Timeout   time.Duration
	Context   context.Context
}

// over says why an oracle that has explored nodes must stop, or "": the
// node budget, the deadline or the context (the last two looked at every
// 1,024 nodes).
func (b OracleBudget) over(nodes int64, deadline time.Time) string {
	switch {
	case b.MaxNodes > 0 && nodes > b.MaxNodes:
		return fmt.Sprintf("node budget of %d reached", b.MaxNodes)
	case nodes&1023 == 0 && !deadline.IsZero() && time.Now().After(deadline):
		return "time budget reached"
	case nodes&1023 == 0 && b.Context != nil && b.Context.Err() != nil:
		return "cancelled"
	}
	return ""
}

// OracleResult is the oracle's answer.
type OracleResult struct {
	Verdict prog.Verdict
	Nodes   int64
	Reason  string
	// Events and Cycle of a violating computation, for NotRobust.
	Events []prog.Event
	Cycle  []prog.Edge
}

// Oracle decides robustness by brute force, straight from the definition:
// it enumerates the relaxed computations of p on the Machine and looks for
// one whose happens-before relation is cyclic (Lemma 1 of both papers). It
// knows nothing of attacks or instrumentation. Two computations are merged
// only when both the machine state and the trace built so far coincide,
// since then their extensions and final traces coincide too; so the oracle
// explores traces, not states, and it terminates only on loop-free
// programs. Use it on small programs; the budget turns anything larger into
// Unknown.
func Oracle(p *prog.Program, m prog.Model, b OracleBudget) OracleResult {
	o := &oracle{p: p, m: m, b: b, seen: map[string]bool{}}
	if b.Timeout > 0 {
		o.deadline = time.Now().Add(b.Timeout)
	}
	o.explore(prog.NewMachine(p, m))
	r := OracleResult{Nodes: o.nodes}
	switch {
	case o.cycle != nil:
		r.Verdict, r.Events, r.Cycle = prog.NotRobust, o.events, o.cycle
	case o.stop != "":
		r.Verdict, r.Reason = prog.Unknown, o.stop
	default:
		r.Verdict = prog.Robust
	}
	return r
}

type oracle struct {
	p        *prog.Program
	m        prog.Model
	b        OracleBudget
	deadline time.Time
	seen     map[string]bool
	nodes    int64
	stop     string
	cycle    []prog.Edge
	events   []prog.Event
}

func (o *oracle) done() bool { return o.cycle != nil || o.stop != "" }

func (o *oracle) explore(mc *prog.Machine) {
	if o.done() {
		return
	}
	key := o.key(mc)
	if o.seen[key] {
		return
	}
	o.seen[key] = true
	o.nodes++
	limit := o.b.MaxEvents
	if limit <= 0 {
		limit = 64
	}
	if len(mc.Events) > limit {
		o.stop = fmt.Sprintf("a computation has more than %d events (a loop?)", limit)
		return
	}
	if o.stop = o.b.over(o.nodes, o.deadline); o.stop != "" {
		return
	}
	if mc.Quiescent() {
		// A complete computation: is its trace cyclic?
		if c := prog.FindCycle(len(mc.Events), prog.HappensBefore(mc.Events), -1); c != nil {
			o.cycle, o.events = c, mc.Events
			return
		}
	}
	for t, th := range o.p.Threads {
		for _, k := range th.Out[mc.PC[t]] {
			n := mc.Clone()
			if n.Exec(t, k) == nil {
				o.explore(n)
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
			if !o.p.HasFence && n.Flush(t) != nil {
				continue
			}
			o.explore(n)
		}
		if all {
			n := mc.Clone()
			if n.Flush(t) == nil {
				o.explore(n)
			}
		}
	}
}

// key encodes the machine state and the trace so far. Events are named by
// (thread, position in the thread) and stores carry their rank in the
// store order of their cell, so interleavings with the same trace and the
// same state share a key.
func (o *oracle) key(mc *prog.Machine) string {
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
