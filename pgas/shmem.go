package pgas

import (
	"fmt"
	"strings"
)

// Lowering of the OpenSHMEM statements (docs/shmem-calculus.md, "Surface
// syntax") to the context commands OpSend, OpRecv, OpFence, OpQuiet and
// OpAtomic. Every transition a statement produces carries the statement's
// name as its Sugar, so that witnesses and "check" show the surface form.

// shmemSpec describes one OpenSHMEM call: its parameters, one letter each
// (l: local address, k: rank, m: remote address, s: signal address,
// e: value, p: comparand, c: context), and for atomics what they do.
type shmemSpec struct {
	params string
	amo    AmoOp
	inc    bool // the operand is the constant 1 (amo_inc, amo_fetch_inc)
	count  bool // an optional last argument n, a constant ≥ 1: elements l..l+n-1 to m..m+n-1
}

// shmemCalls are the statements; fetchCalls the fetching atomics, which
// only appear as "r <- call(...)".
var shmemCalls = map[string]*shmemSpec{
	"putmem": {params: "lkmc"}, "putmem_nbi": {params: "lkmc"}, "putval": {params: "ekmc"},
	"getmem": {params: "lkmc"}, "getmem_nbi": {params: "lkmc"},
	"amo_add": {params: "ekmc", amo: AmoAdd}, "amo_inc": {params: "kmc", amo: AmoAdd, inc: true},
	"amo_set":    {params: "ekmc", amo: AmoNone},
	"put_signal": {params: "lkmsec", count: true}, "put_signal_add": {params: "lkmsec", amo: AmoAdd, count: true},
	"put_signal_nbi": {params: "lkmsec", count: true}, "put_signal_add_nbi": {params: "lkmsec", amo: AmoAdd, count: true},
	"amo_and": {params: "ekmc", amo: AmoAnd}, "amo_or": {params: "ekmc", amo: AmoOr}, "amo_xor": {params: "ekmc", amo: AmoXor},
}

var fetchCalls = map[string]*shmemSpec{
	"amo_fetch":     {params: "kmc", amo: AmoFetch},
	"amo_fetch_add": {params: "ekmc", amo: AmoAdd}, "amo_fetch_inc": {params: "kmc", amo: AmoAdd, inc: true},
	"amo_swap": {params: "ekmc", amo: AmoSwap}, "amo_cswap": {params: "pekmc", amo: AmoCSwap},
	"amo_fetch_and": {params: "ekmc", amo: AmoAnd}, "amo_fetch_or": {params: "ekmc", amo: AmoOr},
	"amo_fetch_xor": {params: "ekmc", amo: AmoXor},
}

var paramNames = map[byte]string{'l': "local address", 'k': "rank", 'm': "remote address",
	's': "signal address", 'e': "value", 'p': "comparand", 'c': "context"}

// getCtxName is the hidden context of blocking gets: nothing but getmem
// uses it, and each getmem waits for it to drain, so "quiet $get" waits
// for exactly that get.
const getCtxName = "$get"

// shmemArgs checks the arity of a call and compiles its operands, keyed
// by parameter letter. ok is false when an error was reported.
func (c *checker) shmemArgs(s *stmt, spec *shmemSpec) (map[byte]*Expr, bool) {
	params := spec.params
	given := s.args
	if spec.count && len(given) > len(params) {
		params += "n"
		if len(given) > len(params) { // an issue order follows n (issueOrder)
			given = given[:len(params)]
		}
	}
	if len(given) != len(params) {
		names := make([]string, len(spec.params))
		for i := range spec.params {
			names[i] = paramNames[spec.params[i]]
		}
		opt := ""
		if spec.count {
			opt = " and optionally an element count n, then an issue order of n offsets"
		}
		c.errorf(s.pos, "%s takes %d arguments (%s)%s, found %d", s.call, len(spec.params), strings.Join(names, ", "), opt, len(s.args))
		return nil, false
	}
	args := map[byte]*Expr{}
	ok := true
	for i, e := range given {
		switch l := params[i]; l {
		case 'n':
			args[l] = c.elemCount(e, s.call)
			ok = ok && args[l] != nil
		case 'c':
			args[l] = c.ctxArg(e, s.call)
			ok = ok && args[l] != nil
		case 'k':
			args[l] = c.operand(e, "rank")
		case 'e', 'p':
			args[l] = c.operand(e, "value")
		default:
			args[l] = c.operand(e, "address")
		}
	}
	if spec.inc {
		args['e'] = gen("1", s.pos, Instr{XConst, 1})
	}
	return args, ok
}

// elemCount compiles the element count of a put-with-signal: a constant
// at least 1, so that the statement lowers to a fixed number of sends.
func (c *checker) elemCount(e exprNode, call string) *Expr {
	x, ok := c.expr(e, -1) // any constant, not a value of DOM
	if !ok {
		return nil
	}
	if v, ok := x.Const(); !ok || v < 1 {
		c.errorf(x.Pos, "the element count %s of %s is not a constant of at least 1", x.Src, call)
		return nil
	} else if v > int64(len(c.prog.Addrs)) {
		c.errorf(x.Pos, "the element count %s of %s is more than the %d addresses", x.Src, call, len(c.prog.Addrs))
		return nil
	}
	return x
}

// shifted returns the address a + i (a itself when i is 0), checked like
// an address operand, so that a constant beyond the last address is an
// error here.
func (c *checker) shifted(a *Expr, i int64) *Expr {
	if i == 0 {
		return a
	}
	code := append(append([]Instr(nil), a.Code...), Instr{XConst, i}, Instr{XAdd, 0})
	src := a.Src
	if strings.ContainsAny(src, " +-*/%()<>=!&|") {
		src = "(" + src + ")"
	}
	x := &Expr{Code: code, Src: fmt.Sprintf("%s+%d", src, i), Pos: a.Pos}
	c.use(x, "address")
	return x
}

// ctxArg resolves the context argument of a call, fence or quiet: it must
// be a context's name, so that the context of every command is known
// statically.
func (c *checker) ctxArg(e exprNode, call string) *Expr {
	n, ok := e.(*nameRef)
	if !ok {
		lo, hi := e.base().srcSpan()
		c.errorf(e.base().pos, "%s takes a context name, found %s", call, c.src[lo:hi])
		return nil
	}
	info, ok := c.names[n.name]
	switch {
	case !ok:
		c.errorf(n.pos, "undefined context %s", n.name)
		return nil
	case info.kind == nkQueue:
		c.errorf(n.pos, "%s is a queue; %s takes a context", n.name, call)
		return nil
	case info.kind != nkCtx:
		c.errorf(n.pos, "%s is %s, not a context", n.name, nameKindNames[info.kind])
		return nil
	}
	return gen(n.name, n.pos, Instr{XConst, int64(info.index)})
}

// isCtxName reports whether e is just the name of a context.
func (c *checker) isCtxName(e exprNode) bool {
	n, ok := e.(*nameRef)
	if !ok {
		return false
	}
	info, found := c.names[n.name]
	return found && info.kind == nkCtx
}

// queueArg compiles the queue argument of read, write, get, put and waitq.
// A context there is an error; so is, in a program with contexts, a queue
// expression whose value is not known statically, since it might name a
// context at run time.
func (c *checker) queueArg(e exprNode, call string) *Expr {
	if n, ok := e.(*nameRef); ok && c.isCtxName(e) {
		c.errorf(n.pos, "%s is a context; %s takes a queue", n.name, call)
		return gen(n.name, n.pos, Instr{XConst, 0})
	}
	x := c.operand(e, "queue")
	if c.prog.Ctx == nil {
		return x
	}
	if v, ok := x.Const(); !ok {
		c.errorf(x.Pos, "queue %s of %s is not a constant; with contexts declared a queue must be known statically (it could name a context)", x.Src, call)
	} else if c.prog.IsCtx(int(v)) {
		c.errorf(x.Pos, "queue %s of %s is %d, the id of context %s; %s takes a queue", x.Src, call, v, c.prog.Queues[v], call)
	}
	return x
}

// lowerShmem lowers an OpenSHMEM statement (sShmem).
func (c *checker) lowerShmem(s *stmt) []path {
	spec := shmemCalls[s.call]
	a, ok := c.shmemArgs(s, spec)
	if !ok {
		return nil
	}
	send := func(local, val, remote *Expr, amo AmoOp) Cmd {
		cmd := cmdOf(OpSend)
		cmd.Local, cmd.Val, cmd.Rank, cmd.Remote, cmd.Queue, cmd.Amo = local, val, a['k'], remote, a['c'], amo
		return cmd
	}
	var cmds []Cmd
	switch s.call {
	case "putmem", "putmem_nbi":
		put := send(a['l'], nil, a['m'], AmoNone)
		put.Blocking = s.call == "putmem"
		cmds = []Cmd{put}
	case "putval", "amo_add", "amo_inc", "amo_set", "amo_and", "amo_or", "amo_xor":
		cmds = []Cmd{send(nil, a['e'], a['m'], spec.amo)}
	case "getmem", "getmem_nbi":
		recv := cmdOf(OpRecv)
		recv.Local, recv.Rank, recv.Remote, recv.Queue = a['l'], a['k'], a['m'], a['c']
		cmds = []Cmd{recv}
		if s.call == "getmem" {
			get := gen(getCtxName, s.pos, Instr{XConst, int64(c.getCtx)})
			recv.Queue = get
			quiet := cmdOf(OpQuiet)
			quiet.Queue = get
			cmds = []Cmd{recv, quiet}
		}
	default: // put_signal, put_signal_add, put_signal_nbi, put_signal_add_nbi
		// The data sends after the first are Chain: the signal waits for
		// all of them (Cmd.Chain), which are unordered among themselves.
		n := int64(1)
		if a['n'] != nil {
			n, _ = a['n'].Const()
		}
		order, ok := c.issueOrder(s, spec, n)
		if !ok {
			return nil
		}
		for j, i := range order {
			data := send(c.shifted(a['l'], i), nil, c.shifted(a['m'], i), AmoNone)
			data.Blocking = !strings.HasSuffix(s.call, "_nbi")
			data.Chain = j > 0
			cmds = append(cmds, data)
		}
		sig := send(nil, a['e'], a['s'], spec.amo)
		sig.After = true
		cmds = append(cmds, sig)
	}
	return c.sugarPath(s.call, cmds)
}

// issueOrder is the order in which a put-with-signal of n elements
// issues its data sends: the offsets 0..n-1 written after the count
// ("put_signal(l, k, m, s, e, c, 2, 1, 0)" issues l+1 before l), index
// order when none are written. Only the issue order differs: the sends
// stay one chain, unordered among themselves, and the signal waits for
// all of them. A blocking send reads its source at issue, so the order
// is the order in which the source cells are read.
func (c *checker) issueOrder(s *stmt, spec *shmemSpec, n int64) ([]int64, bool) {
	extra := s.args[min(len(s.args), len(spec.params)+1):]
	order := make([]int64, 0, n)
	if len(extra) == 0 {
		for i := range n {
			order = append(order, i)
		}
		return order, true
	}
	if int64(len(extra)) != n {
		c.errorf(extra[0].base().pos, "the issue order of %s lists %d offsets; it must list each of 0..%d once", s.call, len(extra), n-1)
		return nil, false
	}
	seen := make([]bool, n)
	for _, e := range extra {
		x, ok := c.expr(e, -1)
		if !ok {
			return nil, false
		}
		v, isConst := x.Const()
		if !isConst || v < 0 || v >= n || seen[v] {
			c.errorf(x.Pos, "the issue order of %s must list each offset 0..%d once, as constants; %s is not one of them or repeats", s.call, n-1, x.Src)
			return nil, false
		}
		seen[v] = true
		order = append(order, v)
	}
	return order, true
}

// lowerFetch lowers "r <- amo_...(...) [when g]" into register reg.
func (c *checker) lowerFetch(s *stmt, reg int) []path {
	spec := fetchCalls[s.call]
	a, ok := c.shmemArgs(s, spec)
	guard := c.guard(s)
	if !ok {
		return nil
	}
	cmd := cmdOf(OpAtomic)
	cmd.Reg, cmd.Amo, cmd.Rank, cmd.Remote, cmd.Queue = reg, spec.amo, a['k'], a['m'], a['c']
	cmd.Val, cmd.Val2, cmd.Guard = a['e'], a['p'], guard
	return c.sugarPath(s.call, []Cmd{cmd})
}

// guard compiles the "when" condition of an await (nil if there is none).
func (c *checker) guard(s *stmt) *Expr {
	if s.guard == nil {
		return nil
	}
	return c.operand(s.guard, "condition")
}

// lowerSync lowers "fence c" and "quiet c"; quiet on anything but a
// context name is the old waitq sugar.
func (c *checker) lowerSync(s *stmt) []path {
	if s.kind == sFence || s.call == "quiet" && c.isCtxName(s.x) {
		op := OpFence
		if s.kind != sFence {
			op = OpQuiet
		}
		cmd := cmdOf(op)
		cmd.Queue = c.ctxArg(s.x, op.String())
		if cmd.Queue == nil {
			return nil
		}
		return []path{{steps: []step{{cmd, ""}}}}
	}
	c.needQueue(s)
	q := c.queueArg(s.x, s.call)
	return []path{{steps: stepsOf("waitq", c.signal(c.sync, q, s.pos))}}
}

func stepsOf(sugar string, cmds []Cmd) []step {
	st := make([]step, len(cmds))
	for i, cmd := range cmds {
		st[i] = step{cmd, sugar}
	}
	return st
}

// declareCtx marks the contexts in Program.Ctx and adds the hidden $get
// context when some getmem needs it. It runs once the queues and contexts
// the user declared are in Program.Queues.
func (c *checker) declareCtx() {
	f, p := c.f, c.prog
	c.getCtx = -1
	needGet := false
	for _, s := range f.stmts {
		needGet = needGet || s.kind == sShmem && s.call == "getmem"
	}
	any := needGet
	for _, b := range f.isCtx {
		any = any || b
	}
	if !any {
		return
	}
	p.Ctx = append([]bool(nil), f.isCtx...)
	if needGet {
		c.getCtx = len(p.Queues)
		p.Queues = append(p.Queues, getCtxName)
		p.Ctx = append(p.Ctx, true)
	}
}

func (c *checker) ctxCount() string {
	n := countTrue(c.prog.Ctx, true)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of them contexts)", n)
}
