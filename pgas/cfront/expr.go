package cfront

import (
	"fmt"
	"slices"

	"modernc.org/cc/v4"
)

// Expressions. value emits the loads and calls an expression needs, left
// to right, and returns a .pgas expression over registers for its value.
// Every read of a cell is one load: in the calculus each access is an
// event, and the order of two accesses of one PE is program order.

// temp returns a register for an intermediate result; temps are released
// when the statement that took them ends (release).
func (t *translator) temp() string {
	if t.ntemp == len(t.temps) {
		if len(t.regs) >= 31 {
			t.refuse(nil, "expression too complex: more than 32 registers needed")
		}
		n := t.fresh(fmt.Sprintf("tmp%d", len(t.temps)), "")
		t.temps = append(t.temps, n)
		t.regs = append(t.regs, n)
	}
	t.ntemp++
	return t.temps[t.ntemp-1]
}

func (t *translator) value(e cc.ExpressionNode) string {
	if v, ok := t.bufSubst(e); ok { // buffer_plan.go
		if t.novalue == 0 {
			t.constant(e, v)
		}
		return fmt.Sprint(v)
	}
	if s, ok := t.pointerValue(e); ok { // pointer.go
		return s
	}
	if v, ok := t.constBits(e); ok { // unsigned_bits.go: constValue, or a bit pattern
		if t.novalue == 0 {
			t.constant(e, v)
		}
		if v < 0 {
			return fmt.Sprintf("(%d)", v)
		}
		return fmt.Sprint(v)
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		return t.primary(x)
	case *cc.PostfixExpression:
		return t.postfix(x)
	case *cc.UnaryExpression:
		return t.unary(x)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return t.value(x.UnaryExpression)
		}
		if !cc.IsIntegerType(x.Type()) {
			t.refuse(x, "cast to %s (only integer casts are in the subset)", x.Type())
		}
		if isUnsigned(x.Type()) && !isUnsigned(x.CastExpression.Type()) {
			if v, ok := t.lowBound(x.CastExpression); !ok || v < 0 {
				t.refuse(x, "cast of a signed value to %s (C wraps a negative one around, the calculus does not)", x.Type())
			}
		}
		if unsignedInt(x.Type()) && x.Type().Size() < 4 {
			// to unsigned char or short: C's remainder (conv.go)
			return t.convTo(x.Type(), x.CastExpression, t.value(x.CastExpression), nil)
		}
		return t.value(x.CastExpression)
	case *cc.MultiplicativeExpression:
		if x.MultiplicativeExpression != nil {
			t.divisor(x, x.Token.SrcStr(), x.CastExpression)
		}
		return t.unsignedArith(x, x.MultiplicativeExpression, x.Token, x.CastExpression) // conv_ops.go
	case *cc.AdditiveExpression:
		if x.Case != cc.AdditiveExpressionMul && isPointer(x.Type()) {
			t.refuse(x, "pointer arithmetic used as a value")
		}
		if x.Case == cc.AdditiveExpressionSub && isUnsigned(x.Type()) {
			// exact when the difference is known non-negative: C then
			// does not wrap it around (lowbound.go)
			if lo, ok := t.lowBound(x); !ok || lo < 0 {
				t.refuse(x, "subtraction in unsigned arithmetic (C wraps it around, the calculus does not; compute in a signed type)")
			}
			return t.binary(x.AdditiveExpression, x.Token, x.MultiplicativeExpression)
		}
		return t.unsignedArith(x, x.AdditiveExpression, x.Token, x.MultiplicativeExpression) // conv_ops.go
	case *cc.RelationalExpression:
		if isSizeMax(x.RelationalExpression) || isSizeMax(x.ShiftExpression) {
			return t.sizeMaxCompare(x, x.Token, x.RelationalExpression, x.ShiftExpression)
		}
		return t.mixedCompare(x, x.RelationalExpression, x.Token, x.ShiftExpression) // conv_ops.go
	case *cc.EqualityExpression:
		if isSizeMax(x.EqualityExpression) || isSizeMax(x.RelationalExpression) {
			return t.sizeMaxCompare(x, x.Token, x.EqualityExpression, x.RelationalExpression)
		}
		if x.EqualityExpression != nil && !t.mixedSigns(x.EqualityExpression, x.RelationalExpression) {
			if v, ok := t.memcmpZero(x); ok {
				return v
			}
			if v, ok := t.equalityConst(x.Token, x.EqualityExpression, x.RelationalExpression); ok {
				return v
			}
		}
		return t.mixedCompare(x, x.EqualityExpression, x.Token, x.RelationalExpression) // conv_ops.go
	case *cc.ShiftExpression, *cc.AndExpression, *cc.ExclusiveOrExpression, *cc.InclusiveOrExpression:
		return t.bitwiseExpr(e)
	case *cc.LogicalAndExpression:
		return t.logical(x, true, x.LogicalAndExpression, x.InclusiveOrExpression)
	case *cc.LogicalOrExpression:
		return t.logical(x, false, x.LogicalOrExpression, x.LogicalAndExpression)
	case *cc.ConditionalExpression:
		return t.conditional(x)
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return t.value(x.ConditionalExpression)
		}
		return t.assign(x)
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return t.value(x.AssignmentExpression)
		}
		t.exprStmt(x.AssignmentExpression) // the comma operator: left for its effect
		return t.value(x.ExpressionList)
	}
	t.refuse(e, "this expression")
	return ""
}

// isUnsigned reports whether arithmetic in ty wraps around in C: the
// unsigned types that integer promotion leaves unsigned. The calculus
// computes with exact integers, so such arithmetic could go negative
// where C would not.
func isUnsigned(ty cc.Type) bool {
	if ty == nil {
		return false
	}
	switch ty.Kind() {
	case cc.UInt, cc.ULong, cc.ULongLong:
		return true
	}
	return false
}

func isPointer(ty cc.Type) bool { return ty != nil && (ty.Kind() == cc.Ptr || ty.Kind() == cc.Array) }

func (t *translator) binary(a cc.ExpressionNode, op cc.Token, b cc.ExpressionNode) string {
	if b == nil || a == nil {
		// a pass-through node (no operator)
		if a != nil {
			return t.value(a)
		}
		return t.value(b)
	}
	x := t.value(a)
	y := t.value(b)
	return fmt.Sprintf("(%s %s %s)", x, op.SrcStr(), y)
}

func (t *translator) primary(x *cc.PrimaryExpression) string {
	switch x.Case {
	case cc.PrimaryExpressionIdent:
		return t.readVar(x)
	case cc.PrimaryExpressionExpr:
		return t.value(x.ExpressionList)
	case cc.PrimaryExpressionFloat:
		t.refuse(x, "floating point constant %s", x.Token.SrcStr())
	case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
		t.refuse(x, "string used as a value")
	case cc.PrimaryExpressionStmt:
		t.refuse(x, "statement expression")
	case cc.PrimaryExpressionGeneric:
		if g := generic(x); g != cc.ExpressionNode(x) {
			return t.value(g)
		}
		t.refuse(x, "_Generic without a matching association")
	}
	t.refuse(x, "this expression")
	return ""
}

// ident resolves an identifier to its entity, refusing what the subset
// does not know.
func (t *translator) ident(x *cc.PrimaryExpression) *entity {
	d, ok := x.ResolvedTo().(*cc.Declarator)
	if !ok || d == nil {
		t.refuse(x, "identifier %s", x.Token.SrcStr())
	}
	if d.Name() == "__cfront_ctx_default" {
		return &entity{kind: kCtx, name: t.defctx}
	}
	if d.Name() == "__cfront_ctx_invalid" {
		t.ctxInvalid(x) // api_session.go
	}
	if d.Name() == "__cfront_team_world" {
		t.refuse(x, "teams (SHMEM_TEAM_WORLD)")
	}
	e := t.lookup(d)
	if e == nil && ours(d.Position().Filename) {
		e = t.libcObject(x, d)
	}
	if e == nil {
		if d.Type().Kind() == cc.Function {
			t.refuse(x, "function %s used as a value (function pointers are outside the subset)", d.Name())
		}
		t.refuse(x, "%s is not an object of this program", d.Name())
	}
	return e
}

func (t *translator) readVar(x *cc.PrimaryExpression) string {
	e := t.ident(x)
	switch e.kind {
	case kReg:
		return t.guardSM(e.name)
	case kConst:
		return e.expr
	case kSym, kCell:
		if e.length > 0 {
			t.refuse(x, "array %s used as a value", x.Token.SrcStr())
		}
		r := t.temp()
		t.emit("%s <- mem[%s]", r, e.name)
		return r
	case kCtx:
		t.refuse(x, "context %s used as a value", x.Token.SrcStr())
	}
	t.refuse(x, "pointer %s used as a value (only as an argument)", x.Token.SrcStr())
	return ""
}

func (t *translator) postfix(x *cc.PostfixExpression) string {
	switch x.Case {
	case cc.PostfixExpressionPrimary:
		return t.value(x.PrimaryExpression)
	case cc.PostfixExpressionIndex, cc.PostfixExpressionPSelect, cc.PostfixExpressionSelect:
		a := t.address(x)
		r := t.temp()
		t.emit("%s <- mem[%s]", r, a.String())
		return r
	case cc.PostfixExpressionCall:
		return t.guardSM(t.call(x, true))
	case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
		before, _ := t.increment(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, true)
		return before
	}
	t.refuse(x, "this expression")
	return ""
}

func (t *translator) unary(x *cc.UnaryExpression) string {
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return t.value(x.PostfixExpression)
	case cc.UnaryExpressionMinus:
		if isUnsigned(x.Type()) {
			t.refuse(x, "negation in unsigned arithmetic (C wraps it around, the calculus does not)")
		}
		return "(-" + t.value(x.CastExpression) + ")"
	case cc.UnaryExpressionPlus:
		return t.value(x.CastExpression)
	case cc.UnaryExpressionNot:
		return "(!" + t.zeroValue(x.CastExpression) + ")"
	case cc.UnaryExpressionDeref:
		a := t.address(x)
		r := t.temp()
		t.emit("%s <- mem[%s]", r, a.String())
		return r
	case cc.UnaryExpressionCpl:
		return t.complement(x)
	case cc.UnaryExpressionAddrof:
		t.refuse(x, "address used as a value (&object is allowed only as an argument of an OpenSHMEM routine or of a function of the file)")
	case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
		_, after := t.increment(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, true)
		return after
	}
	t.refuse(x, "this expression")
	return ""
}

// logical is && (and) or || (!and) as a value. When the right operand
// loads or calls, C evaluates it only if needed, so the value is computed
// by branches; otherwise it is one .pgas expression.
func (t *translator) logical(x cc.ExpressionNode, and bool, a, b cc.ExpressionNode) string {
	if b == nil {
		return t.value(a)
	}
	op := "||"
	if and {
		op = "&&"
	}
	if t.pure(b) {
		return fmt.Sprintf("(%s %s %s)", t.value(a), op, t.value(b))
	}
	r := t.temp()
	end := t.label()
	if and {
		t.emit("%s <- 0", r)
		t.branch(a, false, end)
		t.branch(b, false, end)
		t.emit("%s <- 1", r)
	} else {
		t.emit("%s <- 1", r)
		t.branch(a, true, end)
		t.branch(b, true, end)
		t.emit("%s <- 0", r)
	}
	t.place(end)
	return r
}

func (t *translator) conditional(x *cc.ConditionalExpression) string {
	if x.Case == cc.ConditionalExpressionLOr {
		return t.value(x.LogicalOrExpression)
	}
	if x.ExpressionList == nil {
		t.refuse(x, "the ?: extension without a middle operand")
	}
	r := t.temp()
	els, end := t.label(), t.label()
	t.branch(x.LogicalOrExpression, false, els)
	t.emit("%s <- %s", r, t.convTo(x.Type(), x.ExpressionList, t.value(x.ExpressionList), nil)) // conv.go
	t.emit("goto %s", end)
	t.place(els)
	t.emit("%s <- %s", r, t.convTo(x.Type(), x.ConditionalExpression, t.value(x.ConditionalExpression), nil))
	t.place(end)
	return r
}

// pure reports whether evaluating e emits nothing (no load, no call): it
// translates e and takes the lines back.
func (t *translator) pure(e cc.ExpressionNode) bool {
	n, nt, nc, regs := len(t.out), t.ntemp, t.maxc, len(t.regs)
	temps, libRegs := len(t.temps), len(t.libRegs)
	t.novalue++
	t.value(e)
	t.novalue--
	if len(t.libRegs) > libRegs {
		// registers of the C library made here are made again by the
		// real translation: undo them with the rest
		for name, r := range t.libRegs {
			if !slices.Contains(t.regs[:regs], r.ent.name) {
				t.regs = slices.DeleteFunc(t.regs, func(s string) bool { return s == r.ent.name })
				delete(t.libRegs, name)
			}
		}
		regs = min(regs, len(t.regs))
	}
	ok := len(t.out) == n
	t.out, t.orig = t.out[:n], t.orig[:n]
	t.ntemp, t.maxc = nt, nc
	if len(t.temps) > temps {
		for _, r := range t.temps[temps:] {
			delete(t.used, r)
		}
		t.temps, t.regs = t.temps[:temps], t.regs[:regs]
	}
	return ok
}

// branch emits a jump to l taken when e is true (when) or false (!when);
// otherwise control falls through. && and || and ! are control flow, as
// in C: the right operand is evaluated only when needed.
func (t *translator) branch(e cc.ExpressionNode, when bool, l string) {
	if v, ok := constValue(e); ok {
		if (v != 0) == when {
			t.emit("goto %s", l)
		}
		return
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			t.branch(x.ExpressionList, when, l)
			return
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			t.branch(x.CastExpression, !when, l)
			return
		}
	case *cc.LogicalAndExpression:
		if x.InclusiveOrExpression != nil && x.LogicalAndExpression != nil {
			if when { // a && b true: both true
				skip := t.label()
				t.branch(x.LogicalAndExpression, false, skip)
				t.branch(x.InclusiveOrExpression, true, l)
				t.place(skip)
			} else {
				t.branch(x.LogicalAndExpression, false, l)
				t.branch(x.InclusiveOrExpression, false, l)
			}
			return
		}
	case *cc.LogicalOrExpression:
		if x.LogicalAndExpression != nil && x.LogicalOrExpression != nil {
			if when {
				t.branch(x.LogicalOrExpression, true, l)
				t.branch(x.LogicalAndExpression, true, l)
			} else {
				skip := t.label()
				t.branch(x.LogicalOrExpression, true, skip)
				t.branch(x.LogicalAndExpression, false, l)
				t.place(skip)
			}
			return
		}
	}
	v := t.zeroValue(e)
	if when {
		t.emit("if %s goto %s", v, l)
	} else {
		t.emit("if !%s goto %s", paren(v), l)
	}
}

func paren(s string) string { return "(" + s + ")" }
