// OpenSHMEM communication contexts: shmem_ctx_t objects (global, static,
// local to main, arrays of them) and context arguments.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// ctxObject declares d when it is a shmem_ctx_t or an array of them:
// each context object is one context of the program. A local is one
// context only where its declaration runs once: in main, outside any
// loop (a local in a loop or a helper would be a new context at each
// execution, which one calculus context cannot stand for).
func (t *translator) ctxObject(d *cc.Declarator, ty cc.Type, init *cc.Initializer, global bool) bool {
	if isTeamType(ty) || ty.Kind() == cc.Array && isTeamType(ty.(*cc.ArrayType).Elem()) {
		t.teamObject(d, ty, init)
		return true
	}
	n := 0
	switch {
	case isCtxType(ty):
	case ty.Kind() == cc.Array && isCtxType(ty.(*cc.ArrayType).Elem()):
		at := ty.(*cc.ArrayType)
		if at.IsVLA() || at.Len() <= 0 {
			t.refuse(d, "array %s of contexts without a constant length", d.Name())
		}
		n = int(at.Len())
	default:
		return false
	}
	name := d.Name()
	static := global || d.IsStatic()
	if !static && (len(t.frames) != 1 || len(t.frame().loops) > 0) {
		t.refuse(d, "a shmem_ctx_t local inside a loop or a helper function: each execution would make a new context; declare it at file scope or at the top of main")
	}
	if static {
		if _, ok := t.global[d]; ok {
			return true // a static local in a second inlined instance
		}
	}
	if init != nil {
		t.refuse(init, "an initialised shmem_ctx_t: create it with shmem_ctx_create")
	}
	if len(t.ctxs)+max(n, 1) > 14 {
		t.refuse(d, "too many contexts (at most 13 besides the default and the hidden ones)")
	}
	e := &entity{kind: kCtx, length: n}
	if n == 0 {
		e.name = t.fresh(name, name)
		t.ctxs = append(t.ctxs, e.name)
	}
	for i := 0; i < n; i++ {
		el := &entity{kind: kCtx, name: t.fresh(fmt.Sprintf("%s_%d", name, i), fmt.Sprintf("%s[%d]", name, i))}
		t.ctxs = append(t.ctxs, el.name)
		e.elems = append(e.elems, el)
	}
	if static {
		t.global[d] = e
	} else {
		t.frame().vars[d] = e
	}
	return true
}

// ctxArg is a context argument: SHMEM_CTX_DEFAULT, a shmem_ctx_t object
// or parameter, or an element of an array of them at a constant index (a
// computed index is resolved by ctxSwitch around the call).
func (t *translator) ctxArg(e cc.ExpressionNode) *entity {
	if t.ctxOver != nil && e == t.ctxNode {
		return t.ctxOver
	}
	if arr, idx, ok := t.ctxElem(e); ok {
		k, isConst := constValue(idx)
		if !isConst {
			t.refuse(e, "a context array element with a computed index here (only as the context of an OpenSHMEM call)")
		}
		if k < 0 || k >= int64(len(arr.elems)) {
			t.refuse(e, "context %d of an array of %d", k, len(arr.elems))
		}
		return arr.elems[k]
	}
	if p, ok := unparen(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if ent := t.ident(p); ent.kind == kCtx && ent.elems == nil {
			return ent
		}
	}
	t.refuse(e, "a context must be SHMEM_CTX_DEFAULT, a shmem_ctx_t object or an element of an array of them")
	return nil
}

// ctxElem recognises arr[idx] for an array of contexts.
func (t *translator) ctxElem(e cc.ExpressionNode) (*entity, cc.ExpressionNode, bool) {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionIndex {
		return nil, nil, false
	}
	p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return nil, nil, false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok || d == nil {
		return nil, nil, false
	}
	ent := t.lookup(d)
	if ent == nil || ent.kind != kCtx || ent.elems == nil {
		return nil, nil, false
	}
	return ent, x.ExpressionList, true
}

// ctxNodeOf is the context argument of a call of an OpenSHMEM routine
// (the node ctxArg will be given), or nil.
func ctxNodeOf(name string, args []cc.ExpressionNode) cc.ExpressionNode {
	at := func(i int) cc.ExpressionNode {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	addr := func(e cc.ExpressionNode) cc.ExpressionNode {
		if u, ok := unparen(e).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
			return u.CastExpression
		}
		return nil
	}
	switch {
	case name == "shmem_ctx_create":
		return addr(at(1))
	case name == "shmem_team_create_ctx":
		return addr(at(2))
	case strings.HasPrefix(name, "shmem_ctx_"):
		return at(0)
	}
	return nil
}

// ctxSwitch translates a call whose context is arr[i] with a computed i:
// i is evaluated first (the context is the call's first argument), then
// the call is translated once per element, behind "if i == k"; an index
// outside the array is a run-time error at the call (C's undefined
// behaviour). Only one branch runs, so the translation is exact.
func (t *translator) ctxSwitch(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) (string, bool) {
	node := ctxNodeOf(name, args)
	if node == nil || node == t.ctxNode {
		return "", false
	}
	arr, idx, ok := t.ctxElem(node)
	if !ok {
		return "", false
	}
	if _, isConst := constValue(idx); isConst {
		return "", false
	}
	i := t.index(idx)
	res := t.temp()
	base := t.ntemp
	end := t.label()
	var ls []string
	for k := range arr.elems {
		ls = append(ls, t.label())
		t.emit("if %s == %d goto %s", i, k, ls[k])
	}
	g := t.temp()
	t.emit("%s <- rank - rank + %d", g, poisonValue)
	t.emit("goto %s", end)
	void := true
	oldOver, oldNode := t.ctxOver, t.ctxNode
	for k, el := range arr.elems {
		t.place(ls[k])
		t.ntemp = base
		t.ctxOver, t.ctxNode = el, node
		if v := t.shmem(x, name, args); v != "" {
			t.emit("%s <- %s", res, v)
			void = false
		}
		t.emit("goto %s", end)
	}
	t.ctxOver, t.ctxNode = oldOver, oldNode
	t.place(end)
	if void {
		return "", true
	}
	return res, true
}
