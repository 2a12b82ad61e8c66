package progbuild

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// Builder accumulates the control states and transitions of one program.
type Builder struct {
	p      *pgas.Program
	labels map[string]int
	line   int
}

// New starts a program with DOM = 0..values-1 and the given names. The
// state "start" is created first so that it is the initial state (index 0).
func New(name string, values int, addrs, regs, queues []string) *Builder {
	b := &Builder{
		p: &pgas.Program{
			Name: name, File: name + ".pgas", Values: values,
			Addrs: addrs, Regs: regs, Queues: queues, Shadow: make([]bool, len(addrs)),
		},
		labels: map[string]int{},
	}
	b.State("start")
	return b
}

// State returns the index of the control state called name, creating it on
// first use, so states can be referred to before their transitions exist.
func (b *Builder) State(name string) int {
	if q, ok := b.labels[name]; ok {
		return q
	}
	b.labels[name] = len(b.p.Labels)
	b.p.Labels = append(b.p.Labels, name)
	b.p.Out = append(b.p.Out, nil)
	return b.labels[name]
}

// E compiles an expression written in postfix: integers, rank, N, register
// names, address and queue names (their numbers), and the operators
// + - * / % == != < <= > >= && || neg not. It panics on an unknown token:
// that is a bug in the test, not a case to handle.
func (b *Builder) E(src string) *pgas.Expr {
	ops := map[string]pgas.ExprOp{
		"+": pgas.XAdd, "-": pgas.XSub, "*": pgas.XMul, "/": pgas.XDiv, "%": pgas.XMod,
		"==": pgas.XEq, "!=": pgas.XNe, "<": pgas.XLt, "<=": pgas.XLe, ">": pgas.XGt, ">=": pgas.XGe,
		"&&": pgas.XAnd, "||": pgas.XOr, "neg": pgas.XNeg, "not": pgas.XNot,
	}
	// Line is that of the next transition, so that errors point at it.
	x := &pgas.Expr{Src: src, Pos: pgas.Pos{File: b.p.File, Line: b.line + 1, Col: 1}}
	for _, tok := range strings.Fields(src) {
		var in pgas.Instr
		if op, ok := ops[tok]; ok {
			in.Op = op
		} else if v, err := strconv.ParseInt(tok, 10, 64); err == nil {
			in = pgas.Instr{Op: pgas.XConst, Arg: v}
		} else if tok == "rank" {
			in.Op = pgas.XRank
		} else if tok == "N" {
			in.Op = pgas.XN
		} else if i := index(b.p.Regs, tok); i >= 0 {
			in = pgas.Instr{Op: pgas.XReg, Arg: int64(i)}
		} else if i := index(b.p.Addrs, tok); i >= 0 {
			in = pgas.Instr{Op: pgas.XConst, Arg: int64(i)}
		} else if i := index(b.p.Queues, tok); i >= 0 {
			in = pgas.Instr{Op: pgas.XConst, Arg: int64(i)}
		} else {
			panic("test program: unknown token " + tok)
		}
		x.Code = append(x.Code, in)
	}
	return x
}

func index(names []string, s string) int {
	for i, n := range names {
		if n == s {
			return i
		}
	}
	return -1
}

// Commands, in a notation close to the paper's. Operands are expressions
// for E; register operands are register names.

// Load is reg <- mem[addr].
func (b *Builder) Load(reg, addr string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpLoad, Reg: index(b.p.Regs, reg), Addr: b.E(addr)}
}

// Await is the guarded load reg <- mem[addr] when guard (Cmd.Guard).
func (b *Builder) Await(reg, addr, guard string) pgas.Cmd {
	c := b.Load(reg, addr)
	c.Guard = b.E(guard)
	return c
}

// Store is mem[addr] := val.
func (b *Builder) Store(addr, val string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: b.E(addr), Val: b.E(val)}
}

// Assign is reg := val.
func (b *Builder) Assign(reg, val string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpAssign, Reg: index(b.p.Regs, reg), Val: b.E(val)}
}

// Assume is assume(cond).
func (b *Builder) Assume(cond string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpAssume, Reg: -1, Val: b.E(cond)}
}

// Read is read(loc, rank, rem, q): copy rem of rank into the own loc.
func (b *Builder) Read(loc, rank, rem, q string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpRead, Reg: -1, Local: b.E(loc), Rank: b.E(rank), Remote: b.E(rem), Queue: b.E(q)}
}

// Write is write(loc, rank, rem, q): copy the own loc into rem of rank.
func (b *Builder) Write(loc, rank, rem, q string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpWrite, Reg: -1, Local: b.E(loc), Rank: b.E(rank), Remote: b.E(rem), Queue: b.E(q)}
}

// Barrier is the barrier command; it needs no builder as it has no operands.
func Barrier() pgas.Cmd { return pgas.Cmd{Op: pgas.OpBarrier, Reg: -1} }

// Edge adds the transition from --c--> to and returns its index. Each
// transition gets its own line so that positions in messages tell them apart.
func (b *Builder) Edge(from, to string, c pgas.Cmd) int {
	b.line++
	q1, q2 := b.State(from), b.State(to)
	t := len(b.p.Trans)
	b.p.Trans = append(b.p.Trans, pgas.Trans{
		From: q1, To: q2, Cmd: c,
		Pos:  pgas.Pos{File: b.p.File, Line: b.line, Col: 1},
		Text: b.p.CmdString(c),
	})
	b.p.Out[q1] = append(b.p.Out[q1], t)
	return t
}

// Seq adds a straight line of commands start -> l1 -> l2 ... and returns the
// transition indices, for tests that name events by transition.
func (b *Builder) Seq(cmds ...pgas.Cmd) []int {
	var ts []int
	from := "start"
	for i, c := range cmds {
		to := fmt.Sprintf("l%d", i+1)
		ts = append(ts, b.Edge(from, to, c))
		from = to
	}
	return ts
}

// Build returns the program built so far. It is not copied: further calls
// on b change it.
func (b *Builder) Build() *pgas.Program { return b.p }

// Random builds a small random program: nranks-independent code over
// two addresses, one register, two queues and DOM = {0,1}, every command
// kind included, loop-free when loops is false. Expressions stay in their
// domains except where bad is true, which lets range errors happen.
//
// Tests depend on the exact sequence of programs drawn for a seed (fixed
// seeds, and failures reported by seed), so the order and number of rng
// calls here must not change.
func Random(rng *rand.Rand, ncmds int, loops, bad bool) *pgas.Program {
	b := New("rnd", 2, []string{"x", "y"}, []string{"r"}, []string{"q0", "q1"})
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	addr := func() string { return pick("x", "y", "r", "r 1 -") } // r is 0 or 1
	rnk := func() string { return pick("1", "rank", "rank N % 1 +") }
	if bad {
		addr = func() string { return pick("x", "y", "r", "r 1 +") }
	}
	state := func(i int) string {
		if i == 0 {
			return "start"
		}
		return fmt.Sprintf("s%d", i)
	}
	for i := 0; i < ncmds; i++ {
		var c pgas.Cmd
		switch rng.IntN(8) {
		case 0:
			c = b.Load("r", addr())
		case 1:
			c = b.Store(addr(), pick("0", "1", "r", "1 r -"))
		case 2:
			c = b.Assign("r", pick("0", "1", "1 r -", "rank 1 -"))
		case 3:
			c = b.Assume(pick("r", "r 0 ==", "1"))
		case 4:
			c = b.Read(addr(), rnk(), addr(), pick("q0", "q1"))
		case 5:
			c = b.Write(addr(), rnk(), addr(), pick("q0", "q1"))
		case 6:
			c = Barrier()
		case 7:
			c = b.Write(addr(), rnk(), addr(), "q0")
		}
		from, to := state(i), state(i+1)
		if loops && rng.IntN(4) == 0 {
			to = state(rng.IntN(i + 1))
		}
		b.Edge(from, to, c)
		if rng.IntN(5) == 0 { // a second choice at the same state
			b.Edge(from, state(i+1), b.Assign("r", pick("0", "1")))
		}
	}
	return b.Build()
}

// NewRand returns a generator determined by one number (the PCG's second
// word is derived from it), so that a test can take or report a single seed
// that reproduces its programs.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// SortEvents puts events in a canonical order (by their printed form), for
// comparing sets of events that come out in no particular order.
func SortEvents(evs []pgas.Event) {
	slices.SortFunc(evs, func(a, b pgas.Event) int { return strings.Compare(fmt.Sprintf("%+v", a), fmt.Sprintf("%+v", b)) })
}
