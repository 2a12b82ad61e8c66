package prog

import "fmt"

// Machine executes a program step by step in the relaxed semantics: Table 1
// of tso-robustness-attacks.md for TSO, and Figure 3 of
// locality-singularity.md (per-address buffers that advance into an
// all-addresses buffer) for PSO. It records every load and store as an
// Event, so that the happens-before relation of the computation can be
// computed afterwards. It is written for clarity, not speed: it replays
// witnesses and drives the oracle, never the main search.
type Machine struct {
	P     *Program
	Model Model
	PC    []int
	Regs  [][]int64
	Mem   []int64 // per cell
	Lock  int     // thread holding the lock, -1 if none
	// all[t] is the all-addresses FIFO of thread t (the only buffer under
	// TSO); per[t][c] the per-address FIFOs (PSO only).
	all    [][]Buffered
	per    [][][]Buffered
	last   []int // per cell: the event of the store that reached memory last, -1 initially
	landed int
	Events []Event
}

// Buffered is an entry of a store buffer: a store, or under PSO an
// address-list fence waiting in the all-addresses buffer.
type Buffered struct {
	Fence bool
	Cells []int // of a fence
	Cell  int   // of a store
	Val   int64 // of a store
	Event int   // the store's event; -1 for a fence
}

// Buffer is thread t's all-addresses buffer, oldest first (its only one
// under TSO). It is the machine's own slice: read it, do not keep it.
func (mc *Machine) Buffer(t int) []Buffered { return mc.all[t] }

// CellBuffers are thread t's per-address buffers under PSO, indexed by
// cell, oldest first; nil under TSO. Read them, do not keep them.
func (mc *Machine) CellBuffers(t int) [][]Buffered { return mc.per[t] }

// EventKind tells loads from stores.
type EventKind uint8

const (
	EvLoad EventKind = iota
	EvStore
)

// Event is a node of the happens-before trace: a load, or a store (its
// issue and its arrival in memory are one node).
type Event struct {
	Kind   EventKind
	Thread int
	Trans  int
	Cell   int
	Val    int64
	Src    int  // loads: the store read from, -1 for the initial value
	Early  bool // loads: read from the thread's own buffer
	Land   int  // stores: position in the store order, -1 while buffered
	Seq    int  // position among the thread's events (program order)
}

// NewMachine starts p in its initial state.
func NewMachine(p *Program, m Model) *Machine {
	n := len(p.Threads)
	mc := &Machine{P: p, Model: m, PC: make([]int, n), Regs: make([][]int64, n), Mem: make([]int64, len(p.Cells)), Lock: -1,
		all: make([][]Buffered, n), per: make([][][]Buffered, n), last: make([]int, len(p.Cells))}
	for i, th := range p.Threads {
		mc.PC[i] = th.Init
		mc.Regs[i] = make([]int64, len(th.Regs))
		mc.per[i] = make([][]Buffered, len(p.Cells))
	}
	for c := range mc.last {
		mc.last[c] = -1
	}
	return mc
}

// Clone copies the machine (the oracle branches on it).
func (mc *Machine) Clone() *Machine {
	c := *mc
	c.PC = append([]int(nil), mc.PC...)
	c.Regs = make([][]int64, len(mc.Regs))
	for i := range mc.Regs {
		c.Regs[i] = append([]int64(nil), mc.Regs[i]...)
	}
	c.Mem = append([]int64(nil), mc.Mem...)
	c.all = make([][]Buffered, len(mc.all))
	c.per = make([][][]Buffered, len(mc.per))
	for t := range mc.all {
		c.all[t] = append([]Buffered(nil), mc.all[t]...)
		c.per[t] = make([][]Buffered, len(mc.per[t]))
		for k := range mc.per[t] {
			c.per[t][k] = append([]Buffered(nil), mc.per[t][k]...)
		}
	}
	c.last = append([]int(nil), mc.last...)
	c.Events = append([]Event(nil), mc.Events...)
	return &c
}

// Cell evaluates address expression e with thread t's registers and
// returns its cell, or an error if the address is outside the memory.
func (mc *Machine) Cell(e *Expr, t int) (int, error) {
	a := e.Eval(mc.Regs[t])
	c, ok := mc.P.CellOf(a)
	if !ok {
		return 0, fmt.Errorf("%v: address %d is outside the memory", e.Pos, a)
	}
	return c, nil
}

// Quiescent reports that every thread's buffers are empty: the
// computation so far is complete.
func (mc *Machine) Quiescent() bool {
	for t := range mc.P.Threads {
		if !mc.Empty(t) {
			return false
		}
	}
	return true
}

// Empty reports whether thread t has no buffered store or fence.
func (mc *Machine) Empty(t int) bool {
	if len(mc.all[t]) > 0 {
		return false
	}
	for _, q := range mc.per[t] {
		if len(q) > 0 {
			return false
		}
	}
	return true
}

func (mc *Machine) blocked(t int) bool { return mc.Lock >= 0 && mc.Lock != t }

func (mc *Machine) seq(t int) int {
	n := 0
	for _, e := range mc.Events {
		if e.Thread == t {
			n++
		}
	}
	return n
}

// Exec executes transition k of thread t (for a store: its issue). It
// returns an error if the transition is not enabled.
func (mc *Machine) Exec(t, k int) error {
	th := mc.P.Threads[t]
	if k < 0 || k >= len(th.Trans) {
		return fmt.Errorf("thread %s has no transition %d", th.Name, k)
	}
	tr := &th.Trans[k]
	if mc.PC[t] != tr.From {
		return fmt.Errorf("%s is at %s, not at %s", th.Name, th.Labels[mc.PC[t]], th.Labels[tr.From])
	}
	if mc.blocked(t) {
		return fmt.Errorf("%s cannot run while %s holds the lock", th.Name, mc.P.Threads[mc.Lock].Name)
	}
	regs := mc.Regs[t]
	switch tr.Op {
	case OpRead:
		c, err := mc.Cell(tr.Addr, t)
		if err != nil {
			return err
		}
		ev := Event{Kind: EvLoad, Thread: t, Trans: k, Cell: c, Src: mc.last[c], Land: -1, Seq: mc.seq(t)}
		ev.Val = mc.Mem[c]
		if e, ok := mc.newest(t, c); ok {
			ev.Val, ev.Src, ev.Early = e.Val, e.Event, true
		}
		regs[tr.Reg] = ev.Val
		mc.Events = append(mc.Events, ev)
	case OpWrite:
		c, err := mc.Cell(tr.Addr, t)
		if err != nil {
			return err
		}
		ev := Event{Kind: EvStore, Thread: t, Trans: k, Cell: c, Val: tr.Val.Eval(regs), Src: -1, Land: -1, Seq: mc.seq(t)}
		mc.Events = append(mc.Events, ev)
		e := Buffered{Cell: c, Val: ev.Val, Event: len(mc.Events) - 1}
		if mc.Model == TSO {
			mc.all[t] = append(mc.all[t], e)
		} else {
			mc.per[t][c] = append(mc.per[t][c], e)
		}
	case OpMFence, OpSFence:
		if !mc.Empty(t) {
			return fmt.Errorf("%s: fence with a non-empty buffer", th.Name)
		}
	case OpLock, OpUnlock:
		if !mc.Empty(t) {
			return fmt.Errorf("%s: %s with a non-empty buffer", th.Name, tr.Op)
		}
		if tr.Op == OpLock && mc.Lock >= 0 || tr.Op == OpUnlock && mc.Lock != t {
			return fmt.Errorf("%s: %s not possible", th.Name, tr.Op)
		}
		if tr.Op == OpLock {
			mc.Lock = t
		} else {
			mc.Lock = -1
		}
	case OpFence:
		var cells []int
		for _, a := range tr.Addrs {
			c, err := mc.Cell(a, t)
			if err != nil {
				return err
			}
			if mc.Model == PSO && len(mc.per[t][c]) > 0 {
				return fmt.Errorf("%s: fence while stores to its address %d wait in the per-address buffer", th.Name, mc.P.Cells[c])
			}
			cells = append(cells, c)
		}
		if mc.Model == PSO {
			mc.all[t] = append(mc.all[t], Buffered{Fence: true, Cells: cells, Event: -1})
		}
	case OpLocal:
		regs[tr.Reg] = tr.Val.Eval(regs)
	case OpCheck:
		if tr.Val.Eval(regs) == 0 {
			return fmt.Errorf("%s: check %s fails", th.Name, tr.Val)
		}
	}
	mc.PC[t] = tr.To
	return nil
}

// newest finds thread t's most recent buffered store to cell c; per-address
// buffers hold younger stores than the all-addresses buffer.
func (mc *Machine) newest(t, c int) (Buffered, bool) {
	if q := mc.per[t][c]; len(q) > 0 {
		return q[len(q)-1], true
	}
	for i := len(mc.all[t]) - 1; i >= 0; i-- {
		if e := mc.all[t][i]; !e.Fence && e.Cell == c {
			return e, true
		}
	}
	return Buffered{}, false
}

// Advance moves the oldest store of thread t's per-address buffer for
// cell c into its all-addresses buffer (PSO only; an ε step).
func (mc *Machine) Advance(t, c int) error {
	if mc.Model != PSO || c < 0 || c >= len(mc.per[t]) || len(mc.per[t][c]) == 0 {
		return fmt.Errorf("%s: nothing to advance for cell %d", mc.P.Threads[t].Name, c)
	}
	mc.all[t] = append(mc.all[t], mc.per[t][c][0])
	mc.per[t][c] = mc.per[t][c][1:]
	return nil
}

// Flush lets the oldest entry of thread t's all-addresses buffer reach
// memory (a store action, or the fence action of the framework).
func (mc *Machine) Flush(t int) error {
	if len(mc.all[t]) == 0 {
		return fmt.Errorf("%s: empty buffer", mc.P.Threads[t].Name)
	}
	if mc.blocked(t) {
		return fmt.Errorf("%s cannot write memory while another thread holds the lock", mc.P.Threads[t].Name)
	}
	e := mc.all[t][0]
	mc.all[t] = mc.all[t][1:]
	if !e.Fence {
		mc.Mem[e.Cell] = e.Val
		mc.last[e.Cell] = e.Event
		mc.Events[e.Event].Land = mc.landed
		mc.landed++
	}
	return nil
}

// Pending lists, per thread, the cells of per-address buffers that are not
// empty (for PSO) and whether the all-addresses buffer is non-empty.
func (mc *Machine) Pending(t int) (cells []int, all bool) {
	for c, q := range mc.per[t] {
		if len(q) > 0 {
			cells = append(cells, c)
		}
	}
	return cells, len(mc.all[t]) > 0
}

// Drain empties thread t's buffers, oldest store first.
func (mc *Machine) Drain(t int) error {
	for !mc.Empty(t) {
		if len(mc.all[t]) == 0 {
			best := -1
			for c, q := range mc.per[t] {
				if len(q) > 0 && (best < 0 || q[0].Event < mc.per[t][best][0].Event) {
					best = c
				}
			}
			if err := mc.Advance(t, best); err != nil {
				return err
			}
		}
		if err := mc.Flush(t); err != nil {
			return err
		}
	}
	return nil
}

// DescribeEvent prints an event with names from the program.
func (p *Program) DescribeEvent(e Event) string {
	th := p.Threads[e.Thread]
	t := th.Trans[e.Trans]
	addr := p.Cells[e.Cell]
	if e.Kind == EvLoad {
		from := "initial value"
		if e.Src >= 0 {
			from = "a store"
		}
		if e.Early {
			from = "own buffer"
		}
		return fmt.Sprintf("%s: ld [%d] = %d (%s)  %s->%s %s", th.Name, addr, e.Val, from, th.Labels[t.From], th.Labels[t.To], t.Text)
	}
	return fmt.Sprintf("%s: st [%d] := %d  %s->%s %s", th.Name, addr, e.Val, th.Labels[t.From], th.Labels[t.To], t.Text)
}
