// OpenSHMEM remote memory access: put, get, their nbi and sized forms.

package cfront

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

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
		t.asyncWrite(dst)
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
	case "iput", "iget":
		t.arity(x, name, args, 6)
		return t.strided(x, name, c, ctx, args)
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
		// an await whose guard always holds: the same step as a load in
		// X, but marked as the atomic read shmem_test is (the race
		// criterion, docs/criteria.md: a test synchronises like a wait)
		t.emit("%s <- mem[%s] when 1", r, cell)
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
	all := put && !nbi && t.sourceOrder(x, name, local, n)
	if put {
		t.asyncWrite(remote)
	} else {
		t.asyncWrite(local)
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
	one := func(i int) {
		off := fmt.Sprint(i)
		t.emit("%s(%s, %s, %s, %s)", cmd, local.plus(off), k, remote.plus(off), ctx)
	}
	switch {
	case all:
		t.anyOrder(n, "", one)
	case n > 1:
		t.assume(assumeIndexOrder)
		fallthrough
	default:
		for i := 0; i < n; i++ {
			one(i)
		}
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

// sourceOrder checks a blocking put of several elements whose source is
// symmetric, and reports whether its elements are to be issued in every
// order (anyPerm) rather than in index order. The call reads its sources
// in no fixed order before it returns. Index order is exact when no other
// PE can write the source while the caller is blocked: always for a
// private object, and for a symmetric one that no operation of the
// program writes asynchronously (no put, atomic, signal or get writes it,
// on any PE): then only its own PE writes it, by plain stores, and that PE
// is in the call. Whether any operation does is known only at the end of
// the translation (apiFinish); if one does, Translate translates again
// with the call in srcAny, and the call is then a choice among the n!
// orders of its n one-element sends. That is exact: the caller is blocked
// for the whole call and each send reads its cell at issue (send
// blocking), so the call's effect on the rest of the program is n reads
// of the source in some order, interleaved with the other PEs' steps, and
// the deliveries are unordered among themselves in every branch.
func (t *translator) sourceOrder(x *cc.PostfixExpression, name string, local addrTerm, n int) bool {
	if n <= 1 || local.ent.kind != kSym {
		return false
	}
	pos := t.pos(x)
	if t.srcAny[pos] && n <= maxSrcOrders {
		return true
	}
	t.srcOrder = append(t.srcOrder, srcOrderCheck{local.ent, pos, n, fmt.Sprintf("blocking %s of %d elements from the symmetric object %s, which the program also writes by remote operations: the call reads its sources in no fixed order, and every order is explored only up to %d elements (copy it to a local buffer first, or use the _nbi form and shmem_quiet)", name, n, t.cname(local.ent), maxSrcOrders)})
	return false
}

// maxSrcOrders bounds the elements of a blocking put whose n! source
// orders are all explored (after the buffer collapse, entry 15 of
// docs/deviations.md).
const maxSrcOrders = 4

type srcOrderCheck struct {
	ent *entity
	pos pgas.Pos
	n   int
	msg string
}

// asyncWrite records that an operation writes a's object asynchronously
// (a put, atomic or signal to it, a get into it).
func (t *translator) asyncWrite(a addrTerm) {
	if t.asyncW == nil {
		t.asyncW = map[*entity]bool{}
	}
	t.asyncW[a.ent] = true
}

// apiFinish makes the checks that need the whole program: the source
// order of blocking puts from symmetric objects. A put whose source some
// operation writes asynchronously goes to srcRetry, so that Translate
// translates again with it issued in every order; on that second
// translation (srcAny set) any other one, and one of more than
// maxSrcOrders elements, is refused.
func (t *translator) apiFinish() {
	for _, c := range t.srcOrder {
		switch {
		case !t.asyncW[c.ent]:
		case c.n <= maxSrcOrders && t.srcAny == nil:
			if t.srcRetry == nil {
				t.srcRetry = map[pgas.Pos]bool{}
			}
			t.srcRetry[c.pos] = true
		default:
			t.errs = append(t.errs, &pgas.Error{Pos: c.pos, Msg: c.msg})
		}
	}
}

// strided is shmem_iput and shmem_iget: nelems elements, element i from
// source[i*sst] to dest[i*dst], as a put or get of nelems elements is
// (one fence epoch, unordered among themselves; a blocking get waits for
// all of them). The strides and the count are constants.
func (t *translator) strided(x *cc.PostfixExpression, name string, c shmemCall, ctx string, args []cc.ExpressionNode) string {
	put := c.op == "iput"
	dst, ok1 := t.nConst(args[2]) // constants, substituted locals and N
	sst, ok2 := t.nConst(args[3])
	if !ok1 || !ok2 || dst < 1 || sst < 1 {
		t.refuse(x, "strides of %s: only positive constants are in the subset", name)
	}
	var remote, local addrTerm
	rs, ls := dst, sst
	if put {
		remote, local = t.pointer(args[0]), t.pointer(args[1])
	} else {
		local, remote = t.pointer(args[0]), t.pointer(args[1])
		rs, ls = sst, dst
	}
	if remote.ent.kind != kSym {
		t.refuse(x, "%s is not symmetric: the remote side of %s must be a global or static object", t.cname(remote.ent), name)
	}
	if local.ent.elem != remote.ent.elem {
		t.refuse(x, "%s between %s and %s, whose elements differ in size", name, t.cname(local.ent), t.cname(remote.ent))
	}
	t.sizeMatch(x, c, remote)
	n := t.count(args[4], c.size, remote.ent, name)
	if c.size != 0 && c.size != remote.ent.elem {
		t.refuse(x, "%s on %s, whose elements have %d bytes, not %d", name, t.cname(remote.ent), remote.ent.elem, c.size)
	}
	rarg, larg := args[0], args[1]
	if !put {
		rarg, larg = larg, rarg
	}
	for i := 0; i < n; i++ {
		t.check(rarg, remote.plus(fmt.Sprint(int64(i)*rs)), 1)
		t.check(larg, local.plus(fmt.Sprint(int64(i)*ls)), 1)
	}
	all := put && t.sourceOrder(x, name, local, n)
	if put {
		t.asyncWrite(remote)
	} else {
		t.asyncWrite(local)
	}
	k := t.pe(args[5])
	cmd := "putmem"
	if !put {
		cmd, ctx = "getmem_nbi", t.getContext()
	}
	one := func(i int) {
		t.emit("%s(%s, %s, %s, %s)", cmd, local.plus(fmt.Sprint(int64(i)*ls)), k, remote.plus(fmt.Sprint(int64(i)*rs)), ctx)
	}
	if all {
		t.anyOrder(n, "", one)
	} else {
		for i := 0; i < n; i++ {
			one(i)
		}
	}
	if !put {
		t.emit("quiet %s", ctx)
	}
	return ""
}
