package cfront

import (
	"modernc.org/cc/v4"
)

// function translates the body of fd as one inlined instance. binds
// sets the parameters (nil for main); result is the register for the
// return value ("" when the value is not used).
func (t *translator) function(fd *cc.FunctionDefinition, binds map[*cc.Declarator]*entity, result string, name string) {
	for _, f := range t.frames {
		if f.fn == name {
			t.refuse(fd, "recursion (%s calls itself, directly or not): only non-recursive helper functions are inlined", name)
		}
	}
	if len(t.frames) >= maxInlineDepth {
		t.refuse(fd, "helper functions nested more than %d deep", maxInlineDepth)
	}
	f := &frame{fn: name, vars: map[*cc.Declarator]*entity{}, labels: map[string]string{}, result: result}
	if ft, ok := fd.Declarator.Type().(*cc.FunctionType); ok {
		f.resultType = ft.Result()
	}
	for d, e := range binds {
		f.vars[d] = e
	}
	if name == "main" {
		f.ret = t.end
	} else {
		f.ret = t.label()
	}
	t.frames = append(t.frames, f)
	t.compound(fd.CompoundStatement)
	t.frames = t.frames[:len(t.frames)-1]
	if name != "main" {
		t.place(f.ret)
	}
}

func (t *translator) compound(cs *cc.CompoundStatement) {
	from := len(t.out)
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		it := l.BlockItem
		done := t.staticPoint(it) // statics.go
		t.guard(it, func() { t.blockItem(it) })
		done()
	}
	t.blockEnd(cs, from) // reuse.go
}

func (t *translator) blockItem(it *cc.BlockItem) {
	switch it.Case {
	case cc.BlockItemDecl:
		t.declaration(it.Declaration, false)
	case cc.BlockItemStmt:
		t.statement(it.Statement)
	case cc.BlockItemLabel:
		t.refuse(it, "__label__ declaration")
	case cc.BlockItemFuncDef:
		t.refuse(it, "nested function")
	}
}

// statement translates one statement; the temporaries it takes are free
// again after it.
func (t *translator) statement(s *cc.Statement) {
	top := t.ntemp
	defer func() { t.ntemp, t.smTemp = top, nil }()
	switch s.Case {
	case cc.StatementCompound:
		t.compound(s.CompoundStatement)
	case cc.StatementExpr:
		if e := s.ExpressionStatement.ExpressionList; e != nil {
			t.sequenced(e)
			if t.deadAssign(e) { // tailcheck.go
				return
			}
			old := t.at(e)
			t.exprStmt(e)
			t.cur = old
		}
	case cc.StatementSelection:
		t.selection(s.SelectionStatement)
	case cc.StatementIteration:
		t.iteration(s.IterationStatement)
	case cc.StatementJump:
		t.jump(s.JumpStatement)
	case cc.StatementLabeled:
		ls := s.LabeledStatement
		if ls.Case != cc.LabeledStatementLabel {
			t.caseLabel(ls)
		} else {
			t.place(t.userLabel(ls.Token.SrcStr()))
		}
		t.statement(ls.Statement)
	case cc.StatementAsm:
		t.refuse(s, "asm statement")
	}
}

// userLabel maps a C label of the current instance to a .pgas label.
func (t *translator) userLabel(name string) string {
	f := t.frame()
	if l, ok := f.labels[name]; ok {
		return l
	}
	l := t.label()
	f.labels[name] = l
	return l
}

func (t *translator) selection(s *cc.SelectionStatement) {
	t.sequenced(s.ExpressionList)
	if t.deadCheck(s) { // tailcheck.go
		return
	}
	if s.Case == cc.SelectionStatementSwitch {
		t.switchStmt(s)
		return
	}
	old := t.at(s.ExpressionList)
	t.cur.Text = "if (" + t.cur.Text + ")"
	if p := s.Token.Position(); p.Filename == t.file && p.Line > 0 {
		t.cur.Pos.Line, t.cur.Pos.Col = p.Line, p.Column // at the if
	}
	els := t.label()
	t.branch(s.ExpressionList, false, els)
	t.cur = old
	t.statement(s.Statement)
	if s.Case == cc.SelectionStatementIfElse {
		end := t.label()
		t.emit("goto %s", end)
		t.place(els)
		t.statement(s.Statement2)
		t.place(end)
		return
	}
	t.place(els)
}

func (t *translator) iteration(s *cc.IterationStatement) {
	top, cont, end := t.label(), t.label(), t.label()
	f := t.frame()
	f.loops = append(f.loops, loop{brk: end, cont: cont})
	defer func() { f.loops = f.loops[:len(f.loops)-1] }()
	cond := func(e cc.ExpressionNode, when bool, l string) {
		if e == nil {
			if !when {
				return // for (;;): no exit test
			}
			t.emit("goto %s", l)
			return
		}
		t.sequenced(e)
		old := t.at(e)
		t.branch(e, when, l)
		t.cur = old
	}
	switch s.Case {
	case cc.IterationStatementWhile:
		t.place(top)
		t.place(cont)
		cond(s.ExpressionList, false, end)
		t.statement(s.Statement)
		t.emit("goto %s", top)
	case cc.IterationStatementDo:
		t.place(top)
		t.statement(s.Statement)
		t.place(cont)
		cond(s.ExpressionList, true, top)
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		if s.Case == cc.IterationStatementForDecl {
			defer t.releaseDecls([]*cc.Declaration{s.Declaration}, len(t.out)) // reuse.go
			t.declaration(s.Declaration, false)
		} else if s.ExpressionList != nil {
			t.sequenced(s.ExpressionList)
			old := t.at(s.ExpressionList)
			t.exprStmt(s.ExpressionList)
			t.cur = old
		}
		t.place(top)
		c, step := s.ExpressionList2, s.ExpressionList3
		if s.Case == cc.IterationStatementForDecl {
			c, step = s.ExpressionList, s.ExpressionList2
		}
		cond(c, false, end)
		t.statement(s.Statement)
		t.place(cont)
		if step != nil {
			t.sequenced(step)
			old := t.at(step)
			t.exprStmt(step)
			t.cur = old
		}
		t.emit("goto %s", top)
	}
	t.place(end)
}

func (t *translator) jump(s *cc.JumpStatement) {
	old := t.at(s)
	defer func() { t.cur = old }()
	f := t.frame()
	switch s.Case {
	case cc.JumpStatementGoto:
		t.emit("goto %s", t.userLabel(s.Token2.SrcStr()))
	case cc.JumpStatementGotoExpr:
		t.refuse(s, "computed goto")
	case cc.JumpStatementContinue, cc.JumpStatementBreak:
		if len(f.loops) == 0 {
			t.refuse(s, "break or continue outside a loop or switch")
		}
		lp := f.loops[len(f.loops)-1]
		if s.Case == cc.JumpStatementBreak {
			t.emit("goto %s", lp.brk)
		} else if lp.cont == "" {
			t.refuse(s, "continue in a switch outside a loop")
		} else {
			t.emit("goto %s", lp.cont)
		}
	case cc.JumpStatementReturn:
		t.sequenced(s.ExpressionList)
		if t.returnPointer(s) { // pointer.go
			t.emit("goto %s", f.ret)
			return
		}
		if s.ExpressionList != nil {
			if f.result != "" {
				v := t.convTo(f.resultType, s.ExpressionList, t.value(s.ExpressionList), nil) // conv.go
				t.emit("%s <- %s", f.result, v)
			} else if f.fn != "main" {
				t.value(s.ExpressionList) // evaluated for its loads, value unused
			}
		}
		t.emit("goto %s", f.ret)
	}
}

// exprStmt translates an expression evaluated for its effect.
func (t *translator) exprStmt(e cc.ExpressionNode) {
	switch x := e.(type) {
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			t.exprStmt(l.AssignmentExpression)
		}
		return
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			t.assignStmt(x)
			return
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			t.increment(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, false)
			return
		case cc.PostfixExpressionCall:
			t.call(x, false)
			return
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			t.increment(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, false)
			return
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && x.Type().Kind() == cc.Void {
			t.exprStmt(x.CastExpression)
			return
		}
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			t.exprStmt(x.ExpressionList)
			return
		}
	}
	t.value(e)
}

// lvalue is a register or a cell.
type lvalue struct {
	reg  string
	cell addrTerm
}

func (t *translator) lvalue(e cc.ExpressionNode) lvalue {
	if p, ok := unparen(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		ent := t.ident(p)
		switch ent.kind {
		case kReg:
			return lvalue{reg: ent.name}
		case kConst:
			t.refuse(p, "internal: assignment to a substituted local")
		}
	}
	return lvalue{cell: t.address(e)}
}

func unparen(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				e = x.ExpressionList
				continue
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionPrimary {
				e = x.PrimaryExpression
				continue
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionPostfix {
				e = x.PostfixExpression
				continue
			}
		}
		return e
	}
}

func (t *translator) read(lv lvalue) string {
	if lv.reg != "" {
		return lv.reg
	}
	r := t.temp()
	t.emit("%s <- mem[%s]", r, lv.cell.String())
	return r
}

func (t *translator) write(lv lvalue, v string) {
	if lv.reg != "" {
		t.emit("%s <- %s", lv.reg, v)
		return
	}
	t.emit("mem[%s] <- %s", lv.cell.String(), v)
}

var compound = map[cc.AssignmentExpressionCase]string{
	cc.AssignmentExpressionMul: "*", cc.AssignmentExpressionDiv: "/", cc.AssignmentExpressionMod: "%",
	cc.AssignmentExpressionAdd: "+", cc.AssignmentExpressionSub: "-",
	cc.AssignmentExpressionAnd: "&", cc.AssignmentExpressionOr: "|", cc.AssignmentExpressionXor: "^",
	cc.AssignmentExpressionLsh: "<<", cc.AssignmentExpressionRsh: ">>",
}

// assign translates an assignment and returns the value the left side
// holds after it (the value of the assignment expression), in a register
// that later lines do not change.
func (t *translator) assign(x *cc.AssignmentExpression) string { return t.assignTo(x, true) }

// assignTo is assign; when want is false the value is not kept.
func (t *translator) assignTo(x *cc.AssignmentExpression, want bool) string {
	if isCtxType(x.UnaryExpression.Type()) {
		t.refuse(x, "assignment of a context (contexts are created by shmem_ctx_create)")
	}
	if isPtrType(x.UnaryExpression.Type()) {
		t.assignPointer(x) // pointer.go; a pointer's value is read by pterm
		return ""
	}
	lv := t.lvalue(x.UnaryExpression)
	var v string
	if x.Case == cc.AssignmentExpressionAssign {
		v = t.assignedValue(x, lv)                                                                     // sizemax_assign.go
		v = t.convTo(x.UnaryExpression.Type(), x.AssignmentExpression, v, objectOf(x.UnaryExpression)) // conv.go
	} else {
		op, ok := compound[x.Case]
		if !ok {
			t.refuse(x, "assignment operator %s", x.Token.SrcStr())
		}
		cur := t.read(lv)
		switch op {
		case "&", "|", "^", "<<", ">>":
			k, isConst := constValue(x.AssignmentExpression)
			if !isConst {
				t.refuse(x, "%s= with a computed right side: the translation spells out a constant's bits only", op)
			}
			if op == "<<" || op == ">>" {
				v = t.shift(x, cur, op, k)
			} else {
				t.unsignedMask(x, x.UnaryExpression.Type(), op, k)
				v = t.bitop(x, cur, op, k)
			}
			v = narrowConv(x.UnaryExpression.Type(), v) // conv_ops.go
		default:
			t.divisor(x, op, x.AssignmentExpression)
			r := t.value(x.AssignmentExpression)
			v = "(" + cur + " " + op + " " + r + ")"
			v = t.compoundConv(x.UnaryExpression, x.AssignmentExpression, op, cur, r, v) // conv_ops.go
		}
	}
	v = boolConv(x.UnaryExpression.Type(), v)
	if want && lv.reg != "" && v != lv.reg {
		// the value may read the register itself: keep it in a temp
		r := t.temp()
		t.emit("%s <- %s", r, v)
		v = r
	}
	t.write(lv, v)
	return v
}

// boolConv is the conversion of v to ty: to _Bool, 1 for any non-zero.
func boolConv(ty cc.Type, v string) string {
	if ty != nil && ty.Kind() == cc.Bool {
		return "(" + v + " != 0)"
	}
	return v
}

// divisor refuses a division or remainder by a constant zero, as a C
// compiler does (the behaviour is undefined).
func (t *translator) divisor(n cc.Node, op string, b cc.ExpressionNode) {
	if op != "/" && op != "%" {
		return
	}
	if k, ok := constValue(b); ok && k == 0 {
		t.refuse(n, "division by zero (the divisor is the constant 0; C leaves the result undefined)")
	}
}

// increment translates ++ and --; it returns the value before and the
// value after, each in a register the later lines do not change when the
// caller uses them (want).
func (t *translator) increment(e cc.ExpressionNode, inc bool, want bool) (before, after string) {
	if isPtrType(e.Type()) {
		if want {
			t.refuse(e, "the value of ++ or -- on a pointer outside *p++")
		}
		t.stepPointer(e, inc) // pointer.go
		return "", ""
	}
	lv := t.lvalue(e)
	cur := t.read(lv)
	op := "+"
	if !inc {
		op = "-"
	}
	if e.Type() != nil && e.Type().Kind() == cc.Bool {
		t.refuse(e, "++ or -- of a bool")
	}
	if want && lv.reg != "" {
		b := t.temp()
		t.emit("%s <- %s", b, cur)
		cur = b
	}
	next := t.stepConv(e, inc, "("+cur+" "+op+" 1)") // conv_ops.go
	if want {
		a := t.temp()
		t.emit("%s <- %s", a, next)
		next = a
	}
	t.write(lv, next)
	return cur, next
}

// assignStmt is an assignment whose value is not used: a plain store,
// without the temp assign keeps for its value.
func (t *translator) assignStmt(x *cc.AssignmentExpression) {
	if x.Case == cc.AssignmentExpressionAssign && !isCtxType(x.UnaryExpression.Type()) && !isPtrType(x.UnaryExpression.Type()) {
		lv := t.lvalue(x.UnaryExpression)
		t.write(lv, t.convTo(x.UnaryExpression.Type(), x.AssignmentExpression, t.assignedValue(x, lv), objectOf(x.UnaryExpression))) // conv.go
		return
	}
	t.assignTo(x, false)
}
