package pgas

import "fmt"

// Lowering of statements to core commands (Figure 2), including the API
// idioms of Section 2.4 of pgas-theory-full.md. docs/language.md lists
// every expansion; the tests in sugar_test.go print them.

// step is one core command of a lowered statement.
type step struct {
	cmd   Cmd
	sugar string
}

// path is a sequence of core commands leading from a statement's control
// state to its successors: the normal ones, or, for "if e goto L", to L
// when jump is set.
type path struct {
	steps []step
	jump  bool
}

func cmdOf(op Op) Cmd { return Cmd{Op: op, Reg: -1} }

// gen builds a compiler-made expression; pos is the statement's, so that a
// run-time error in it points at the source line.
func gen(src string, pos Pos, code ...Instr) *Expr { return &Expr{Code: code, Src: src, Pos: pos} }

// lower checks one statement and returns its core command paths. It
// returns nil for a goto, whose control flow compile.go handles.
func (c *checker) lower(s *stmt) []path {
	one := func(sugar string, cmds ...Cmd) []path {
		st := make([]step, len(cmds))
		for i, cmd := range cmds {
			st[i] = step{cmd, sugar}
		}
		return []path{{steps: st}}
	}
	switch s.kind {
	case sAssign:
		info, ok := c.names[s.reg.name]
		if !ok {
			c.errorf(s.reg.pos, "undefined register %s", s.reg.name)
			return nil
		}
		if info.kind != nkReg {
			hint := ""
			if info.kind == nkAddr {
				hint = fmt.Sprintf(" (to store into memory write mem[%s] <- ...)", s.reg.name)
			}
			c.errorf(s.reg.pos, "%s is %s, not a register%s", s.reg.name, nameKindNames[info.kind], hint)
			return nil
		}
		if s.call != "" {
			return c.lowerFetch(s, info.index)
		}
		if m, ok := s.x.(*memRef); ok {
			cmd := cmdOf(OpLoad)
			cmd.Reg = info.index
			cmd.Addr = c.operand(m.addr, "address")
			cmd.Guard = c.guard(s)
			return one("", cmd)
		}
		if s.guard != nil {
			c.errorf(s.guard.base().pos, "when needs a load (r <- mem[a] when g) or a fetching atomic (r <- amo_fetch(...) when g)")
		}
		cmd := cmdOf(OpAssign)
		cmd.Reg = info.index
		cmd.Val = c.operand(s.x, "value")
		return one("", cmd)
	case sStore:
		cmd := cmdOf(OpStore)
		cmd.Addr = c.operand(s.lhs.(*memRef).addr, "address")
		cmd.Val = c.operand(s.x, "value")
		return one("", cmd)
	case sAssume:
		cmd := cmdOf(OpAssume)
		cmd.Val = c.operand(s.x, "condition")
		return one("", cmd)
	case sAssert:
		return c.lowerAssert(s)
	case sBarrier:
		cmd := cmdOf(OpBarrier)
		cmd.Set = c.rankSet(s)
		return one("", cmd)
	case sRead, sWrite, sGet, sPut:
		return c.lowerRemote(s)
	case sWait:
		info, ok := c.names[s.handle.name]
		if !ok || info.kind != nkHandle {
			if !ok {
				c.errorf(s.handle.pos, "undefined handle %s (a handle is named by \"read(...) -> %s\" or \"write(...) -> %s\")", s.handle.name, s.handle.name, s.handle.name)
			} else {
				c.errorf(s.handle.pos, "%s is %s, not a handle", s.handle.name, nameKindNames[info.kind])
			}
			return nil
		}
		return one("wait", c.waitFor(info.index, s.pos)...)
	case sWaitq, sFence:
		return c.lowerSync(s)
	case sShmem:
		return c.lowerShmem(s)
	case sIf:
		cond := c.operand(s.x, "condition")
		yes, no := cmdOf(OpAssume), cmdOf(OpAssume)
		yes.Val = cond
		neg := append(append([]Instr(nil), cond.Code...), Instr{Op: XNot})
		no.Val = &Expr{Code: neg, Src: "!(" + cond.Src + ")", Pos: cond.Pos}
		name := "if"
		if s.negate { // a block: jump when the condition fails
			yes, no = no, yes
			name = "block"
		}
		return []path{
			{steps: []step{{yes, name}}, jump: true},
			{steps: []step{{no, name}}},
		}
	}
	return nil
}

// operand checks that e has no mem[...], compiles it, and checks a
// statically known value against its domain.
func (c *checker) operand(e exprNode, what string) *Expr {
	if n, m := c.countMem(e); n > 0 {
		c.errorf(m.pos, "mem[...] is not allowed in %s: load it into a register first (r <- mem[a])", describeUse(what))
		return gen("0", e.base().pos, Instr{XConst, 0})
	}
	x, ok := c.expr(e, -1)
	if ok {
		c.use(x, what)
	}
	return x
}

func describeUse(what string) string {
	switch what {
	case "condition":
		return "a condition"
	case "value":
		return "a value (only a whole load r <- mem[a] reads memory)"
	}
	return "an " + what + " argument"
}

func (c *checker) lowerAssert(s *stmt) []path {
	n, m := c.countMem(s.x)
	if n != 1 {
		c.errorf(s.pos, "assert needs exactly one mem[...] in its condition, found %d (use assume for a condition on registers)", n)
		return nil
	}
	load := cmdOf(OpLoad)
	load.Reg = c.tmp
	load.Addr = c.operand(m.addr, "address")
	x, ok := c.expr(s.x, c.tmp)
	if ok {
		lo, hi := s.x.base().srcSpan()
		if m.lo < lo || m.hi > hi { // the parentheses enclose just mem[...]
			lo, hi = m.lo, m.hi
		}
		x.Src = string(c.src[lo:m.lo]) + tmpReg + string(c.src[m.hi:hi])
	}
	check := cmdOf(OpAssume)
	check.Val = x
	return []path{{steps: []step{{load, "assert"}, {check, "assert"}}}}
}

func (c *checker) needQueue(s *stmt) {
	if len(c.prog.Queues) == countTrue(c.prog.Ctx, true) {
		c.errorf(s.pos, "%s needs a queue, but no queue is declared (add \"queue q\")", s.text)
	}
}

var remoteNames = map[stmtKind]string{sRead: "read", sWrite: "write", sGet: "get", sPut: "put"}

func (c *checker) lowerRemote(s *stmt) []path {
	name := remoteNames[s.kind]
	if len(s.args) != 4 {
		c.errorf(s.pos, "%s takes 4 arguments (local address, rank, remote address, queue), found %d", name, len(s.args))
		return nil
	}
	c.needQueue(s)
	op := OpRead
	if s.kind == sWrite || s.kind == sPut {
		op = OpWrite
	}
	cmd := cmdOf(op)
	cmd.Local = c.operand(s.args[0], "address")
	cmd.Rank = c.operand(s.args[1], "rank")
	cmd.Remote = c.operand(s.args[2], "address")
	cmd.Queue = c.queueArg(s.args[3], name)
	switch {
	case s.kind == sGet || s.kind == sPut:
		// A synchronous transfer: the asynchronous one, then a wait on a
		// shadow that nothing else is pending on.
		cmds := []Cmd{c.storeShadow(c.sync, 0, s.pos), cmd}
		cmds = append(cmds, c.signal(c.sync, cmd.Queue, s.pos)[1:]...)
		return c.sugarPath(name, cmds)
	case s.handle.name != "":
		info := c.names[s.handle.name]
		if info.kind != nkHandle {
			return nil // reported by declarations
		}
		h := info.index
		cmds := []Cmd{c.storeShadow(h, 0, s.pos), cmd, c.shadowRead(h, cmd.Queue, s.pos)}
		return c.sugarPath("handle", cmds)
	}
	return []path{{steps: []step{{cmd, ""}}}}
}

func (c *checker) sugarPath(name string, cmds []Cmd) []path {
	st := make([]step, len(cmds))
	for i, cmd := range cmds {
		st[i] = step{cmd, name}
	}
	return []path{{steps: st}}
}

// storeShadow is mem[shadow] <- v.
func (c *checker) storeShadow(shadow int, v int64, pos Pos) Cmd {
	cmd := cmdOf(OpStore)
	cmd.Addr = gen(c.prog.Addrs[shadow], pos, Instr{XConst, int64(shadow)})
	cmd.Val = gen(fmt.Sprint(v), pos, Instr{XConst, v})
	return cmd
}

// shadowRead is read(shadow, rank, $one, q): issued on the same queue
// right after an operation, it is popped after that operation in both
// queues fa and fb (they are FIFO), so the shadow becomes 1 only once the
// operation has fully completed.
func (c *checker) shadowRead(shadow int, q *Expr, pos Pos) Cmd {
	cmd := cmdOf(OpRead)
	cmd.Local = gen(c.prog.Addrs[shadow], pos, Instr{XConst, int64(shadow)})
	cmd.Rank = gen("rank", pos, Instr{Op: XRank})
	cmd.Remote = gen(oneAddr, pos, Instr{XConst, int64(c.one)})
	cmd.Queue = q
	return cmd
}

// waitFor is an atomic await on the shadow: a load into the hidden
// register that can only execute once the shadow holds 1 (Cmd.Guard). A
// plain load followed by assume would not do: the load could run early,
// read 0 and block, and that early load conflicts with the shadow's popb,
// whose read request is po-before it, a happens-before cycle in every
// program that waits (docs/language.md, "Waits and happens-before").
func (c *checker) waitFor(shadow int, pos Pos) []Cmd {
	load := cmdOf(OpLoad)
	load.Reg = c.tmp
	load.Addr = gen(c.prog.Addrs[shadow], pos, Instr{XConst, int64(shadow)})
	load.Guard = gen(tmpReg+" == 1", pos, Instr{XReg, int64(c.tmp)}, Instr{XConst, 1}, Instr{Op: XEq})
	return []Cmd{load}
}

// signal is the whole shadow protocol on queue q: reset, request, wait.
func (c *checker) signal(shadow int, q *Expr, pos Pos) []Cmd {
	return append([]Cmd{c.storeShadow(shadow, 0, pos), c.shadowRead(shadow, q, pos)}, c.waitFor(shadow, pos)...)
}
