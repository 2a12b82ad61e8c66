package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Config shapes random programs. Zero fields take the defaults in brackets.
type Config struct {
	Addrs  int  // user addresses [2]
	Values int  // |DOM| [2]
	Queues int  // queues [1]
	Regs   int  // registers [1]
	Cmds   int  // most statements per program, not counting labels [4]
	Loops  bool // allow backward jumps (the program may loop)
	// RangeErrors allows address expressions that can go out of range at
	// run time, so that run-time errors are reachable in some programs.
	RangeErrors bool
	// Shmem mixes in the OpenSHMEM statements of docs/shmem-calculus.md:
	// one or two contexts, puts, gets, fences, quiets, atomics, puts with
	// signal and awaits. Without it the programs are those of before,
	// seed for seed.
	Shmem bool
	// SignalElems, with Shmem, is the most data elements of a put with
	// signal (its optional element count); 0 or 1 keeps one, and the
	// programs of before, seed for seed.
	SignalElems int
	// Atomics, with Shmem, makes three quarters of the statements of
	// OpenSHMEM (and those three quarters of all)
	// non-fetching atomics that may commute (amo_add, amo_inc, amo_and,
	// amo_or, amo_xor, put_signal_add) on the first address, so that two
	// of them on one cell are common (docs/deviations.md, entry 14).
	// Without it the programs are those of before, seed for seed.
	Atomics bool
	// Wide declares a window "values LO..HI" with negative and large
	// values (one of Windows, or Window if set) and draws constants among
	// the sentinels programs use: LO, -1, 0, 1, 2, 1337, HI-1, HI (those
	// inside the window). Values moves nothing then. Without it the
	// programs are those of before, seed for seed.
	Wide bool
	// SubsetBarriers makes half of the barriers, and one statement in
	// ten besides, barriers over part of the ranks (docs/shmem-calculus.md,
	// "Barriers over a set of ranks"):
	// a set written with N, such as {1..(N+1)/2} or {1, N}, mostly inside
	// "if" on exactly its members, sometimes bare (a rank outside it then
	// meets a run-time error, which both procedures must report). It
	// draws more numbers: the programs differ from those without it.
	SubsetBarriers bool
	// Window, with Wide, fixes the window (LO <= 0 < HI); zero picks one
	// of Windows per program.
	Window [2]int64
}

// Windows are the windows Wide picks from: small and negative, C's
// int, the -1 and 1337 sentinels, the checker's widest.
var Windows = [][2]int64{{-3, 2}, {-1, 1337}, {-2147483648, 2147483647}, {0, 2147483647}, {-4294967296, 4294967296}}

func (c Config) withDefaults() Config {
	if c.Addrs <= 0 {
		c.Addrs = 2
	}
	if c.Values < 2 {
		c.Values = 2
	}
	if c.Queues <= 0 {
		c.Queues = 1
	}
	if c.Regs <= 0 {
		c.Regs = 1
	}
	if c.Cmds <= 0 {
		c.Cmds = 4
	}
	return c
}

// Program is a generated program as a small syntax tree that renders to
// source text (String) and that the shrinker edits.
type Program struct {
	Name   string
	Values int
	// Lo..Hi is the window when Hi > 0 (Config.Wide); Values is 0 then.
	Lo, Hi int64
	Addrs  []string
	Regs   []string
	Queues []string
	// Contexts are declared after the queues (Config.Shmem).
	Contexts []string
	Stmts    []*Stmt
	// EndLabels name the point after the last statement.
	EndLabels []string
}

// Kind is the kind of a generated statement.
type Kind uint8

const (
	SLoad    Kind = iota // Reg <- mem[Args[0]]
	SStore               // mem[Args[0]] <- Args[1]
	SAssign              // Reg <- Args[0]
	SAssume              // assume Args[0]
	SAssert              // assert mem[Args[0]] == Args[1]
	SRead                // read(Args...) [-> Handle]
	SWrite               // write(Args...) [-> Handle]
	SGet                 // get(Args...)
	SPut                 // put(Args...)
	SWait                // wait Handle
	SWaitq               // waitq Args[0]
	SBarrier             // barrier
	SIfGoto              // if Args[0] goto Targets[0]
	SGoto                // goto Targets...
	// The OpenSHMEM statements (Config.Shmem); a context is a leaf Arg.
	SShmem // Call(Args...): putmem, getmem, amo_add, put_signal, ...
	SFetch // Reg <- Call(Args...) [when Guard]: a fetching atomic
	SAwait // Reg <- mem[Args[0]] when Guard
	SFence // fence Args[0]
	SQuiet // quiet Args[0]
)

// Stmt is one line of the program.
type Stmt struct {
	Labels  []string
	Kind    Kind
	Reg     string
	Args    []*Expr
	Handle  string
	Targets []string
	Call    string // SShmem, SFetch: the name of the call
	Guard   *Expr  // SFetch, SAwait: the condition of an await
	// Set, on an SBarrier, is the set of ranks as written ("{1, N}"),
	// empty for every rank; Member, if set, wraps the barrier in
	// "if Member { ... }".
	Set    string
	Member string
}

// Expr is an expression: a leaf (a number, name, rank or N) or an operator
// with one or two operands.
type Expr struct {
	Leaf string
	Op   string // "+", "-", "%", "==", "!=", "<", "!", ...
	L, R *Expr
}

func leaf(s string) *Expr             { return &Expr{Leaf: s} }
func bin(op string, l, r *Expr) *Expr { return &Expr{Op: op, L: l, R: r} }
func num(v int) *Expr                 { return leaf(fmt.Sprint(v)) }
func (e *Expr) isLeaf() bool          { return e.Op == "" }
func (e *Expr) clone() *Expr {
	if e == nil {
		return nil
	}
	return &Expr{Leaf: e.Leaf, Op: e.Op, L: e.L.clone(), R: e.R.clone()}
}

// String prints e fully parenthesised below the top, so that precedence
// never matters.
func (e *Expr) String() string { return e.str(true) }

func (e *Expr) str(top bool) string {
	if e.isLeaf() {
		return e.Leaf
	}
	var s string
	if e.R == nil {
		s = e.Op + e.L.str(false)
	} else {
		s = e.L.str(false) + " " + e.Op + " " + e.R.str(false)
	}
	if top {
		return s
	}
	return "(" + s + ")"
}

func (s *Stmt) clone() *Stmt {
	c := *s
	c.Labels = append([]string(nil), s.Labels...)
	c.Targets = append([]string(nil), s.Targets...)
	c.Guard = s.Guard.clone()
	c.Args = make([]*Expr, len(s.Args))
	for i, a := range s.Args {
		c.Args[i] = a.clone()
	}
	return &c
}

// Clone returns a deep copy.
func (p *Program) Clone() *Program {
	c := *p
	c.Addrs = append([]string(nil), p.Addrs...)
	c.Regs = append([]string(nil), p.Regs...)
	c.Queues = append([]string(nil), p.Queues...)
	c.Contexts = append([]string(nil), p.Contexts...)
	c.EndLabels = append([]string(nil), p.EndLabels...)
	c.Stmts = make([]*Stmt, len(p.Stmts))
	for i, s := range p.Stmts {
		c.Stmts[i] = s.clone()
	}
	return &c
}

func (s *Stmt) String() string {
	a := func(i int) string { return s.Args[i].String() }
	var b strings.Builder
	for _, l := range s.Labels {
		b.WriteString(l + ": ")
	}
	switch s.Kind {
	case SLoad:
		fmt.Fprintf(&b, "%s <- mem[%s]", s.Reg, a(0))
	case SStore:
		fmt.Fprintf(&b, "mem[%s] <- %s", a(0), a(1))
	case SAssign:
		fmt.Fprintf(&b, "%s <- %s", s.Reg, a(0))
	case SAssume:
		fmt.Fprintf(&b, "assume %s", a(0))
	case SAssert:
		fmt.Fprintf(&b, "assert mem[%s] == %s", a(0), a(1))
	case SRead, SWrite, SGet, SPut:
		name := [...]string{SRead: "read", SWrite: "write", SGet: "get", SPut: "put"}[s.Kind]
		fmt.Fprintf(&b, "%s(%s, %s, %s, %s)", name, a(0), a(1), a(2), a(3))
		if s.Handle != "" {
			b.WriteString(" -> " + s.Handle)
		}
	case SWait:
		b.WriteString("wait " + s.Handle)
	case SWaitq:
		b.WriteString("waitq " + a(0))
	case SBarrier:
		switch {
		case s.Set == "":
			b.WriteString("barrier")
		case s.Member == "":
			b.WriteString("barrier " + s.Set)
		default:
			fmt.Fprintf(&b, "if %s {\n        barrier %s\n    }", s.Member, s.Set)
		}
	case SIfGoto:
		fmt.Fprintf(&b, "if %s goto %s", a(0), s.Targets[0])
	case SGoto:
		b.WriteString("goto " + strings.Join(s.Targets, ", "))
	default:
		s.shmemString(&b)
	}
	return b.String()
}

// String renders the program as .pgas source.
func (p *Program) String() string {
	var b strings.Builder
	if p.Name != "" {
		fmt.Fprintf(&b, "program %s\n", p.Name)
	}
	if p.Hi > 0 {
		fmt.Fprintf(&b, "values %d..%d\n", p.Lo, p.Hi)
	} else {
		fmt.Fprintf(&b, "values %d\n", p.Values)
	}
	decl := func(kw string, names []string) {
		if len(names) > 0 {
			fmt.Fprintf(&b, "%s %s\n", kw, strings.Join(names, ", "))
		}
	}
	decl("address", p.Addrs)
	decl("register", p.Regs)
	decl("queue", p.Queues)
	decl("context", p.Contexts)
	for _, s := range p.Stmts {
		b.WriteString("    " + s.String() + "\n")
	}
	for _, l := range p.EndLabels {
		b.WriteString(l + ":\n")
	}
	return b.String()
}

// Generate makes a random program. The result always compiles (for every
// N in 1..16); the tests check this.
func Generate(r *rand.Rand, c Config) *Program {
	c = c.withDefaults()
	g := &generator{r: r, c: c, p: &Program{Values: c.Values}}
	if c.Wide {
		g.wideWindow()
	}
	for i := 0; i < c.Addrs; i++ {
		g.p.Addrs = append(g.p.Addrs, string(rune('x'+i%3))+strings.Repeat("x", i/3))
	}
	for i := 0; i < c.Regs; i++ {
		g.p.Regs = append(g.p.Regs, fmt.Sprintf("r%d", i))
	}
	for i := 0; i < c.Queues; i++ {
		g.p.Queues = append(g.p.Queues, fmt.Sprintf("q%d", i))
	}
	if c.Shmem {
		for i := 0; i < 1+g.r.IntN(2); i++ {
			g.p.Contexts = append(g.p.Contexts, fmt.Sprintf("c%d", i))
		}
	}
	g.body()
	return g.p
}

type generator struct {
	r       *rand.Rand
	c       Config
	p       *Program
	labels  int
	handles int
	open    []string // handles issued and not yet waited on
	loop    bool     // a backward jump was made: no handles after it
}

func (g *generator) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *generator) value() *Expr {
	if g.c.Wide {
		return g.sentinel()
	}
	return num(g.r.IntN(g.c.Values))
}

func (g *generator) addr() *Expr {
	a := leaf(g.pick(g.p.Addrs))
	if g.c.RangeErrors && g.r.IntN(8) == 0 {
		return bin("+", a, leaf(g.pick(g.p.Regs)))
	}
	return a
}

// rankExpr is in 1..N for every N.
func (g *generator) rankExpr() *Expr {
	switch g.r.IntN(6) {
	case 0:
		return leaf("rank")
	case 1:
		return num(1)
	case 2:
		return leaf("N")
	case 3:
		return bin("+", bin("-", leaf("N"), leaf("rank")), num(1))
	}
	return bin("+", bin("%", leaf("rank"), leaf("N")), num(1))
}

// valueExpr stays in DOM: registers hold values of DOM.
func (g *generator) valueExpr() *Expr {
	if g.c.Wide {
		return g.wideExpr()
	}
	switch g.r.IntN(5) {
	case 0, 1:
		return g.value()
	case 2:
		return leaf(g.pick(g.p.Regs))
	case 3:
		return bin("%", bin("+", leaf(g.pick(g.p.Regs)), num(1)), num(g.c.Values))
	}
	return bin("%", leaf("rank"), num(g.c.Values))
}

func (g *generator) cond() *Expr {
	ops := []string{"==", "!=", "<", ">="}
	var l *Expr
	if g.r.IntN(4) == 0 {
		l = leaf("rank")
		return bin(ops[g.r.IntN(len(ops))], l, num(1+g.r.IntN(2)))
	}
	l = leaf(g.pick(g.p.Regs))
	return bin(ops[g.r.IntN(len(ops))], l, g.value())
}

func (g *generator) label() string {
	g.labels++
	return fmt.Sprintf("L%d", g.labels)
}

func (g *generator) body() {
	n := 1 + g.r.IntN(g.c.Cmds)
	// A forward jump target is attached to a later statement (skipping a
	// random number of them) or to the end.
	type fwd struct {
		label string
		skip  int
	}
	var pending []fwd
	for i := 0; i < n; i++ {
		s := g.stmt(i, n)
		var rest []fwd
		for _, f := range pending {
			if f.skip == 0 {
				s.Labels = append(s.Labels, f.label)
			} else {
				rest = append(rest, fwd{f.label, f.skip - 1})
			}
		}
		pending = rest
		g.p.Stmts = append(g.p.Stmts, s)
		if s.Kind == SIfGoto || s.Kind == SGoto {
			for _, t := range s.Targets {
				if !g.hasLabel(t) {
					pending = append(pending, fwd{t, g.r.IntN(2)})
				}
			}
		}
	}
	for _, f := range pending {
		g.p.EndLabels = append(g.p.EndLabels, f.label)
	}
}

func (g *generator) hasLabel(l string) bool {
	for _, s := range g.p.Stmts {
		for _, x := range s.Labels {
			if x == l {
				return true
			}
		}
	}
	return false
}

// backTarget labels an earlier statement and returns the label.
func (g *generator) backTarget() string {
	s := g.p.Stmts[g.r.IntN(len(g.p.Stmts))]
	if len(s.Labels) > 0 {
		return s.Labels[0]
	}
	l := g.label()
	s.Labels = append(s.Labels, l)
	return l
}

func (g *generator) stmt(i, n int) *Stmt {
	if g.c.SubsetBarriers && g.r.IntN(10) == 0 {
		return g.subsetBarrier() // about a third of the programs have one
	}
	if g.c.Shmem && (g.r.IntN(2) == 0 || g.c.Atomics && g.r.IntN(2) == 0) {
		return g.shmemStmt()
	}
	for {
		switch k := g.r.IntN(20); {
		case k < 3:
			return &Stmt{Kind: SStore, Args: []*Expr{g.addr(), g.valueExpr()}}
		case k < 6:
			return &Stmt{Kind: SLoad, Reg: g.pick(g.p.Regs), Args: []*Expr{g.addr()}}
		case k < 7:
			return &Stmt{Kind: SAssign, Reg: g.pick(g.p.Regs), Args: []*Expr{g.valueExpr()}}
		case k < 8:
			return &Stmt{Kind: SAssume, Args: []*Expr{g.cond()}}
		case k < 9:
			return &Stmt{Kind: SAssert, Args: []*Expr{g.addr(), g.value()}}
		case k < 13:
			kind := SWrite
			if k < 11 {
				kind = SRead
			}
			s := &Stmt{Kind: kind, Args: []*Expr{g.addr(), g.rankExpr(), g.addr(), leaf(g.pick(g.p.Queues))}}
			if !g.loop && !g.c.Loops && g.r.IntN(4) == 0 {
				g.handles++
				s.Handle = fmt.Sprintf("h%d", g.handles)
				g.open = append(g.open, s.Handle)
			}
			return s
		case k < 14:
			kind := SGet
			if g.r.IntN(2) == 0 {
				kind = SPut
			}
			return &Stmt{Kind: kind, Args: []*Expr{g.addr(), g.rankExpr(), g.addr(), leaf(g.pick(g.p.Queues))}}
		case k < 15:
			if len(g.open) == 0 {
				continue
			}
			j := g.r.IntN(len(g.open))
			h := g.open[j]
			g.open = append(g.open[:j], g.open[j+1:]...)
			return &Stmt{Kind: SWait, Handle: h}
		case k < 16:
			return &Stmt{Kind: SWaitq, Args: []*Expr{leaf(g.pick(g.p.Queues))}}
		case k < 18:
			return g.barrier()
		case k < 19:
			if i == n-1 && !g.c.Loops {
				continue // a jump at the end goes nowhere new
			}
			if g.c.Loops && len(g.p.Stmts) > 0 && g.r.IntN(2) == 0 {
				g.loop = true
				return &Stmt{Kind: SIfGoto, Args: []*Expr{g.cond()}, Targets: []string{g.backTarget()}}
			}
			return &Stmt{Kind: SIfGoto, Args: []*Expr{g.cond()}, Targets: []string{g.label()}}
		default:
			if i == n-1 && !g.c.Loops {
				continue
			}
			if g.c.Loops && len(g.p.Stmts) > 0 && g.r.IntN(2) == 0 {
				g.loop = true
				return &Stmt{Kind: SGoto, Targets: []string{g.backTarget(), g.label()}}
			}
			return &Stmt{Kind: SGoto, Targets: []string{g.label(), g.label()}}
		}
	}
}

// subsetSets are the sets SubsetBarriers draws from, each with the
// condition that holds exactly on its members; every rank in them is in
// 1..N for each N >= 1, so the programs still compile for every N.
var subsetSets = [][2]string{
	{"{1..(N + 1) / 2}", "rank <= (N + 1) / 2"},
	{"{(N + 1) / 2..N}", "rank >= (N + 1) / 2"},
	{"{1, N}", "rank == 1 || rank == N"},
	{"{N}", "rank == N"},
	{"{1}", "rank == 1"},
}

// barrier is a barrier statement: over every rank, or with
// SubsetBarriers half of the time over one of subsetSets, guarded by
// membership seven times in eight.
func (g *generator) barrier() *Stmt {
	if !g.c.SubsetBarriers || g.r.IntN(2) == 0 {
		return &Stmt{Kind: SBarrier}
	}
	return g.subsetBarrier()
}

// subsetBarrier is a barrier over one of subsetSets.
func (g *generator) subsetBarrier() *Stmt {
	set := subsetSets[g.r.IntN(len(subsetSets))]
	s := &Stmt{Kind: SBarrier, Set: set[0]}
	if g.r.IntN(8) != 0 {
		s.Member = set[1]
	}
	return s
}
