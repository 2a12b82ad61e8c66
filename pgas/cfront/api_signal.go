// OpenSHMEM put-with-signal and the signal routines.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

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
	all := !strings.HasSuffix(c.op, "_nbi") && t.sourceOrder(x, name, local, n)
	if n > 1 && !all {
		t.assume(assumeIndexOrder)
	}
	sig := t.symCell(x, args[3], 1)
	t.asyncWrite(remote)
	t.asyncWrite(sig)
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
	k := t.pe(args[6])
	if all { // sourceOrder: the data in every issue order (the sugar's order arguments)
		t.anyPerm(n, "", func(p []int) {
			t.emit("%s(%s, %s, %s, %s, %s, %s, %d, %s)", cmd, local, k, remote, sig, v, ctx, n, orderArgs(p))
		})
		return ""
	}
	count := ""
	if n > 1 {
		count = fmt.Sprintf(", %d", n)
	}
	t.emit("%s(%s, %s, %s, %s, %s, %s%s)", cmd, local, k, remote, sig, v, ctx, count)
	return ""
}

// signalUpdate is shmem_signal_add and shmem_signal_set (and their ctx
// forms): an atomic update of a remote signal, which OpenSHMEM 1.6 orders
// like a non-fetching atomic (delivered later, ordered by fence, complete
// at quiet): amo_add and amo_set.
func (t *translator) signalUpdate(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	ctx := t.defctx
	if strings.HasPrefix(name, "shmem_ctx_") {
		if len(args) == 0 {
			t.refuse(x, "%s without its context", name)
		}
		ctx = t.ctxArg(args[0]).name
		args = args[1:]
	}
	t.arity(x, name, args, 3)
	sig := t.symCell(x, args[0], 1)
	t.asyncWrite(sig)
	v := t.value(args[1])
	op := "amo_set"
	if strings.HasSuffix(name, "_add") {
		op = "amo_add"
	}
	t.emit("%s(%s, %s, %s, %s)", op, v, t.pe(args[2]), sig, ctx)
	return ""
}

// orderArgs writes a permutation as the order arguments of put_signal.
func orderArgs(p []int) string {
	s := make([]string, len(p))
	for i, v := range p {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}
