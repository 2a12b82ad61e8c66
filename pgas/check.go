package pgas

import (
	"fmt"
)

// Limits of the state encoding. The decision procedure packs control
// states, register and memory contents and queue ids into bit fields; these
// bounds keep every field small and every count well inside an int. A
// program that exceeds one is rejected statically, with a position.
const (
	MaxRanks  = 16   // N
	MaxAddrs  = 64   // |ADR|, hidden shadow addresses included
	MaxRegs   = 32   // |REG|, the hidden register included
	MaxQueues = 16   // |QUE|
	MaxStates = 4096 // control states |Q| after compilation; also bounds the statements
)

// maxExact bounds the magnitude of every intermediate result of an
// expression. Expressions whose worst case could exceed it are rejected,
// which makes the int64 arithmetic of Expr.Eval exact.
const maxExact = 1 << 62

type nameKind uint8

const (
	nkAddr nameKind = iota
	nkReg
	nkQueue
	nkHandle
	nkCtx
)

var nameKindNames = [...]string{"an address", "a register", "a queue", "a handle", "a context"}

type nameInfo struct {
	kind  nameKind
	index int // address, register or queue number; the shadow address of a handle
	pos   Pos
}

// Hidden names start with '$', which the lexer never puts in a name, so
// they cannot clash with the user's.
const (
	oneAddr   = "$one"  // holds 1 on every rank, copied into shadows
	syncAddr  = "$sync" // shadow of get, put and waitq, which wait at once
	tmpReg    = "$t"    // receives loads made by assert and the waits
	handlePfx = "$h."   // shadow address of a handle
)

// domain fills Lo and Values from "values K" (0..K-1) or "values LO..HI".
func (c *checker) domain() {
	f, p := c.f, c.prog
	p.Values = 2
	switch {
	case !f.hasValues:
		c.errorf(Pos{File: p.File, Line: 1, Col: 1}, "missing \"values K\" declaration (DOM is 0..K-1; or \"values LO..HI\")")
	case f.valuesWin:
		if msg := checkWindow(f.valuesLo, f.values); msg != "" {
			c.errorf(f.valuesPos, "%s", msg)
			return
		}
		p.Lo, p.Values = f.valuesLo, int(f.values-f.valuesLo+1)
	case f.values < 2 || f.values > MaxValue:
		c.errorf(f.valuesPos, "values %d outside 2..%d", f.values, int64(MaxValue))
	default:
		p.Values = int(f.values)
	}
}

// checker resolves names, compiles expressions and enforces the static
// rules. It fills the declaration part of the Program; compile.go builds
// the automaton.
type checker struct {
	f     *file
	src   []byte
	errs  *ErrorList
	prog  *Program
	names map[string]nameInfo
	// Hidden resources, -1 until needed.
	one, sync, tmp int
	getCtx         int // the hidden context of getmem, -1 if none
	queueUsed      bool
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.add(pos, fmt.Sprintf(format, args...))
}

func (c *checker) declare(id ident, k nameKind, index int) {
	if old, ok := c.names[id.name]; ok {
		c.errorf(id.pos, "%s redeclared (already %s, declared at %d:%d)", id.name, nameKindNames[old.kind], old.pos.Line, old.pos.Col)
		return
	}
	c.names[id.name] = nameInfo{k, index, id.pos}
}

// declarations fills Values, Addrs, Regs, Queues and Shadow, including the
// hidden addresses and register the sugar needs.
func (c *checker) declarations() {
	f, p := c.f, c.prog
	p.Name = f.name.name
	c.domain()
	for _, d := range f.addrs {
		c.declare(d.name, nkAddr, len(p.Addrs))
		for k := 0; k < d.size; k++ {
			n := d.name.name
			if k > 0 {
				n = fmt.Sprintf("%s+%d", n, k)
			}
			p.Addrs = append(p.Addrs, n)
			p.Shadow = append(p.Shadow, false)
		}
	}
	for _, r := range f.regs {
		c.declare(r, nkReg, len(p.Regs))
		p.Regs = append(p.Regs, r.name)
	}
	for i, q := range f.queues {
		k := nkQueue
		if f.isCtx[i] {
			k = nkCtx
		}
		c.declare(q, k, len(p.Queues))
		p.Queues = append(p.Queues, q.name)
	}
	c.declareCtx()
	hidden := func(name string) int {
		p.Addrs = append(p.Addrs, name)
		p.Shadow = append(p.Shadow, true)
		return len(p.Addrs) - 1
	}
	c.one, c.sync, c.tmp = -1, -1, -1
	needTmp := false
	for _, s := range f.stmts {
		switch s.kind {
		case sRead, sWrite:
			if s.handle.name == "" {
				continue
			}
			if old, ok := c.names[s.handle.name]; ok {
				if old.kind != nkHandle {
					c.errorf(s.handle.pos, "%s is %s, not a handle", s.handle.name, nameKindNames[old.kind])
				}
				continue
			}
			c.names[s.handle.name] = nameInfo{nkHandle, hidden(handlePfx + s.handle.name), s.handle.pos}
			if c.one < 0 {
				c.one = hidden(oneAddr)
			}
		case sGet, sPut, sWaitq:
			if s.kind == sWaitq && s.call == "quiet" && c.isCtxName(s.x) {
				continue
			}
			if c.sync < 0 {
				c.sync = hidden(syncAddr)
			}
			if c.one < 0 {
				c.one = hidden(oneAddr)
			}
			needTmp = true
		case sAssert, sWait:
			needTmp = true
		}
	}
	if needTmp {
		p.Regs = append(p.Regs, tmpReg)
		c.tmp = len(p.Regs) - 1
	}
	pos := Pos{File: p.File, Line: 1, Col: 1}
	if len(f.addrs) > 0 {
		pos = f.addrs[0].name.pos
	}
	if n := len(p.Addrs); n > MaxAddrs {
		c.errorf(pos, "too many addresses: %d (%d of them hidden, for handles and waits), limit %d", n, n-countTrue(p.Shadow, false), MaxAddrs)
	}
	if n := len(p.Regs); n > MaxRegs {
		c.errorf(f.regs[0].pos, "too many registers: %d (with the hidden one), limit %d", n, MaxRegs)
	}
	if n := len(p.Queues); n > MaxQueues {
		hidden := ""
		if c.getCtx >= 0 {
			hidden = ", with the hidden one of getmem"
		}
		c.errorf(f.queues[0].pos, "too many queues: %d%s%s, limit %d", n, c.ctxCount(), hidden, MaxQueues)
	}
}

func countTrue(bs []bool, v bool) int {
	n := 0
	for _, b := range bs {
		if b == v {
			n++
		}
	}
	return n
}

// lookup resolves a name used in an expression.
func (c *checker) lookup(n *nameRef) (Instr, bool) {
	info, ok := c.names[n.name]
	if !ok {
		c.errorf(n.pos, "undefined name %s", n.name)
		return Instr{}, false
	}
	switch info.kind {
	case nkReg:
		return Instr{XReg, int64(info.index)}, true
	case nkAddr:
		return Instr{XConst, int64(info.index)}, true
	case nkQueue:
		c.queueUsed = true
		return Instr{XConst, int64(info.index)}, true
	}
	if info.kind == nkCtx {
		c.errorf(n.pos, "%s is a context; it can only be named by fence, quiet or the last argument of an OpenSHMEM call, not used in an expression", n.name)
		return Instr{}, false
	}
	c.errorf(n.pos, "handle %s cannot be used in an expression (only in \"wait %s\")", n.name, n.name)
	return Instr{}, false
}

// expr compiles e to postfix code. mem[...] is refused unless memReg >= 0,
// in which case the single top-level mem[...] of an assert reads the
// register memReg instead. ok is false when an error was reported.
func (c *checker) expr(e exprNode, memReg int) (x *Expr, ok bool) {
	b := e.base()
	lo, hi := b.srcSpan()
	x = &Expr{Src: string(c.src[lo:hi]), Pos: b.pos}
	_, ok = c.emit(e, memReg, &x.Code)
	return x, ok
}

// emit appends the code of e and returns a bound on the magnitude of every
// value e and its subexpressions can take.
func (c *checker) emit(e exprNode, memReg int, code *[]Instr) (uint64, bool) {
	sat := func(v uint64) uint64 { return min(v, maxExact+1) }
	switch e := e.(type) {
	case *intLit:
		*code = append(*code, Instr{XConst, e.val})
		return uint64(e.val), true
	case *rankRef:
		*code = append(*code, Instr{Op: XRank})
		return MaxRanks, true
	case *nRef:
		*code = append(*code, Instr{Op: XN})
		return MaxRanks, true
	case *nameRef:
		in, ok := c.lookup(e)
		*code = append(*code, in)
		if in.Op == XReg {
			return c.magnitude(), ok
		}
		return uint64(in.Arg), ok
	case *memRef:
		if memReg < 0 {
			c.errorf(e.pos, "mem[...] is not allowed here: it may only be the whole right-hand side of a load (r <- mem[a]), the target of a store, or appear once in an assert")
			return 0, false
		}
		if _, ok := c.emit(e.addr, -1, new([]Instr)); !ok {
			return 0, false
		}
		*code = append(*code, Instr{XReg, int64(memReg)})
		return c.magnitude(), true
	case *unary:
		bx, ok := c.emit(e.x, memReg, code)
		if e.op == tMinus {
			*code = append(*code, Instr{Op: XNeg})
			return bx, ok
		}
		*code = append(*code, Instr{Op: XNot})
		return 1, ok
	case *binary:
		bx, okx := c.emit(e.x, memReg, code)
		by, oky := c.emit(e.y, memReg, code)
		ok := okx && oky
		op, bound := XAdd, uint64(1)
		switch e.op {
		case tPlus, tMinus:
			op, bound = XAdd, sat(bx+by)
			if e.op == tMinus {
				op = XSub
			}
		case tStar:
			op = XMul
			bound = sat(bx)
			if bx != 0 && by > (maxExact+1)/bx {
				bound = maxExact + 1
			} else {
				bound = sat(bx * by)
			}
		case tSlash:
			op, bound = XDiv, bx
		case tPercent:
			op, bound = XMod, bx
		default:
			op = map[tokKind]ExprOp{tEq: XEq, tNe: XNe, tLt: XLt, tLe: XLe, tGt: XGt, tGe: XGe, tAnd: XAnd, tOr: XOr}[e.op]
		}
		*code = append(*code, Instr{Op: op})
		if ok && bound > maxExact {
			c.errorf(e.pos, "expression %s may exceed 64-bit arithmetic (registers bounded by the largest |value|, rank and N by %d)", c.src[e.lo:e.hi], MaxRanks)
			ok = false
		}
		return bound, ok
	}
	panic(fmt.Sprintf("pgas: unknown expression node %T", e))
}

// magnitude bounds |v| for every value v of DOM.
func (c *checker) magnitude() uint64 { return uint64(max(c.prog.Hi(), -c.prog.Lo)) }

// countMem counts the mem[...] in e and reports nested ones.
func (c *checker) countMem(e exprNode) (n int, first *memRef) {
	switch e := e.(type) {
	case *memRef:
		if m, _ := c.countMem(e.addr); m > 0 {
			c.errorf(e.addr.base().pos, "mem[...] cannot be nested")
		}
		return 1, e
	case *unary:
		return c.countMem(e.x)
	case *binary:
		nx, fx := c.countMem(e.x)
		ny, fy := c.countMem(e.y)
		if fx == nil {
			fx = fy
		}
		return nx + ny, fx
	}
	return 0, nil
}

// use checks an expression whose result must lie in a domain. When it
// reads no register and no rank its value is known now (or, if it reads
// N, once N is known: see CheckN), so a bad value is a static error.
func (c *checker) use(x *Expr, what string) {
	for _, in := range x.Code {
		if in.Op == XReg || in.Op == XRank {
			return
		}
	}
	usesN := false
	for _, in := range x.Code {
		usesN = usesN || in.Op == XN
	}
	if usesN {
		// Only an expression that is bad for every N is an error now;
		// CheckN judges the others once N is known.
		first := ""
		for n := int64(1); n <= MaxRanks; n++ {
			err := c.rangeErr(x, what, n)
			if err == "" {
				return
			}
			if first == "" {
				first = err
			}
		}
		c.errorf(x.Pos, "%s when N = 1, and out of range for every N up to %d", first, MaxRanks)
		return
	}
	if err := c.rangeErr(x, what, MaxRanks); err != "" {
		if what == "rank" {
			err += fmt.Sprintf(" for every N (N is at most %d)", MaxRanks)
		}
		c.errorf(x.Pos, "%s", err)
	}
}

// rangeErr evaluates a register-free, rank-free expression for a given N
// and describes why its value is unusable as what ("" if it is fine).
func (c *checker) rangeErr(x *Expr, what string, n int64) string {
	v, err := x.Eval(Env{N: n})
	if err != nil {
		if _, ok := err.(*RangeError); ok {
			return fmt.Sprintf("division by zero in %s", x.Src)
		}
		return err.Error()
	}
	lo, hi := int64(0), int64(0)
	switch what {
	case "value":
		lo, hi = c.prog.Lo, c.prog.Hi()
	case "address":
		hi = int64(len(c.prog.Addrs) - 1)
	case "queue":
		hi = int64(len(c.prog.Queues) - 1)
	case "rank":
		lo, hi = 1, n
	case "condition":
		return ""
	}
	if hi < lo {
		if what == "address" {
			return "no address is declared"
		}
		return "" // no queue: needQueue says so once per statement
	}
	if v < lo || v > hi {
		if what == "rank" {
			return fmt.Sprintf("rank %s = %d outside 1..%d", x.Src, v, n)
		}
		return fmt.Sprintf("%s %s = %d outside %d..%d", what, x.Src, v, lo, hi)
	}
	return ""
}
