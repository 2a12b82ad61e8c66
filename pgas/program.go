package pgas

import (
	"fmt"
	"strings"
)

// Pos is a source position. Line and Col count from 1; Col counts bytes.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Op is the kind of a core command (Figure 2 of pgas-theory-full.md).
type Op uint8

const (
	OpLoad    Op = iota // Reg <- mem[Addr]
	OpStore             // mem[Addr] <- Val
	OpAssign            // Reg <- Val
	OpAssume            // assume(Val)
	OpRead              // read(Local, Rank, Remote, Queue)
	OpWrite             // write(Local, Rank, Remote, Queue)
	OpBarrier           // barrier

	// The OpenSHMEM commands (docs/shmem-calculus.md). They act on a
	// context: a queue id whose Program.Ctx entry is true. A context's
	// items are delivered in any order, except as fences order them.
	OpSend   // send(Local|Val, Rank, Remote, Queue): a put, a non-fetching atomic or a signal
	OpRecv   // recv(Local, Rank, Remote, Queue): a non-blocking get
	OpFence  // fence(Queue)
	OpQuiet  // quiet(Queue): enabled when no item of the context is pending
	OpAtomic // Reg <- atomic(Amo, Rank, Remote, Val, Cmp, Queue): a fetching atomic, done at once
)

var opNames = [...]string{"load", "store", "assign", "assume", "read", "write", "barrier",
	"send", "recv", "fence", "quiet", "atomic"}

// AmoOp is what an atomic does to its target cell. Arithmetic is modulo
// |DOM| (values are Lo..Hi()), so an atomic never leaves the domain.
type AmoOp uint8

const (
	AmoNone  AmoOp = iota // OpSend: a plain write of the value
	AmoAdd                // old + Val
	AmoSwap               // Val (OpAtomic: returns the old value)
	AmoCSwap              // Val if old == Cmp, else old (OpAtomic only)
	AmoFetch              // old, unchanged (OpAtomic only): an atomic read
	AmoAnd                // old & Val (bitwise; OpSend and OpAtomic, as AmoAdd)
	AmoOr                 // old | Val
	AmoXor                // old ^ Val
)

var amoNames = [...]string{"none", "add", "swap", "cswap", "fetch", "and", "or", "xor"}

// Bitwise reports whether a is AmoAnd, AmoOr or AmoXor.
func (a AmoOp) Bitwise() bool { return a == AmoAnd || a == AmoOr || a == AmoXor }

func (a AmoOp) String() string {
	if int(a) < len(amoNames) {
		return amoNames[a]
	}
	return fmt.Sprintf("AmoOp(%d)", uint8(a))
}

// IsCtxOp reports whether o is one of the OpenSHMEM commands, which act on
// a context rather than on a FIFO queue.
func (o Op) IsCtxOp() bool { return o >= OpSend && o <= OpAtomic }

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Cmd is one core command. Which fields are used depends on Op; the others
// are nil (expressions) or -1 (Reg).
type Cmd struct {
	Op   Op
	Reg  int   // OpLoad, OpAssign: destination register
	Addr *Expr // OpLoad, OpStore: local address
	Val  *Expr // OpStore, OpAssign: value; OpAssume: condition
	// Guard, for OpLoad only, makes the load an atomic await: it can
	// execute only when Guard, evaluated with Reg already holding the
	// loaded value, is non-zero. A failed poll produces no event. This
	// extends Figure 2 (docs/deviations.md): waiting by a plain load and
	// assume is itself a happens-before cycle.
	Guard *Expr
	// OpRead and OpWrite. A write copies mem[Local] of the issuing rank to
	// mem[Remote] of rank Rank; a read copies mem[Remote] of rank Rank to
	// mem[Local] of the issuing rank. Both go through queue Queue of the
	// issuing rank.
	Local, Rank, Remote, Queue *Expr

	// The OpenSHMEM commands (Op.IsCtxOp). Queue names the context. Rank
	// and Remote name the target cell (k, m).
	//
	// OpSend delivers a value to (k, m): mem[Local] of the issuer, read by
	// the item's popa, or, when Local is nil, Val evaluated at issue (the
	// item then has no popa). Amo = AmoAdd (or AmoAnd, AmoOr, AmoXor) makes the delivery add the value
	// to the cell (a non-fetching atomic); its popb then reads and writes
	// the cell. Blocking makes the popa happen with the issue (a blocking
	// put returns once its source has been read: local completion). After
	// makes the item's popb wait for the popb of the rank's previous OpSend
	// (put-with-signal: the signal is delivered after its data); the
	// compiler puts the two sends next to each other. Chain makes a send
	// part of the same put-with-signal call as the rank's previous send
	// (its data of several elements): an After send then waits for every
	// send of the current chain, the rank's last send without Chain and
	// the Chain sends issued after it. Chain on an After send, or on the
	// rank's first send, is ignored: that send starts a chain of its own.
	//
	// OpRecv copies mem[Remote] of rank Rank to mem[Local] of the issuer:
	// popa reads the remote cell, popb writes the local one. Fences do not
	// order it; quiet completes it.
	//
	// OpAtomic reads (k, m), writes Amo's result to it and puts the old
	// value into Reg, all in one event, once no item sent to rank k on the
	// context before the last fence is still undelivered. Val is the
	// operand (nil for AmoFetch), Cmp the comparand of AmoCSwap. Guard, if
	// set, makes it an atomic await, as for a load: it executes only when
	// Guard holds with Reg = the old value.
	Val2     *Expr // OpAtomic: Cmp, the comparand of AmoCSwap
	Amo      AmoOp
	Blocking bool
	After    bool
	Chain    bool
	// Set, for OpBarrier, is the set of ranks the barrier synchronises
	// (BarrierSet); nil for every rank.
	Set []RankRange
}

// Trans is a transition q1 --cmd--> q2 of the program code.
type Trans struct {
	From, To int
	Cmd      Cmd
	Pos      Pos    // where the command (or the sugar it came from) is written
	Text     string // the source text of the command, for witnesses
	Sugar    string // non-empty if the transition was produced by expanding sugar: the sugar's name
}

// Program is a checked and compiled PGAS program code P (Section 2.2): a
// finite automaton over commands, run by every rank 1..N. All control
// states are final. Registers, addresses and queues are numbered from 0 in
// declaration order; DOM is Lo..Hi(), with Lo <= 0 < Hi().
type Program struct {
	Name   string
	File   string
	Values int   // |DOM|: values are Lo..Lo+Values-1
	Lo     int64 // the least value: 0 for "values K", LO for "values LO..HI"
	// Widen is set by a front end that inferred the domain rather than
	// read it from the user (pgas/cfront without "#pragma pgasrob
	// values"): a value outside Lo..Hi() is then not the program's error
	// but a domain too small, and the decision retries with a wider one
	// (docs/shmem-calculus.md, "Inferred domains"). nil for a declared
	// domain.
	Widen  *Widening
	Addrs  []string // ADR: address i is named Addrs[i]
	Regs   []string // REG
	Queues []string // QUE
	// Ctx[i] is true when queue id i is an OpenSHMEM context rather than
	// a FIFO queue (nil when the program declares no context).
	Ctx []bool
	// Shadow[i] is true for address i when the compiler introduced it for
	// an API idiom (a handle or queue completion flag), not the user.
	Shadow []bool
	Labels []string // control states Q; Labels[Init] is q0
	Init   int
	Trans  []Trans
	Out    [][]int // Out[q] lists the indices of the transitions leaving q
	// Dialect is the source language of File: "" for .pgas, "c" for a C
	// program translated by pgas/cfront (docs/shmem.md). Renderers switch
	// on it to speak the user's terms (PE p for rank p+1, a cell as
	// name@PEp); it changes nothing in the semantics.
	Dialect string
	// Warnings are facts about the input that make an answer weaker than
	// it looks (a program or PE that communicates nothing, code removed by
	// a macro the front end predefines). A front end sets them; every
	// renderer shows them, in text and in --json ("warnings").
	Warnings []Diag
	// Assumptions are the modelling choices this program exercises, in the
	// order of docs/shmem.md, "What you are assuming when the answer is
	// ROBUST"; renderers list them in --json ("assumptions") and point to
	// them in one line of text.
	Assumptions []Assumption
}

// Diag is a message at a position of the source.
type Diag struct {
	Pos Pos
	Msg string
}

// Assumption is a modelling choice a verdict rests on: a stable ID (for
// tools) and one sentence for people.
type Assumption struct {
	ID   string
	Text string
}

// RangeError reports a value outside its domain, or a division by zero. It
// is a run-time error of the program: the command cannot execute. What
// "atomic" is the exception: an atomic add whose result Val is outside
// Min..Max. The add executes anyway (modulo values: X stays total), and the
// step that wrapped reports it (Step.Wrap, Machine.ApplyWrap, Wraps).
type RangeError struct {
	Pos  Pos
	What string // "value", "address", "rank", "queue", "division", "atomic", "barrier"
	Val  int64
	Min  int64 // the domain is Min..Max (Min is 0 but for values and ranks)
	Max  int64
}

func (e *RangeError) Error() string {
	switch e.What {
	case "division":
		return fmt.Sprintf("%v: division by zero", e.Pos)
	case "rank":
		return fmt.Sprintf("%v: rank %d outside 1..%d", e.Pos, e.Val, e.Max)
	case "barrier":
		if e.Min == 0 {
			return fmt.Sprintf("%v: rank %d takes a barrier over no rank (its set is empty for N = %d)", e.Pos, e.Val, e.Max)
		}
		return fmt.Sprintf("%v: rank %d takes a barrier over %v (of 1..%d), a set without it: only its members may take it", e.Pos, e.Val, RankMask(e.Min), e.Max)
	case "atomic":
		return fmt.Sprintf("%v: atomic add result %d outside %d..%d (raise values)", e.Pos, e.Val, e.Min, e.Max)
	}
	return fmt.Sprintf("%v: %s %d outside %d..%d", e.Pos, e.What, e.Val, e.Min, e.Max)
}

// Env is what an expression reads: the registers of the executing rank, its
// rank and the number of ranks N.
type Env struct {
	Regs []int64
	Rank int64
	N    int64
}

// IsCtx reports whether queue id q is an OpenSHMEM context.
func (p *Program) IsCtx(q int) bool { return q >= 0 && q < len(p.Ctx) && p.Ctx[q] }

// HasCtx reports whether the program uses any OpenSHMEM command.
func (p *Program) HasCtx() bool {
	for _, t := range p.Trans {
		if t.Cmd.Op.IsCtxOp() {
			return true
		}
	}
	return false
}

// Value evaluates e and checks the result is in DOM.
func (p *Program) Value(e *Expr, env Env) (int64, error) {
	return p.check(e, env, "value", p.Lo, p.Hi())
}

// Address evaluates e and checks the result is a declared address.
func (p *Program) Address(e *Expr, env Env) (int64, error) {
	return p.check(e, env, "address", 0, int64(len(p.Addrs)-1))
}

// RankOf evaluates e and checks the result is a rank 1..N.
func (p *Program) RankOf(e *Expr, env Env) (int64, error) {
	return p.check(e, env, "rank", 1, env.N)
}

// QueueOf evaluates e and checks the result is a declared queue.
func (p *Program) QueueOf(e *Expr, env Env) (int64, error) {
	return p.check(e, env, "queue", 0, int64(len(p.Queues)-1))
}

// Holds evaluates a condition: true iff the value is non-zero.
func (p *Program) Holds(e *Expr, env Env) (bool, error) {
	v, err := e.Eval(env)
	return v != 0, err
}

func (p *Program) check(e *Expr, env Env, what string, lo, hi int64) (int64, error) {
	v, err := e.Eval(env)
	if err != nil {
		return 0, err
	}
	if v < lo || v > hi {
		return 0, &RangeError{Pos: e.Pos, What: what, Val: v, Min: lo, Max: hi}
	}
	return v, nil
}

// String prints the program as a list of transitions, for debugging and
// for golden tests of the sugar expansions.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program %s: values %d..%d, addresses %v, registers %v, queues %v, init %s\n",
		p.Name, p.Lo, p.Hi(), p.Addrs, p.Regs, p.Queues, p.Labels[p.Init])
	for _, t := range p.Trans {
		fmt.Fprintf(&b, "  %s -> %s: %s\n", p.Labels[t.From], p.Labels[t.To], p.CmdString(t.Cmd))
	}
	return b.String()
}

// CmdString prints a command in the core syntax.
func (p *Program) CmdString(c Cmd) string {
	reg := func(i int) string {
		if i >= 0 && i < len(p.Regs) {
			return p.Regs[i]
		}
		return fmt.Sprintf("r%d", i)
	}
	switch c.Op {
	case OpLoad:
		return fmt.Sprintf("%s <- mem[%s]", reg(c.Reg), c.Addr)
	case OpStore:
		return fmt.Sprintf("mem[%s] <- %s", c.Addr, c.Val)
	case OpAssign:
		return fmt.Sprintf("%s <- %s", reg(c.Reg), c.Val)
	case OpAssume:
		return fmt.Sprintf("assume(%s)", c.Val)
	case OpRead, OpWrite:
		return fmt.Sprintf("%s(%s, %s, %s, %s)", c.Op, c.Local, c.Rank, c.Remote, c.Queue)
	case OpBarrier:
		if c.Set != nil {
			return "barrier " + setString(c.Set)
		}
		return "barrier"
	case OpSend:
		src := fmt.Sprint(c.Val)
		if c.Local != nil {
			src = "mem[" + c.Local.String() + "]"
		}
		flags := ""
		if c.Blocking {
			flags += " blocking"
		}
		if c.After {
			flags += " after"
		}
		if c.Chain {
			flags += " chain"
		}
		return fmt.Sprintf("send%s(%s %s, %s, %s, %s)", flags, c.Amo, src, c.Rank, c.Remote, c.Queue)
	case OpRecv:
		return fmt.Sprintf("recv(%s, %s, %s, %s)", c.Local, c.Rank, c.Remote, c.Queue)
	case OpFence, OpQuiet:
		return fmt.Sprintf("%s %s", c.Op, c.Queue)
	case OpAtomic:
		s := fmt.Sprintf("%s <- atomic(%s, %s, %s, %v, %v, %s)", reg(c.Reg), c.Amo, c.Rank, c.Remote, c.Val, c.Val2, c.Queue)
		if c.Guard != nil {
			s += fmt.Sprintf(" when %s", c.Guard)
		}
		return s
	}
	return c.Op.String()
}
