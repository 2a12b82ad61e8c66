// OpenSHMEM point-to-point synchronisation on one ivar (wait_until, test).

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

var cmpOps = map[int64]string{1: "==", 2: "!=", 3: ">", 4: ">=", 5: "<", 6: "<="}

func (t *translator) cmp(e cc.ExpressionNode) string {
	k, ok := constValue(e)
	if !ok {
		// a parameter never assigned, to which the (inlined) caller
		// passed a constant: wait_any(ivar, n, SHMEM_CMP_NE, 0)
		if s, isConst := t.rankExpr(e); isConst {
			if v, err := evalSize(s, t.opt.N); err == nil {
				k, ok = v, true
			}
		}
	}
	if op, found := cmpOps[k]; ok && found {
		return op
	}
	t.refuse(e, "comparison operator: one of the SHMEM_CMP_ constants (or a parameter that every call of its function passes one, and that the function does not assign)")
	return ""
}

// await is shmem_wait_until and shmem_signal_wait_until: an atomic await
// on a local cell, whose value it returns.
func (t *translator) await(x cc.Node, cell addrTerm, cmpArg, val cc.ExpressionNode) string {
	op := t.cmp(cmpArg)
	v := t.value(val)
	r := t.temp()
	t.emit("%s <- mem[%s] when %s %s %s", r, cell, r, op, v)
	return r
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
	t.anyOrder(n, end, func(j int) {
		t.emit("%s <- mem[%s] when %s %s %s", r, base.plus(fmt.Sprint(j)), r, op, v)
	})
	return ""
}
