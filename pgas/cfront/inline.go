// Calls of the file's own functions, translated by inlining their bodies.

package cfront

import "modernc.org/cc/v4"

// call translates a call. want says the value is used; the result is a
// .pgas expression (a register, or rank - 1 for shmem_my_pe).
func (t *translator) call(x *cc.PostfixExpression, want bool) string {
	callee, ok := unparen(generic(x.PostfixExpression)).(*cc.PrimaryExpression)
	if !ok || callee.Case != cc.PrimaryExpressionIdent {
		t.refuse(x, "call through a function pointer")
	}
	name := callee.Token.SrcStr()
	if d, ok := callee.ResolvedTo().(*cc.Declarator); !ok || d.Type().Kind() != cc.Function {
		t.refuse(x, "call through a function pointer (%s)", name)
	}
	var args []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	if fd, ok := t.funcs[name]; ok {
		return t.inline(x, fd, name, args, want)
	}
	t.apiArgs(x, name, args) // conv_ops.go
	outer := t.wantValue
	t.wantValue = want
	v := t.library(x, name, args)
	t.wantValue = outer
	if want && v == "" {
		t.refuse(x, "the value of %s, which returns nothing the translation models", name)
	}
	return v
}

// inline translates a call of a function of the file by its body, with
// fresh registers for its locals. Integer arguments are evaluated into
// registers, pointer arguments bound to the cells they designate, context
// arguments to the context.
func (t *translator) inline(x *cc.PostfixExpression, fd *cc.FunctionDefinition, name string, args []cc.ExpressionNode, want bool) string {
	ft, ok := fd.Declarator.Type().(*cc.FunctionType)
	if !ok || ft.IsVariadic() {
		t.refuse(x, "variadic function %s", name)
	}
	params := ft.Parameters()
	if len(params) == 1 && params[0].Type().Kind() == cc.Void {
		params = nil
	}
	if len(params) != len(args) {
		t.refuse(x, "call of %s with %d arguments for %d parameters", name, len(args), len(params))
	}
	binds := map[*cc.Declarator]*entity{}
	for i, p := range params {
		d := p.Declarator
		if d == nil {
			continue
		}
		pt := p.Type()
		switch {
		case isCtxType(pt):
			binds[d] = t.ctxArg(args[i])
		case isTeamType(pt):
			t.teamParam(d, args[i]) // api_team.go
		case pt.Kind() == cc.Ptr:
			binds[d] = t.ptrParam(d, args[i]) // pointer.go
		case cc.IsIntegerType(pt):
			t.noteType(pt)
			if d.AddressTaken() {
				t.refuse(d, "the address of parameter %s is taken", d.Name())
			}
			if d.WriteCount() == 0 && !t.convNeeded(pt, args[i], nil) { // conv.go
				// a parameter never assigned, passed an expression of
				// my_pe and n_pes, is substituted like such a local
				if s, ok := t.rankExpr(args[i]); ok {
					lo, ok := t.lowBound(args[i])
					binds[d] = &entity{kind: kConst, expr: boolConv(pt, s), lo: lo, loOK: ok}
					continue
				}
			}
			v := t.convTo(pt, args[i], t.value(args[i]), nil) // conv.go
			r := t.fresh(name+"_"+d.Name(), name+"."+d.Name())
			if len(t.regs) >= 24 {
				t.refuse(x, "too many locals (the checker has 32 registers)")
			}
			t.regs = append(t.regs, r)
			t.emit("%s <- %s", r, v)
			binds[d] = &entity{kind: kReg, name: r}
		default:
			t.refuse(args[i], "parameter %s of type %s", d.Name(), pt)
		}
	}
	res := ""
	if want && ft.Result().Kind() == cc.Ptr {
		t.refuse(x, "the pointer %s returns, used as a value", name)
	}
	if want {
		if ft.Result().Kind() == cc.Void {
			t.refuse(x, "the value of %s, which returns void", name)
		}
		res = t.temp()
	}
	old := t.cur
	t.enterCall(x)
	t.function(fd, binds, res, name)
	t.leaveCall()
	t.cur = old
	return res
}

// generic is the expression a C11 _Generic selection stands for (the
// association its controlling type selects; the controlling expression
// is not evaluated), or e itself.
func generic(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		p, ok := unparen(e).(*cc.PrimaryExpression)
		if !ok || p.Case != cc.PrimaryExpressionGeneric || p.GenericSelection.Associated() == nil {
			return e
		}
		e = p.GenericSelection.Associated().AssignmentExpression
	}
}
