package pgas

import (
	"fmt"
	"strings"
	"testing"
)

const header = "values 3\naddress x, y, a[2]\nregister r, s\nqueue q, p\n"

// transitions prints the automaton of a compiled program without the
// header line of Program.String.
func transitions(p *Program) string {
	ls := make([]string, len(p.Trans))
	for i, t := range p.Trans {
		ls[i] = fmt.Sprintf("%s -> %s: %s", p.Labels[t.From], p.Labels[t.To], cmdText(p, t.Cmd))
	}
	return strings.Join(ls, "\n")
}

// cmdText is Program.CmdString with the guard of an await shown (CmdString
// shows it for an atomic, not for a load).
func cmdText(p *Program, c Cmd) string {
	if c.Guard != nil && c.Op == OpLoad {
		return p.CmdString(c) + " when " + c.Guard.String()
	}
	return p.CmdString(c)
}

func mustCompile(t *testing.T, src string) *Program {
	t.Helper()
	p, err := Compile("t.pgas", []byte(src))
	if err != nil {
		t.Fatalf("Compile:\n%s\nsource:\n%s", err, src)
	}
	return p
}

func lines(ls ...string) string { return strings.Join(ls, "\n") }

// TestCoreCommands checks that each core command of Figure 2 compiles to
// one transition with the expected operands. The names of control states
// are "@line" for unlabelled statements and "@end" after the last one.
func TestCoreCommands(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"load", "r <- mem[x]", "@5 -> @end: r <- mem[x]"},
		{"load parenthesised", "r <- (mem[a+1])", "@5 -> @end: r <- mem[a+1]"},
		{"nested parentheses", "r <- ((r + 1) * 2)", "@5 -> @end: r <- (r + 1) * 2"},
		{"store", "mem[y] <- r + 1", "@5 -> @end: mem[y] <- r + 1"},
		{"assign", "s <- (r * 2) % 3", "@5 -> @end: s <- (r * 2) % 3"},
		{"assume parens", "assume(r != s)", "@5 -> @end: assume(r != s)"},
		{"assume bare", "assume r < s && !s", "@5 -> @end: assume(r < s && !s)"},
		{"read", "read(x, rank % N + 1, y, q)", "@5 -> @end: read(x, rank % N + 1, y, q)"},
		{"write", "write(a+1, 1, a, p)", "@5 -> @end: write(a+1, 1, a, p)"},
		{"barrier", "barrier", "@5 -> @end: barrier"},
		{"unicode arrow", "r ← 2", "@5 -> @end: r <- 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, header+tt.body+"\n")
			if got := transitions(p); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestExprCode checks the postfix code, precedence and name resolution:
// registers are XReg, addresses and queues are their numbers (x=0, y=1,
// a=2, a+1=3; q=0, p=1).
func TestExprCode(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"1 + 2 * 3", "const 1 const 2 const 3 * +"},
		{"(1 + 2) * 3", "const 1 const 2 + const 3 *"},
		{"1 - 2 - 3", "const 1 const 2 - const 3 -"},
		{"r < s == s > r", "reg 0 reg 1 < reg 1 reg 0 > =="},
		{"r || s && !r", "reg 0 reg 1 reg 0 not && ||"},
		{"-r % 2", "reg 0 neg const 2 %"},
		{"a + 1 + p", "const 2 const 1 + const 1 +"},
		{"rank % N + y", "rank N % const 1 +"},
		{"r / 2 >= 1 != 0", "reg 0 const 2 / const 1 >= const 0 !="},
		{"- - r", "reg 0 neg neg"},
	}
	for _, tt := range tests {
		p := mustCompile(t, header+"assume "+tt.expr+"\n")
		got := describe(p.Trans[0].Cmd.Val.Code)
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// TestEvalAgreesWithGo evaluates compiled expressions against the same
// expressions computed by Go, which has C's precedence and truncated
// division, so the two must agree.
func TestEvalAgreesWithGo(t *testing.T) {
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	for r := int64(0); r < 3; r++ {
		for s := int64(0); s < 3; s++ {
			for rank := int64(1); rank <= 3; rank++ {
				n := int64(3)
				tests := []struct {
					expr string
					want int64
				}{
					{"r + s * 2 - rank", r + s*2 - rank},
					{"(r - s) * (rank - 2) / 2", (r - s) * (rank - 2) / 2},
					{"(r - 2) % 2", (r - 2) % 2},
					{"rank % N + 1", rank%n + 1},
					{"r < s || s == rank && !r", b(r < s || s == rank && r == 0)},
					{"-r + -(-s)", -r + s},
					{"r >= s != rank <= N", b((r >= s) != (rank <= n))},
				}
				for _, tt := range tests {
					p := mustCompile(t, header+"assume "+tt.expr+"\n")
					got, err := p.Trans[0].Cmd.Val.Eval(Env{Regs: []int64{r, s}, Rank: rank, N: n})
					if err != nil || got != tt.want {
						t.Errorf("%s with r=%d s=%d rank=%d: got %d, %v; want %d", tt.expr, r, s, rank, got, err, tt.want)
					}
				}
			}
		}
	}
}

// TestControlFlow checks labels, fall-through, goto, non-deterministic
// choice and the epsilon elimination of gotos. In every case the expected
// automaton is derived by hand from the rules of docs/language.md.
func TestControlFlow(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"fall through and stop", "r <- 1\ns <- 2", lines(
			"@5 -> @6: r <- 1",
			"@6 -> @end: s <- 2")},
		{"loop back to label", "L: r <- mem[x]\n   if r == 0 goto L\n   s <- r", lines(
			"L -> @6: r <- mem[x]",
			"@6 -> L: assume(r == 0)",
			"@6 -> @7: assume(!(r == 0))",
			"@7 -> @end: s <- r")},
		{"label on its own line", "L:\n r <- 1; goto L", "L -> L: r <- 1"},
		{"label at the end", "r <- 1; goto E\ns <- 1\nE:", "@5 -> E: r <- 1"},
		// Both statements labelled C start in C: a choice. The state
		// after them is E; the unlabelled "s <- 2" is unreachable and
		// pruned.
		{"choice by shared label", "C: r <- 1; goto E\nC: r <- 2; goto E\ns <- 2\nE: barrier", lines(
			"C -> E: r <- 1",
			"C -> E: r <- 2",
			"E -> @end: barrier")},
		// goto alone is an epsilon move: its state disappears and the
		// commands of both targets leave from the state before it.
		{"nondeterministic goto", "r <- 1\ngoto A, B\nA: s <- 1; goto E\nB: s <- 2\nE:", lines(
			"@5 -> @6: r <- 1",
			"@6 -> E: s <- 1",
			"@6 -> E: s <- 2")},
		{"goto with several targets", "r <- 1; goto A, B, A\nA: s <- 1\nB: s <- 2", lines(
			"@5 -> A: r <- 1",
			"@5 -> B: r <- 1",
			"A -> B: s <- 1",
			"B -> @end: s <- 2")},
		{"initial goto", "goto B\nA: r <- 1\nB: s <- 1; goto A", lines(
			"@5 -> A: s <- 1",
			"A -> B: r <- 1",
			"B -> A: s <- 1")},
		{"goto cycle without commands", "L: goto M\nM: goto L", ""},
		{"two labels one statement", "A: B: r <- 1; goto B", "A -> A: r <- 1"},
		{"labels on separate lines merge", "A:\nB:\n r <- 1; goto A", "A -> A: r <- 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, header+tt.body+"\n")
			if got := transitions(p); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			checkWellFormed(t, p)
		})
	}
}

// checkWellFormed checks the invariants every consumer of a Program relies
// on.
func checkWellFormed(t *testing.T, p *Program) {
	t.Helper()
	if p.Init < 0 || p.Init >= len(p.Labels) || len(p.Out) != len(p.Labels) {
		t.Fatalf("bad init %d or Out (%d) for %d states", p.Init, len(p.Out), len(p.Labels))
	}
	if len(p.Shadow) != len(p.Addrs) {
		t.Fatalf("Shadow has %d entries for %d addresses", len(p.Shadow), len(p.Addrs))
	}
	n := 0
	for q, out := range p.Out {
		for _, i := range out {
			n++
			if p.Trans[i].From != q {
				t.Fatalf("Out[%d] holds transition %d from %d", q, i, p.Trans[i].From)
			}
		}
	}
	if n != len(p.Trans) {
		t.Fatalf("Out lists %d transitions, Trans has %d", n, len(p.Trans))
	}
	// Every state is reachable from Init.
	seen := map[int]bool{p.Init: true}
	stack := []int{p.Init}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range p.Out[q] {
			if to := p.Trans[i].To; !seen[to] {
				seen[to] = true
				stack = append(stack, to)
			}
		}
	}
	if len(seen) != len(p.Labels) {
		t.Errorf("%d of %d states reachable", len(seen), len(p.Labels))
	}
	for _, tr := range p.Trans {
		c := tr.Cmd
		if tr.To < 0 || tr.To >= len(p.Labels) || tr.Pos.Line < 1 || tr.Text == "" {
			t.Errorf("bad transition %+v", tr)
		}
		if c.Guard != nil && c.Op != OpLoad && c.Op != OpAtomic {
			t.Errorf("guard on %s", p.CmdString(c))
		}
		if (c.Op == OpLoad || c.Op == OpAssign || c.Op == OpAtomic) != (c.Reg >= 0 && c.Reg < len(p.Regs)) {
			t.Errorf("bad register in %s", p.CmdString(c))
		}
		if c.Op.IsCtxOp() {
			checkCtxCmd(t, p, c)
			continue
		}
		for _, x := range []*Expr{c.Addr, c.Val, c.Local, c.Rank, c.Remote, c.Queue, c.Guard} {
			if x == nil {
				continue
			}
			if x.Src == "" || x.Pos.Line < 1 {
				t.Errorf("expression without source or position in %s", p.CmdString(c))
			}
			_, err := x.Eval(Env{Regs: make([]int64, len(p.Regs)), Rank: 1, N: 2})
			if err != nil {
				if _, ok := err.(*RangeError); !ok {
					t.Errorf("%s: %v", p.CmdString(c), err)
				}
			}
		}
		want := map[Op][]bool{ // Addr, Val, Local/Rank/Remote/Queue
			OpLoad: {true, false, false}, OpStore: {true, true, false}, OpAssign: {false, true, false},
			OpAssume: {false, true, false}, OpRead: {false, false, true}, OpWrite: {false, false, true},
			OpBarrier: {false, false, false},
		}[c.Op]
		has := []bool{c.Addr != nil, c.Val != nil, c.Local != nil && c.Rank != nil && c.Remote != nil && c.Queue != nil}
		for k := range want {
			if want[k] != has[k] {
				t.Errorf("operands of %s: have %v, want %v", p.CmdString(c), has, want)
				break
			}
		}
	}
}

// checkCtxCmd checks the operands of an OpenSHMEM command: its context is
// a constant naming a context, and it has the operands its op needs.
func checkCtxCmd(t *testing.T, p *Program, c Cmd) {
	t.Helper()
	if c.Queue == nil {
		t.Fatalf("%s has no context", p.CmdString(c))
	}
	if v, ok := c.Queue.Const(); !ok || !p.IsCtx(int(v)) {
		t.Errorf("%s: context operand is not a context id", p.CmdString(c))
	}
	target := c.Rank != nil && c.Remote != nil
	ok := c.Addr == nil
	switch c.Op {
	case OpFence, OpQuiet:
		ok = ok && c.Rank == nil && c.Local == nil && c.Val == nil
	case OpSend:
		ok = ok && target && (c.Local == nil) != (c.Val == nil) && (c.Amo == AmoNone || c.Amo == AmoAdd || c.Amo.Bitwise())
	case OpRecv:
		ok = ok && target && c.Local != nil && c.Val == nil
	case OpAtomic:
		ok = ok && target && c.Local == nil && (c.Val == nil) == (c.Amo == AmoFetch) && (c.Val2 != nil) == (c.Amo == AmoCSwap)
	}
	if !ok {
		t.Errorf("operands of %s", p.CmdString(c))
	}
}

func TestDeclarations(t *testing.T) {
	p := mustCompile(t, "# c\nprogram demo # name\nvalues 4\naddress x, buf[3], z\naddress w\nregister r, s\nqueue q\n")
	if p.Name != "demo" || p.Values != 4 {
		t.Errorf("name %q values %d", p.Name, p.Values)
	}
	if got := strings.Join(p.Addrs, " "); got != "x buf buf+1 buf+2 z w" {
		t.Errorf("addresses %q", got)
	}
	if got := strings.Join(p.Regs, " "); got != "r s" {
		t.Errorf("registers %q", got)
	}
	if len(p.Labels) != 1 || len(p.Trans) != 0 || p.Labels[0] != "@end" {
		t.Errorf("empty program: states %v, %d transitions", p.Labels, len(p.Trans))
	}
	// Array elements are consecutive addresses: buf+2 is 3.
	q := mustCompile(t, "values 2\naddress x, buf[3]\n mem[buf+2] <- 1\n")
	if v, _ := q.Trans[0].Cmd.Addr.Const(); v != 3 {
		t.Errorf("buf+2 = %d, want 3", v)
	}
}

func TestPositionsAndText(t *testing.T) {
	p := mustCompile(t, header+"L:  mem[y] <- r + 1 ; goto L # comment\n")
	tr := p.Trans[0]
	if tr.Pos.String() != "t.pgas:5:5" || tr.Text != "mem[y] <- r + 1" {
		t.Errorf("pos %v text %q", tr.Pos, tr.Text)
	}
	if tr.Cmd.Val.Pos.String() != "t.pgas:5:15" || tr.Cmd.Addr.Pos.String() != "t.pgas:5:9" {
		t.Errorf("expr positions %v %v", tr.Cmd.Val.Pos, tr.Cmd.Addr.Pos)
	}
}

// describe prints code compactly, one instruction after another.
func describe(code []Instr) string {
	parts := make([]string, len(code))
	for i, in := range code {
		parts[i] = in.String()
	}
	return strings.Join(parts, " ")
}
