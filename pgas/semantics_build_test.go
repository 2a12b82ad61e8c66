package pgas_test

// A small builder of compiled programs for tests, so that the semantics can
// be tested without the parser. The same file (with another package clause)
// lives in pgas/oracle.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"pgasrob/pgas"
)

type progBuilder struct {
	p      *pgas.Program
	labels map[string]int
	line   int
}

// newProg starts a program with DOM = 0..values-1 and the given names.
func newProg(name string, values int, addrs, regs, queues []string) *progBuilder {
	b := &progBuilder{
		p: &pgas.Program{
			Name: name, File: name + ".pgas", Values: values,
			Addrs: addrs, Regs: regs, Queues: queues, Shadow: make([]bool, len(addrs)),
		},
		labels: map[string]int{},
	}
	b.state("start")
	return b
}

func (b *progBuilder) state(name string) int {
	if q, ok := b.labels[name]; ok {
		return q
	}
	b.labels[name] = len(b.p.Labels)
	b.p.Labels = append(b.p.Labels, name)
	b.p.Out = append(b.p.Out, nil)
	return b.labels[name]
}

// e compiles an expression written in postfix: integers, rank, N, register
// names, address and queue names (their numbers), and the operators
// + - * / % == != < <= > >= && || neg not.
func (b *progBuilder) e(src string) *pgas.Expr {
	ops := map[string]pgas.ExprOp{
		"+": pgas.XAdd, "-": pgas.XSub, "*": pgas.XMul, "/": pgas.XDiv, "%": pgas.XMod,
		"==": pgas.XEq, "!=": pgas.XNe, "<": pgas.XLt, "<=": pgas.XLe, ">": pgas.XGt, ">=": pgas.XGe,
		"&&": pgas.XAnd, "||": pgas.XOr, "neg": pgas.XNeg, "not": pgas.XNot,
	}
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

// Commands, in a notation close to the paper's.

func (b *progBuilder) load(reg, addr string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpLoad, Reg: index(b.p.Regs, reg), Addr: b.e(addr)}
}

// await is the guarded load reg <- mem[addr] when guard (Cmd.Guard).
func (b *progBuilder) await(reg, addr, guard string) pgas.Cmd {
	c := b.load(reg, addr)
	c.Guard = b.e(guard)
	return c
}
func (b *progBuilder) store(addr, val string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: b.e(addr), Val: b.e(val)}
}
func (b *progBuilder) assign(reg, val string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpAssign, Reg: index(b.p.Regs, reg), Val: b.e(val)}
}
func (b *progBuilder) assume(cond string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpAssume, Reg: -1, Val: b.e(cond)}
}
func (b *progBuilder) read(loc, rank, rem, q string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpRead, Reg: -1, Local: b.e(loc), Rank: b.e(rank), Remote: b.e(rem), Queue: b.e(q)}
}
func (b *progBuilder) write(loc, rank, rem, q string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpWrite, Reg: -1, Local: b.e(loc), Rank: b.e(rank), Remote: b.e(rem), Queue: b.e(q)}
}
func barrier() pgas.Cmd { return pgas.Cmd{Op: pgas.OpBarrier, Reg: -1} }

// edge adds the transition from --c--> to and returns its index.
func (b *progBuilder) edge(from, to string, c pgas.Cmd) int {
	b.line++
	q1, q2 := b.state(from), b.state(to)
	t := len(b.p.Trans)
	b.p.Trans = append(b.p.Trans, pgas.Trans{
		From: q1, To: q2, Cmd: c,
		Pos:  pgas.Pos{File: b.p.File, Line: b.line, Col: 1},
		Text: b.p.CmdString(c),
	})
	b.p.Out[q1] = append(b.p.Out[q1], t)
	return t
}

// seq adds a straight line of commands start -> l1 -> l2 ... and returns the
// transition indices.
func (b *progBuilder) seq(cmds ...pgas.Cmd) []int {
	var ts []int
	from := "start"
	for i, c := range cmds {
		to := fmt.Sprintf("l%d", i+1)
		ts = append(ts, b.edge(from, to, c))
		from = to
	}
	return ts
}

func (b *progBuilder) build() *pgas.Program { return b.p }

// randomProg builds a small random program: nranks-independent code over
// two addresses, one register, two queues and DOM = {0,1}, every command
// kind included, loop-free when loops is false. Expressions stay in their
// domains except where bad is true, which lets range errors happen.
func randomProg(rng *rand.Rand, ncmds int, loops, bad bool) *pgas.Program {
	b := newProg("rnd", 2, []string{"x", "y"}, []string{"r"}, []string{"q0", "q1"})
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
			c = b.load("r", addr())
		case 1:
			c = b.store(addr(), pick("0", "1", "r", "1 r -"))
		case 2:
			c = b.assign("r", pick("0", "1", "1 r -", "rank 1 -"))
		case 3:
			c = b.assume(pick("r", "r 0 ==", "1"))
		case 4:
			c = b.read(addr(), rnk(), addr(), pick("q0", "q1"))
		case 5:
			c = b.write(addr(), rnk(), addr(), pick("q0", "q1"))
		case 6:
			c = barrier()
		case 7:
			c = b.write(addr(), rnk(), addr(), "q0")
		}
		from, to := state(i), state(i+1)
		if loops && rng.IntN(4) == 0 {
			to = state(rng.IntN(i + 1))
		}
		b.edge(from, to, c)
		if rng.IntN(5) == 0 { // a second choice at the same state
			b.edge(from, state(i+1), b.assign("r", pick("0", "1")))
		}
	}
	return b.build()
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

func sortEvents(evs []pgas.Event) {
	slices.SortFunc(evs, func(a, b pgas.Event) int { return strings.Compare(fmt.Sprintf("%+v", a), fmt.Sprintf("%+v", b)) })
}
