package pgas

import (
	encbin "encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// This file is the state-space automaton X(P,N) of Section 2.3 (Table 1,
// and Table 3 in the appendix). It favours being checkably equal to the
// tables over speed: every rule is one case of Machine.exec or Machine.pop.
//
// One reading of Table 3 deviates from the printed text: the (store) rule
// prints the accessed cell as (r, ê_v); the cell that is written is
// (r, ê_a), and that is the cell the store event carries here.
//
// One rule extends the tables: a load with a Guard (an atomic await, see
// Cmd.Guard) is enabled only when the guard holds with the loaded value in
// its register, and is then an ordinary (load). Without a guard, rules and
// events are exactly those of Tables 1 and 3.
//
// The OpenSHMEM commands (docs/shmem-calculus.md) have their rules in
// semantics_ctx.go; a program without a context never reaches them.
//
// Run-time errors: a command whose control state enables it but whose
// evaluation leaves a domain (program.go: Value, Address, RankOf, QueueOf)
// or divides by zero has no transition; Steps reports it as a CmdError so
// that explorers show it to the user instead of treating it as blocked.

// Request is an entry of a queue fa(r, q): a pending read or write that will
// copy cell Src to cell Dst. Trans is the read or write transition that
// issued it, kept so that its pops can name their command.
type Request struct {
	Src, Dst Cell
	Trans    int
}

// Transfer is an entry of a queue fb(r, q): the value Val read by a popa,
// waiting to be written to cell Dst by the popb.
type Transfer struct {
	Dst   Cell
	Val   int64
	Trans int
}

// XState is a state (st, m, fa, fb) of X(P,N). It is immutable once built:
// Apply returns a new state and never changes its argument, so states can be
// shared freely (slices are copied on write).
type XState struct {
	m    *Machine
	st   []int        // st(r) at index r-1
	regs []int64      // m(r, reg i) at (r-1)*|REG| + i
	mem  []int64      // m(r, addr a) at (r-1)*|ADR| + a
	fa   [][]Request  // fa(r, q) at (r-1)*|QUE| + q
	fb   [][]Transfer // fb(r, q) at (r-1)*|QUE| + q
	// The OpenSHMEM part (semantics_ctx.go), nil when the program has no
	// context: one pointer, so that the states of other programs do not
	// carry its fields.
	*ctxState
}

// Machine runs X(P,N) for one program and one N.
type Machine struct {
	p                 *Program
	n                 int
	nregs, nadr, nque int
	hasCtx            bool // some queue is a context
	hasChain          bool // some send has Cmd.Chain: the key encodes each item's chain
	bars              BarSets
}

// NewMachine returns the machine of X(p, n). n must be at least 1.
func NewMachine(p *Program, n int) *Machine {
	return &Machine{p: p, n: n, nregs: len(p.Regs), nadr: len(p.Addrs), nque: len(p.Queues),
		hasCtx:   slices.Contains(p.Ctx, true),
		hasChain: slices.ContainsFunc(p.Trans, func(t Trans) bool { return t.Cmd.Chain }),
		bars:     p.BarrierSets(n)}
}

// Program returns the program the machine runs.
func (m *Machine) Program() *Program { return m.p }

// N returns the number of ranks.
func (m *Machine) N() int { return m.n }

// Initial returns s0X: every rank at q0, every register and cell 0, every
// queue empty.
func (m *Machine) Initial() *XState {
	s := &XState{
		m:    m,
		st:   make([]int, m.n),
		regs: make([]int64, m.n*m.nregs),
		mem:  make([]int64, m.n*m.nadr),
		fa:   make([][]Request, m.n*m.nque),
		fb:   make([][]Transfer, m.n*m.nque),
	}
	for r := range s.st {
		s.st[r] = m.p.Init
	}
	if m.hasCtx {
		s.ctxState = m.newCtxState()
	}
	return s
}

// Control returns st(r).
func (s *XState) Control(r int) int { return s.st[r-1] }

// Reg returns m(r, reg i).
func (s *XState) Reg(r, i int) int64 { return s.regs[(r-1)*s.m.nregs+i] }

// Mem returns m(c.Rank, c.Addr).
func (s *XState) Mem(c Cell) int64 { return s.mem[(c.Rank-1)*s.m.nadr+c.Addr] }

// FA returns the queue fa(r, q), oldest request first. The caller must not
// modify it.
func (s *XState) FA(r, q int) []Request { return s.fa[(r-1)*s.m.nque+q] }

// FB returns the queue fb(r, q), oldest transfer first. The caller must not
// modify it.
func (s *XState) FB(r, q int) []Transfer { return s.fb[(r-1)*s.m.nque+q] }

// Final reports whether s is in F_X: every queue and every context is
// empty, so no remote access is left half done.
func (s *XState) Final() bool {
	for i := range s.fa {
		if len(s.fa[i]) > 0 || len(s.fb[i]) > 0 {
			return false
		}
	}
	if s.ctxState == nil {
		return true
	}
	for _, items := range s.ci {
		if len(items) > 0 {
			return false
		}
	}
	return true
}

// Pending returns the number of requests of (r, q) not yet completed by
// their popb: len(fa(r,q)) + len(fb(r,q)), or the number of items of a
// context.
func (s *XState) Pending(r, q int) int {
	return len(s.FA(r, q)) + len(s.FB(r, q)) + len(s.Items(r, q))
}

// Key encodes the whole state, including the transitions recorded in queue
// entries, as a compact string: equal keys mean equal states, except for
// the issue indices of context items, which Key leaves out
// (appendCtxKey says why).
func (s *XState) Key() string { return string(s.AppendKey(nil)) }

// AppendKey appends the encoding Key returns to b.
func (s *XState) AppendKey(b []byte) []byte {
	for _, q := range s.st {
		b = encbin.AppendUvarint(b, uint64(q))
	}
	for _, v := range s.regs {
		b = encbin.AppendVarint(b, v)
	}
	for _, v := range s.mem {
		b = encbin.AppendVarint(b, v)
	}
	for i := range s.fa {
		b = encbin.AppendUvarint(b, uint64(len(s.fa[i])))
		for _, e := range s.fa[i] {
			b = appendInts(b, e.Src.Rank, e.Src.Addr, e.Dst.Rank, e.Dst.Addr, e.Trans)
		}
		b = encbin.AppendUvarint(b, uint64(len(s.fb[i])))
		for _, e := range s.fb[i] {
			b = appendInts(b, e.Dst.Rank, e.Dst.Addr, e.Trans)
			b = encbin.AppendVarint(b, e.Val)
		}
	}
	if s.ctxState != nil {
		b = s.appendCtxKey(b)
	}
	return b
}

func appendInts(b []byte, xs ...int) []byte {
	for _, x := range xs {
		b = encbin.AppendVarint(b, int64(x))
	}
	return b
}

// String prints the state for debugging and test failures.
func (s *XState) String() string {
	var b strings.Builder
	nr, na, nq := s.m.nregs, s.m.nadr, s.m.nque
	for r := 1; r <= len(s.st); r++ {
		fmt.Fprintf(&b, "rank %d: q%d regs %v mem %v", r, s.st[r-1], s.regs[(r-1)*nr:r*nr], s.mem[(r-1)*na:r*na])
		for q := 0; q < nq; q++ {
			if fa, fb := s.FA(r, q), s.FB(r, q); len(fa)+len(fb) > 0 {
				fmt.Fprintf(&b, " fa%d %v fb%d %v", q, fa, q, fb)
			}
			if items := s.Items(r, q); len(items) > 0 || s.Epoch(r, q) > 0 {
				fmt.Fprintf(&b, " ctx%d epoch %d %+v", q, s.Epoch(r, q), items)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// clone copies the control states and memory. The queue maps stay shared
// until ownQueues is called.
func (s *XState) clone() *XState {
	vals := make([]int64, len(s.regs)+len(s.mem))
	copy(vals, s.regs)
	copy(vals[len(s.regs):], s.mem)
	c := &XState{
		m:    s.m,
		st:   append([]int(nil), s.st...),
		regs: vals[:len(s.regs):len(s.regs)],
		mem:  vals[len(s.regs):],
		fa:   s.fa,
		fb:   s.fb,
	}
	if s.ctxState != nil {
		c.ctxState = s.ctxState.clone()
	}
	return c
}

// ownQueues gives a clone its own queue maps before one queue changes. The
// queues themselves stay shared: every change builds a fresh slice for the
// queue it changes.
func (s *XState) ownQueues() {
	s.fa = append([][]Request(nil), s.fa...)
	s.fb = append([][]Transfer(nil), s.fb...)
}

// MoveKind says which rule of Table 1 a Move applies.
type MoveKind uint8

const (
	MoveCmd     MoveKind = iota // one command of one rank (load, store, assign, assume, read, write)
	MoveBarrier                 // rule (bar): every rank of a set takes a barrier transition over that set
	MovePopa                    // rule (popa) on fa(Rank, Queue)
	MovePopb                    // rule (popb) on fb(Rank, Queue)
)

// Move is one transition of X(P,N). Its events are the label of the
// transition: one event, or N events for a barrier.
type Move struct {
	Kind  MoveKind
	Rank  int   // MoveCmd, MovePopa, MovePopb
	Trans int   // MoveCmd: the transition taken
	Bar   []int // MoveBarrier: Bar[r-1] is the barrier transition of rank r, -1 for a rank outside its set
	Queue int   // MovePopa, MovePopb
	Item  int   // MovePopa, MovePopb on a context: the Issue of the item popped
}

func (mv Move) String() string {
	switch mv.Kind {
	case MoveCmd:
		return fmt.Sprintf("cmd rank %d trans %d", mv.Rank, mv.Trans)
	case MoveBarrier:
		return fmt.Sprintf("barrier %v", mv.Bar)
	case MovePopa, MovePopb:
		s := fmt.Sprintf("pop%c rank %d queue %d", "ab"[mv.Kind-MovePopa], mv.Rank, mv.Queue)
		if mv.Item != 0 {
			s += fmt.Sprintf(" item %d", mv.Item)
		}
		return s
	}
	return fmt.Sprintf("Move(%d)", mv.Kind)
}

// CmdError is a command that is enabled by its control state but cannot
// execute because evaluating it failed: a value, address, rank or queue
// out of its domain or a division by zero (a *RangeError), or, for a
// compiler bug, a malformed expression.
type CmdError struct {
	Rank, Trans int
	Err         error
}

func (e *CmdError) Error() string { return fmt.Sprintf("rank %d: %v", e.Rank, e.Err) }
func (e *CmdError) Unwrap() error { return e.Err }

// Range returns the range error, or nil if the failure is something else
// (an internal error).
func (e *CmdError) Range() *RangeError {
	var re *RangeError
	if errors.As(e.Err, &re) {
		return re
	}
	return nil
}

// errBlocked marks a command whose assume condition (or await guard) is
// false: it is not enabled, and that is not an error.
var errBlocked = errors.New("the assume or await condition is false")

// Step is an enabled transition of X together with its outcome.
type Step struct {
	Move   Move
	Next   *XState
	Events []Event
	// Wrap is set when the step is an atomic add (an OpAtomic add, or the
	// popb of a context send with AmoAdd) whose result is outside
	// DOM: the step executed modulo |DOM|, but the real program
	// would hold a value X cannot represent. Whoever takes the step
	// reports Wrap as a run-time error and gives no robustness verdict
	// that rests on it (docs/shmem-calculus.md, "Atomic adds that wrap").
	Wrap *RangeError
}

// Steps lists the transitions enabled in s with their successors, in a
// fixed order: commands by rank and transition order, then barriers, then
// pops by rank and queue. errs lists the commands that are enabled by
// their control state but whose evaluation fails; the explorers must
// report them, not treat them as blocked.
func (m *Machine) Steps(s *XState) (steps []Step, errs []*CmdError) {
	for r := 1; r <= m.n; r++ {
		for _, t := range m.p.Out[s.st[r-1]] {
			if m.p.Trans[t].Cmd.Op == OpBarrier {
				if err := m.bars.Check(m.p, t, r, m.n); err != nil {
					errs = append(errs, &CmdError{Rank: r, Trans: t, Err: err})
				}
				continue
			}
			next, evs, err := m.command(s, r, t)
			switch {
			case err == nil:
				steps = append(steps, Step{Move{Kind: MoveCmd, Rank: r, Trans: t}, next, evs, next.takeWrap()})
			case err != errBlocked:
				errs = append(errs, &CmdError{Rank: r, Trans: t, Err: err})
			}
		}
	}
	var moves []Move
	moves = m.barrierMoves(s, moves)
	moves = append(moves, m.PopMoves(s)...)
	for _, mv := range moves {
		next, evs, err := m.apply(s, mv)
		if err != nil {
			// Unreachable: the moves were built from s.
			errs = append(errs, &CmdError{Rank: mv.Rank, Trans: mv.Trans, Err: fmt.Errorf("internal error: %v", err)})
			continue
		}
		steps = append(steps, Step{mv, next, evs, next.takeWrap()})
	}
	return steps, errs
}

// takeWrap returns the wrap of the step that built s and clears it.
func (s *XState) takeWrap() *RangeError {
	if s.ctxState == nil {
		return nil
	}
	w := s.wrap
	s.wrap = nil
	return w
}

// Moves is Steps without the successors.
func (m *Machine) Moves(s *XState) (moves []Move, errs []*CmdError) {
	steps, errs := m.Steps(s)
	for _, st := range steps {
		moves = append(moves, st.Move)
	}
	return moves, errs
}

// Apply executes mv in s and returns the successor and the events of the
// transition. It returns an error if mv is not enabled in s. An atomic add
// that wraps executes modulo values; ApplyWrap also reports the wrap.
func (m *Machine) Apply(s *XState, mv Move) (*XState, []Event, error) {
	next, evs, _, err := m.ApplyWrap(s, mv)
	return next, evs, err
}

// ApplyWrap is Apply, and also returns the wrap of the step (Step.Wrap).
func (m *Machine) ApplyWrap(s *XState, mv Move) (*XState, []Event, *RangeError, error) {
	next, evs, err := m.apply(s, mv)
	if err != nil {
		return nil, nil, nil, err
	}
	return next, evs, next.takeWrap(), nil
}

func (m *Machine) apply(s *XState, mv Move) (*XState, []Event, error) {
	switch mv.Kind {
	case MoveCmd:
		if err := m.checkRank(mv.Rank); err != nil {
			return nil, nil, err
		}
		if mv.Trans < 0 || mv.Trans >= len(m.p.Trans) {
			return nil, nil, fmt.Errorf("no transition %d", mv.Trans)
		}
		t := &m.p.Trans[mv.Trans]
		if t.From != s.st[mv.Rank-1] {
			return nil, nil, fmt.Errorf("rank %d is at %s, transition %d leaves %s", mv.Rank, m.label(s.st[mv.Rank-1]), mv.Trans, m.label(t.From))
		}
		if t.Cmd.Op == OpBarrier {
			return nil, nil, fmt.Errorf("a barrier is taken by all ranks at once, not by rank %d alone", mv.Rank)
		}
		return m.command(s, mv.Rank, mv.Trans)
	case MoveBarrier:
		return m.barrier(s, mv)
	case MovePopa, MovePopb:
		if err := m.checkRank(mv.Rank); err != nil {
			return nil, nil, err
		}
		if mv.Queue < 0 || mv.Queue >= m.nque {
			return nil, nil, fmt.Errorf("no queue %d", mv.Queue)
		}
		pop := m.pop
		if m.p.IsCtx(mv.Queue) {
			pop = func(s *XState, k MoveKind, r, q int) (*XState, Event, error) { return m.ctxPop(s, k, r, q, mv.Item) }
		}
		next, ev, err := pop(s, mv.Kind, mv.Rank, mv.Queue)
		if err != nil {
			return nil, nil, err
		}
		return next, []Event{ev}, nil
	}
	return nil, nil, fmt.Errorf("unknown move kind %d", mv.Kind)
}

func (m *Machine) checkRank(r int) error {
	if r < 1 || r > m.n {
		return fmt.Errorf("rank %d outside 1..%d", r, m.n)
	}
	return nil
}

func (m *Machine) label(q int) string {
	if q >= 0 && q < len(m.p.Labels) {
		return m.p.Labels[q]
	}
	return fmt.Sprintf("state %d", q)
}

// exec applies one of the command rules of Tables 1 and 3 for rank r and
// transition t, whose source must be st(r). Expressions are evaluated in s
// (the ê of the tables). The error is errBlocked for a false assume, or
// the evaluation error.
func (m *Machine) exec(s *XState, r, t int) (*XState, Event, error) {
	tr := &m.p.Trans[t]
	c := &tr.Cmd
	env := Env{Regs: s.regs[(r-1)*m.nregs : r*m.nregs], Rank: int64(r), N: int64(m.n)}
	ev := Event{Rank: r, Trans: t, Queue: -1}
	var next *XState
	switch c.Op {
	case OpLoad: // (load): reg := m(r, ê_a); the event reads (r, ê_a)
		a, err := m.p.Address(c.Addr, env)
		if err != nil {
			return nil, ev, err
		}
		if c.Reg < 0 || c.Reg >= m.nregs {
			return nil, ev, fmt.Errorf("%v: internal error: register %d of %d", tr.Pos, c.Reg, m.nregs)
		}
		ev.Kind, ev.HasCell, ev.Cell = KLoad, true, Cell{r, int(a)}
		next = s.clone()
		next.regs[(r-1)*m.nregs+c.Reg] = s.mem[(r-1)*m.nadr+int(a)]
		if c.Guard != nil {
			// An atomic await (program.go): the load happens only if
			// the guard holds with the loaded value in place; a failed
			// poll is no transition at all.
			genv := Env{Regs: next.regs[(r-1)*m.nregs : r*m.nregs], Rank: int64(r), N: int64(m.n)}
			ok, err := m.p.Holds(c.Guard, genv)
			if err != nil {
				return nil, ev, err
			}
			if !ok {
				return nil, ev, errBlocked
			}
		}
	case OpStore: // (store): m(r, ê_a) := ê_v; the event writes (r, ê_a)
		a, err := m.p.Address(c.Addr, env)
		if err != nil {
			return nil, ev, err
		}
		v, err := m.p.Value(c.Val, env)
		if err != nil {
			return nil, ev, err
		}
		ev.Kind, ev.HasCell, ev.Cell = KStore, true, Cell{r, int(a)}
		next = s.clone()
		next.mem[(r-1)*m.nadr+int(a)] = v
	case OpAssign: // (assign): reg := ê
		v, err := m.p.Value(c.Val, env)
		if err != nil {
			return nil, ev, err
		}
		if c.Reg < 0 || c.Reg >= m.nregs {
			return nil, ev, fmt.Errorf("%v: internal error: register %d of %d", tr.Pos, c.Reg, m.nregs)
		}
		ev.Kind = KAssign
		next = s.clone()
		next.regs[(r-1)*m.nregs+c.Reg] = v
	case OpAssume: // (assume): enabled iff ê != 0
		ok, err := m.p.Holds(c.Val, env)
		if err != nil {
			return nil, ev, err
		}
		if !ok {
			return nil, ev, errBlocked
		}
		ev.Kind = KAssume
		next = s.clone()
	case OpRead, OpWrite:
		// (read) and (write): append a request to fa(r, ê_q). A write
		// copies (r, ê_loc) to (ê_rank, ê_rem); a read copies
		// (ê_rank, ê_rem) to (r, ê_loc).
		loc, err := m.p.Address(c.Local, env)
		if err != nil {
			return nil, ev, err
		}
		rk, err := m.p.RankOf(c.Rank, env)
		if err != nil {
			return nil, ev, err
		}
		rem, err := m.p.Address(c.Remote, env)
		if err != nil {
			return nil, ev, err
		}
		q, err := m.p.QueueOf(c.Queue, env)
		if err != nil {
			return nil, ev, err
		}
		if m.p.IsCtx(int(q)) {
			return nil, ev, fmt.Errorf("%v: internal error: %v on context %s", tr.Pos, c.Op, m.p.Queues[q])
		}
		local, remote := Cell{r, int(loc)}, Cell{int(rk), int(rem)}
		req := Request{Src: local, Dst: remote, Trans: t}
		ev.Kind = KWrite
		if c.Op == OpRead {
			req.Src, req.Dst = remote, local
			ev.Kind = KRead
		}
		ev.Queue = int(q)
		next = s.clone()
		next.ownQueues()
		i := (r-1)*m.nque + int(q)
		fa := make([]Request, len(s.fa[i]), len(s.fa[i])+1)
		copy(fa, s.fa[i])
		next.fa[i] = append(fa, req)
	default:
		return nil, ev, fmt.Errorf("%v: internal error: command %v is not executed by one rank", tr.Pos, c.Op)
	}
	next.st[r-1] = tr.To
	return next, ev, nil
}

// pop applies rule (popa) or (popb) to queue q of rank r.
func (m *Machine) pop(s *XState, kind MoveKind, r, q int) (*XState, Event, error) {
	i := (r-1)*m.nque + q
	next := s.clone()
	next.ownQueues()
	if kind == MovePopa {
		// (popa): take the head (src, dst) of fa(r,q), read m(src) and
		// append (dst, value) to fb(r,q). The event reads src.
		if len(s.fa[i]) == 0 {
			return nil, Event{}, fmt.Errorf("popa: queue fa(%d,%d) is empty", r, q)
		}
		h := s.fa[i][0]
		next.fa[i] = s.fa[i][1:len(s.fa[i]):len(s.fa[i])]
		fb := make([]Transfer, len(s.fb[i]), len(s.fb[i])+1)
		copy(fb, s.fb[i])
		next.fb[i] = append(fb, Transfer{Dst: h.Dst, Val: s.Mem(h.Src), Trans: h.Trans})
		return next, Event{Kind: KPopa, Rank: r, HasCell: true, Cell: h.Src, Trans: h.Trans, Queue: q}, nil
	}
	// (popb): take the head (dst, value) of fb(r,q) and write the value to
	// dst. The event writes dst.
	if len(s.fb[i]) == 0 {
		return nil, Event{}, fmt.Errorf("popb: queue fb(%d,%d) is empty", r, q)
	}
	h := s.fb[i][0]
	next.fb[i] = s.fb[i][1:len(s.fb[i]):len(s.fb[i])]
	next.mem[(h.Dst.Rank-1)*m.nadr+h.Dst.Addr] = h.Val
	return next, Event{Kind: KPopb, Rank: r, HasCell: true, Cell: h.Dst, Trans: h.Trans, Queue: q}, nil
}
