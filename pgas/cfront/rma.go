package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// arity checks the number of arguments (after the context).
func (t *translator) arity(x cc.Node, name string, args []cc.ExpressionNode, n int) {
	if len(args) != n {
		t.refuse(x, "%s takes %d arguments here, not %d", name, n, len(args))
	}
}

// rma translates the typed and untyped put, get, atomic, wait and test
// routines (docs/shmem.md has the mapping and why each is exact).
func (t *translator) rma(x *cc.PostfixExpression, name string, c shmemCall, ctx string, args []cc.ExpressionNode) string {
	op := c.op
	switch op {
	case "put", "put_nbi", "get", "get_nbi":
		t.arity(x, name, args, 4)
		return t.transfer(x, name, c, ctx, args)
	case "p":
		t.arity(x, name, args, 3)
		dst := t.symCell(x, args[0], 1)
		t.sizeMatch(x, c, dst)
		v := t.value(args[1])
		t.emit("putval(%s, %s, %s, %s)", v, t.pe(args[2]), dst, ctx)
		return ""
	case "g":
		t.arity(x, name, args, 2)
		src := t.symCell(x, args[0], 1)
		t.sizeMatch(x, c, src)
		if t.gcell == "" {
			t.gcell = t.fresh("g_result", "(shmem_g result)")
			t.addAddr(&entity{kind: kCell, name: t.gcell})
		}
		t.emit("getmem(%s, %s, %s, %s)", t.gcell, t.pe(args[1]), src, ctx)
		r := t.temp()
		t.emit("%s <- mem[%s]", r, t.gcell)
		return r
	case "put_signal", "put_signal_nbi":
		t.arity(x, name, args, 7)
		return t.putSignal(x, name, c, ctx, args)
	case "wait_until":
		t.arity(x, name, args, 3)
		cell := t.symCell(x, args[0], 1)
		t.sizeMatch(x, c, cell)
		t.await(x, cell, args[1], args[2])
		return ""
	case "test":
		t.arity(x, name, args, 3)
		cell := t.symCell(x, args[0], 1)
		t.sizeMatch(x, c, cell)
		o := t.cmp(args[1])
		v := t.value(args[2])
		r := t.temp()
		t.emit("%s <- mem[%s]", r, cell)
		return fmt.Sprintf("(%s %s %s)", r, o, v)
	case "wait_until_all", "wait_until_any":
		t.arity(x, name, args, 5)
		if isNull(args[2]) {
			return t.waitMany(x, name, c, op == "wait_until_all", args)
		}
		return t.manyIvars(x, name, c, args)
	case "wait_until_some", "test_some", "test_any", "test_all", "wait_until_all_vector",
		"wait_until_any_vector", "wait_until_some_vector", "test_all_vector", "test_any_vector", "test_some_vector":
		return t.manyIvars(x, name, c, args)
	}
	if a, ok := strings.CutPrefix(op, "atomic_"); ok {
		return t.atomic(x, name, c, ctx, a, args)
	}
	t.refuse(x, "%s is outside the subset", name)
	return ""
}

// sizeMatch refuses a typed routine on an object of another size: the
// calculus has one cell per element.
func (t *translator) sizeMatch(x cc.Node, c shmemCall, a addrTerm) {
	if c.typ != "" && c.size != a.ent.elem {
		t.refuse(x, "shmem_%s_… on %s, whose elements have %d bytes, not %d", c.typ, t.cname(a.ent), a.ent.elem, c.size)
	}
}

// transfer is a put or get of n elements: n one-cell operations of the
// same epoch, which the calculus leaves unordered, as OpenSHMEM does. A
// blocking get of several cells issues them all, then waits for them.
func (t *translator) transfer(x *cc.PostfixExpression, name string, c shmemCall, ctx string, args []cc.ExpressionNode) string {
	put := strings.HasPrefix(c.op, "put")
	nbi := strings.HasSuffix(c.op, "_nbi")
	var remote, local addrTerm
	var n int
	if put {
		remote = t.pointer(args[0])
		local = t.pointer(args[1])
	} else {
		local = t.pointer(args[0])
		remote = t.pointer(args[1])
	}
	n = t.count(args[2], c.size, remote.ent, name)
	if local.ent.elem != remote.ent.elem {
		t.refuse(x, "%s between %s and %s, whose elements differ in size", name, t.cname(local.ent), t.cname(remote.ent))
	}
	if remote.ent.kind != kSym {
		t.refuse(x, "%s is not symmetric: the remote side of %s must be a global or static object", t.cname(remote.ent), name)
	}
	t.check(args[0], remote, n)
	t.check(args[1], local, n)
	t.sizeMatch(x, c, remote)
	if put && !nbi {
		t.sourceOrder(x, name, local, n)
	}
	k := t.pe(args[3])
	cmd := "putmem"
	if !put {
		cmd = "getmem"
	}
	switch {
	case nbi:
		cmd += "_nbi"
	case !put && n > 1:
		// getmem is one recv and a wait for it; n cells are n recvs
		// and one wait for all, on a context of their own.
		cmd += "_nbi"
		ctx = t.getContext()
	}
	for i := 0; i < n; i++ {
		off := fmt.Sprint(i)
		t.emit("%s(%s, %s, %s, %s)", cmd, local.plus(off), k, remote.plus(off), ctx)
	}
	if !put && !nbi && n > 1 {
		t.emit("quiet %s", ctx)
	}
	return ""
}

func (t *translator) getContext() string {
	if t.getctx == "" {
		t.getctx = t.fresh("get_ctx", "(blocking get)")
		t.ctxs = append(t.ctxs, t.getctx)
	}
	return t.getctx
}

// sourceOrder refuses a blocking put of several elements whose source
// is symmetric. The call reads its sources in no fixed order before it
// returns; the translation reads them one by one in index order (n
// blocking sends). That is exact when no other PE can write the source
// while the caller is blocked, which holds for a private object; a
// symmetric one may be put to concurrently, and then an order the
// translation never takes could be observed, so a ROBUST answer could be
// wrong.
func (t *translator) sourceOrder(x *cc.PostfixExpression, name string, local addrTerm, n int) {
	if n > 1 && local.ent.kind == kSym {
		t.refuse(x, "blocking %s of %d elements from the symmetric object %s: the call reads its sources in no fixed order, which is modelled only for a private source (copy it to a local buffer first, or use the _nbi form and shmem_quiet)", name, n, t.cname(local.ent))
	}
}

// putSignal is shmem_put_signal[_nbi]: n data cells, then the signal,
// which the .pgas call's element count makes wait for all of them
// (Cmd.Chain).
func (t *translator) putSignal(x *cc.PostfixExpression, name string, c shmemCall, ctx string, args []cc.ExpressionNode) string {
	remote := t.pointer(args[0])
	local := t.pointer(args[1])
	if remote.ent.kind != kSym {
		t.refuse(args[0], "%s is not symmetric", t.cname(remote.ent))
	}
	n := t.count(args[2], c.size, remote.ent, name)
	if local.ent.elem != remote.ent.elem {
		t.refuse(x, "%s between %s and %s, whose elements differ in size", name, t.cname(local.ent), t.cname(remote.ent))
	}
	t.check(args[0], remote, n)
	t.check(args[1], local, n)
	if !strings.HasSuffix(c.op, "_nbi") {
		t.sourceOrder(x, name, local, n)
	}
	sig := t.symCell(x, args[3], 1)
	v := t.value(args[4])
	mode, ok := constValue(args[5])
	if !ok || mode != 0 && mode != 1 {
		t.refuse(args[5], "signal operation: SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD")
	}
	cmd := "put_signal"
	if mode == 1 {
		cmd += "_add"
	}
	if strings.HasSuffix(c.op, "_nbi") {
		cmd += "_nbi"
	}
	count := ""
	if n > 1 {
		count = fmt.Sprintf(", %d", n)
	}
	t.emit("%s(%s, %s, %s, %s, %s, %s%s)", cmd, local, t.pe(args[6]), remote, sig, v, ctx, count)
	return ""
}

// atomic translates shmem_[ctx_][TYPE_]atomic_OP.
func (t *translator) atomic(x *cc.PostfixExpression, name string, c shmemCall, ctx, op string, args []cc.ExpressionNode) string {
	want := map[string]int{"fetch": 2, "set": 3, "add": 3, "inc": 2, "fetch_add": 3, "fetch_inc": 2,
		"swap": 3, "compare_swap": 4}
	n, ok := want[op]
	if !ok {
		t.refuse(x, "%s is outside the subset (bitwise and nbi atomics are not in it)", name)
	}
	t.arity(x, name, args, n)
	dst := t.symCell(x, args[0], 1)
	t.sizeMatch(x, c, dst)
	var vals []string
	for _, a := range args[1 : n-1] {
		vals = append(vals, t.value(a))
	}
	k := t.pe(args[n-1])
	switch op {
	case "set", "add":
		t.emit("amo_%s(%s, %s, %s, %s)", op, vals[0], k, dst, ctx)
		return ""
	case "inc":
		t.emit("amo_inc(%s, %s, %s)", k, dst, ctx)
		return ""
	}
	r := t.temp()
	switch op {
	case "fetch", "fetch_inc":
		t.emit("%s <- amo_%s(%s, %s, %s)", r, op, k, dst, ctx)
	case "fetch_add", "swap":
		t.emit("%s <- amo_%s(%s, %s, %s, %s)", r, op, vals[0], k, dst, ctx)
	case "compare_swap":
		t.emit("%s <- amo_cswap(%s, %s, %s, %s, %s)", r, vals[0], vals[1], k, dst, ctx)
	}
	return r
}

// lock translates the distributed locks: the lock word lives on PE 0 (as
// in the reference implementations) and is taken by an atomic await, a
// compare-and-swap from 0 to 1 that can execute only when it succeeds.
// Release completes the critical section's operations first (the quiet
// of shmem_clear_lock, on the default context) and then swaps 0 in.
func (t *translator) lock(x *cc.PostfixExpression, op string, args []cc.ExpressionNode) string {
	t.arity(x, "shmem_"+op, args, 1)
	l := t.symCell(x, args[0], 1)
	ctx := t.lockContext()
	r := t.temp()
	switch op {
	case "set_lock":
		t.emit("%s <- amo_cswap(0, 1, 1, %s, %s) when %s == 0", r, l, ctx, r)
		return ""
	case "test_lock":
		t.emit("%s <- amo_cswap(0, 1, 1, %s, %s)", r, l, ctx)
		return r
	}
	t.emit("quiet %s", t.defctx)
	t.emit("%s <- amo_swap(0, 1, %s, %s)", r, l, ctx)
	return ""
}

func (t *translator) lockContext() string {
	if t.lockctx == "" {
		t.lockctx = t.fresh("lock_ctx", "(locks)")
		t.ctxs = append(t.ctxs, t.lockctx)
	}
	return t.lockctx
}

// waitMany is wait_until_all and wait_until_any with status NULL. The
// routine polls the cells in an order it does not promise, so every order
// is a choice of the translation (at most 3 cells: 6 orders).
func (t *translator) waitMany(x *cc.PostfixExpression, name string, c shmemCall, all bool, args []cc.ExpressionNode) string {
	if v, ok := constValue(args[2]); !ok || v != 0 {
		if !isNull(args[2]) {
			t.refuse(args[2], "status argument of %s: only NULL is in the subset", name)
		}
	}
	base := t.pointer(args[0])
	if base.ent.kind != kSym {
		t.refuse(args[0], "%s is not symmetric", t.cname(base.ent))
	}
	n := t.count(args[1], 0, base.ent, name)
	t.check(args[0], base, n)
	t.sizeMatch(x, c, base)
	if all && n > 3 {
		t.refuse(args[1], "%s of %d cells: at most 3 (every polling order is explored)", name, n)
	}
	op := t.cmp(args[3])
	v := t.value(args[4])
	r := t.temp()
	end := t.label()
	if !all {
		res := t.temp()
		var ls []string
		for i := 0; i < n; i++ {
			ls = append(ls, t.label())
		}
		t.emit("goto %s", strings.Join(ls, ", "))
		for i, l := range ls {
			t.place(l)
			t.emit("%s <- mem[%s] when %s %s %s", r, base.plus(fmt.Sprint(i)), r, op, v)
			t.emit("%s <- %d; goto %s", res, i, end)
		}
		t.place(end)
		return res
	}
	perms := permutations(n)
	var ls []string
	for range perms {
		ls = append(ls, t.label())
	}
	if len(ls) > 1 {
		t.emit("goto %s", strings.Join(ls, ", "))
	}
	for i, p := range perms {
		if len(ls) > 1 {
			t.place(ls[i])
		}
		for _, j := range p {
			t.emit("%s <- mem[%s] when %s %s %s", r, base.plus(fmt.Sprint(j)), r, op, v)
		}
		t.emit("goto %s", end)
	}
	t.place(end)
	return ""
}

func isNull(e cc.ExpressionNode) bool {
	s := strings.Join(strings.Fields(cc.NodeSource(e)), "")
	return s == "NULL" || s == "((void*)0)" || s == "0"
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}
