// OpenSHMEM distributed locks.

package cfront

import "modernc.org/cc/v4"

// lock translates the distributed locks: the lock word lives on PE 0 (as
// in the reference implementations) and is taken by an atomic await, a
// compare-and-swap from 0 to 1 that can execute only when it succeeds.
// Release completes the critical section's operations first (the quiet
// of shmem_clear_lock, on the default context) and then swaps 0 in.
func (t *translator) lock(x *cc.PostfixExpression, op string, args []cc.ExpressionNode) string {
	t.arity(x, "shmem_"+op, args, 1)
	l := t.symCell(x, args[0], 1)
	t.asyncWrite(l)
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
