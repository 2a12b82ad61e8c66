package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// globals records the functions of the file and turns its file-scope
// objects into symmetric addresses and its shmem_ctx_t objects into
// contexts. Declarations from our headers are skipped.
func (t *translator) globals(ast *cc.AST) {
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ours(ed.Position().Filename) {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			t.funcs[fd.Declarator.Name()] = fd
		case cc.ExternalDeclarationDecl:
			t.guard(ed, func() { t.declaration(ed.Declaration, true) })
		case cc.ExternalDeclarationAsmStmt:
			t.guard(ed, func() { t.refuse(ed, "asm statement") })
		}
	}
}

// declaration handles a declaration at file scope (global) or in a
// function body.
func (t *translator) declaration(d *cc.Declaration, global bool) {
	if d.Case == cc.DeclarationAssert {
		return
	}
	if d.Case != cc.DeclarationDecl {
		t.refuse(d, "this declaration")
	}
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		dr := id.Declarator
		if dr.IsTypename() || dr.Name() == "__func__" || dr.Name() == "__cfront_sentinel" {
			continue
		}
		if dr.Type().Kind() == cc.Function {
			if !global {
				t.refuse(dr, "a function declared inside a function")
			}
			continue
		}
		t.object(dr, id.Initializer, global)
	}
}

// object declares one C object.
func (t *translator) object(d *cc.Declarator, init *cc.Initializer, global bool) {
	ty := d.Type()
	name := d.Name()
	if strings.HasPrefix(name, "__") {
		t.refuse(d, "identifier %s: names starting with __ are reserved (the translation uses them)", name)
	}
	if t.ctxObject(d, ty, init, global) { // api_ctx.go
		return
	}
	if d.IsExtern() && init == nil {
		t.refuse(d, "extern object %s: the whole program must be in this file", name)
	}
	if d.IsThreadLocal() || d.IsAtomic() {
		t.refuse(d, "a thread-local or _Atomic object (C atomics are outside the subset; use the OpenSHMEM atomics)")
	}
	if isConfigPtr(ty) {
		t.configVar(d, init, global || d.IsStatic()) // api_team_strided.go
		return
	}
	if isFilePtr(ty) {
		t.fileVar(d, init, global || d.IsStatic()) // libc_file.go
		return
	}
	if t.strPtrs[d] && !global {
		t.strVar(d, init) // libc_strptr.go
		return
	}
	if ty.Kind() == cc.Ptr {
		t.pointerVar(d, init, global || d.IsStatic()) // pointer.go
		return
	}
	length, elem := t.objectType(d, ty)
	t.noteType(ty)
	if init != nil && init.Case == cc.InitializerExpr {
		t.sequenced(init.AssignmentExpression)
	}
	static := global || d.IsStatic()
	switch {
	case static:
		t.symmetric(d, name, length, elem, init)
	case length > 0 || d.AddressTaken():
		e := &entity{kind: kCell, length: length, elem: elem}
		if c, ok := t.reuseCell(name); ok && length == 0 { // reuse.go
			e.name = c
		} else {
			e.name = t.fresh(name, name)
			t.addAddr(e)
		}
		t.frame().vars[d] = e
		t.bufEntity(d, e)
		if _, shrunk := t.bufCells(d); shrunk && init != nil {
			t.bufZeroInit(e, init)
		} else if init != nil && length > 0 {
			old := t.atDecl(e, init)
			t.initAggregate(e, ty, init)
			t.cur = old
		} else if init != nil {
			t.initCell(e, init, d)
		}
	default:
		t.local(d, name, init)
	}
}

// objectType checks the type of an object: an integer, or an array of
// integers of constant length. It returns the length (0 for a scalar) and
// the element size.
func (t *translator) objectType(d *cc.Declarator, ty cc.Type) (int, int64) {
	switch {
	case cc.IsIntegerType(ty):
		return 0, ty.Size()
	case ty.Kind() == cc.Array || ty.Kind() == cc.Struct:
		cells, elem, why := layout(ty)
		if why != "" {
			t.refuse(d, "%s %s of %s: only integers, and arrays and structs of integers of one size, are in the subset", ty.Kind(), d.Name(), why)
		}
		if k, ok := t.bufCells(d); ok {
			cells = k // the collapse law (buffer_plan.go)
		}
		if cells > maxArray {
			t.refuse(d, "%s of %d cells: at most %d (every cell is one the checker explores)", d.Name(), cells, maxArray)
		}
		return int(cells), elem
	case cc.IsFloatingPointType(ty) || ty.Kind() == cc.ComplexFloat || ty.Kind() == cc.ComplexDouble:
		t.refuse(d, "floating point (%s %s)", ty, d.Name())
	case ty.Kind() == cc.Ptr:
		t.refuse(d, "pointer variable %s (only &object and array elements are in the subset, as arguments)", d.Name())
	case ty.Kind() == cc.Struct || ty.Kind() == cc.Union:
		t.refuse(d, "struct or union %s", d.Name())
	}
	t.refuse(d, "object %s of type %s", d.Name(), ty)
	return 0, 0
}

func isCtxType(ty cc.Type) bool {
	td := ty.Typedef()
	return td != nil && td.Name() == "shmem_ctx_t"
}

// symmetric declares a global or static object: the same address on every
// PE. A non-zero initial value is stored by every PE before a barrier at
// the start (see docs/shmem.md: the real program has it before main).
func (t *translator) symmetric(d *cc.Declarator, name string, length int, elem int64, init *cc.Initializer) {
	if e, ok := t.global[d]; ok && e.kind == kSym {
		return // a static local in a second inlined instance
	}
	if length == 0 && t.sharedStatic(d, name, elem) { // statics.go
		return
	}
	e := &entity{kind: kSym, name: t.fresh(name, name), length: length, elem: elem}
	t.addAddr(e)
	t.global[d] = e
	t.bufEntity(d, e)
	if _, shrunk := t.bufCells(d); init == nil || shrunk {
		return // a shrunk buffer's values are replaced by 0, the initial one
	}
	vals := t.constInit(e, init)
	if length == 0 && t.convNeeded(d.Type(), init.AssignmentExpression, d) { // conv.go
		vals[0], _ = t.convConst(d.Type(), init.AssignmentExpression, d)
	}
	for i, v := range vals {
		if v == 0 {
			continue
		}
		t.constant(init, v)
		old := t.at(init)
		t.init = append(t.init, initStore{addr: elemAddr(e.name, fmt.Sprint(i)), val: v, org: t.cur})
		t.cur = old
	}
}

// constInit evaluates a constant initializer (scalar or brace list).
func (t *translator) constInit(e *entity, init *cc.Initializer) []int64 {
	n := e.length
	if n == 0 {
		n = 1
	}
	vals := make([]int64, n)
	if e.length == 0 {
		if init.Case != cc.InitializerExpr {
			t.refuse(init, "brace initialiser of a scalar")
		}
		v, ok := t.constBits(init.AssignmentExpression) // unsigned_bits.go
		t.bigConst(init.AssignmentExpression, ok)
		if !ok {
			t.refuse(init, "initialiser of %s: a symmetric object needs a constant initialiser", e.name)
		}
		vals[0] = v
	} else {
		leaves := make([]cc.ExpressionNode, n)
		t.initLeaves(e, init, 0, leaves)
		types := leafTypes(init) // conv.go
		for i, l := range leaves {
			if l == nil {
				continue
			}
			v, ok := t.constBits(l)
			t.bigConst(l, ok)
			if !ok {
				t.refuse(l, "initialiser of %s: not a constant", t.cname(e))
			}
			if t.convNeeded(types[l], l, nil) {
				v, _ = t.convConst(types[l], l, nil)
			}
			vals[i] = v
		}
	}
	return vals // negative values are in the inferred domain (domain.go)
}

// initCell stores the initial value of a private cell where it is declared.
func (t *translator) initCell(e *entity, init *cc.Initializer, d *cc.Declarator) {
	if init.Case != cc.InitializerExpr || e.length > 0 {
		t.refuse(init, "initialiser of the local array %s: assign its elements instead", e.name)
	}
	old := t.atDecl(e, init)
	v := t.convTo(d.Type(), init.AssignmentExpression, t.value(init.AssignmentExpression), d) // conv.go
	t.emit("mem[%s] <- %s", e.name, v)
	t.cur = old
}

// atDecl makes "name = initialiser" the origin of what follows.
func (t *translator) atDecl(e *entity, init *cc.Initializer) Origin {
	old := t.at(init)
	t.cur.Text = t.cname(e) + " = " + t.cur.Text
	return old
}

// local declares a scalar local. One set once to an expression of
// constants, shmem_my_pe() and shmem_n_pes() is substituted where it is
// used (a register would have to hold my_pe, which may exceed the data
// domain); any other becomes a register.
func (t *translator) local(d *cc.Declarator, name string, init *cc.Initializer) {
	if init != nil && init.Case != cc.InitializerExpr {
		t.refuse(init, "brace initialiser of a scalar")
	}
	if init != nil && d.WriteCount() == 1 && !t.convNeeded(d.Type(), init.AssignmentExpression, d) { // the initialiser is the one write (conv.go)
		if s, ok := t.rankExpr(init.AssignmentExpression); ok {
			lo, ok := t.lowBound(init.AssignmentExpression)
			t.frame().vars[d] = &entity{kind: kConst, expr: boolConv(d.Type(), s), lo: lo, loOK: ok}
			return
		}
	}
	base, cname := name, name
	if f := t.frame(); f.fn != "main" {
		base, cname = f.fn+"_"+name, f.fn+"."+name
	}
	e := &entity{kind: kReg}
	if r, ok := t.reuseReg(cname); ok { // reuse.go
		e.name = r
	} else {
		e.name = t.fresh(base, cname)
		if len(t.regs) >= 24 {
			t.refuse(d, "too many locals (the checker has 32 registers, some for temporaries)")
		}
		t.regs = append(t.regs, e.name)
	}
	t.frame().vars[d] = e
	if init != nil {
		old := t.atDecl(e, init)
		v := t.convTo(d.Type(), init.AssignmentExpression, t.initValue(d, e.name, init.AssignmentExpression), d) // conv.go
		t.emit("%s <- %s", e.name, v)
		t.cur = old
	}
}

func (t *translator) addAddr(e *entity) {
	n := e.length
	if n == 0 {
		n = 1
	}
	if t.ncells+n > maxCells {
		t.refuse(nil, "too many cells: the checker has %d addresses, and %s needs %d more than the %d left", maxCells, e.name, n, maxCells-t.ncells)
	}
	t.ncells += n
	decl := e.name
	if e.length > 0 {
		decl = fmt.Sprintf("%s[%d]", e.name, e.length)
	}
	t.addrs = append(t.addrs, decl)
	if e.length > 0 {
		t.arrays = append(t.arrays, e.name)
	}
}

// elemAddr is the .pgas address of element off of the object at base.
func elemAddr(base, off string) string {
	if off == "0" || off == "" {
		return base
	}
	return base + " + " + off
}

// constValue is the value of a constant integer expression, if it is one.
func constValue(e cc.ExpressionNode) (int64, bool) {
	if e == nil {
		return 0, false
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		if v <= 1<<62 {
			return int64(v), true
		}
	}
	return 0, false
}

func (t *translator) frame() *frame { return t.frames[len(t.frames)-1] }

// lookup finds what a resolved identifier denotes.
func (t *translator) lookup(d *cc.Declarator) *entity {
	if t.refused[d] {
		panic(consequence{}) // its declaration is refused: said once
	}
	for i := len(t.frames) - 1; i >= 0; i-- {
		if e, ok := t.frames[i].vars[d]; ok {
			return e
		}
		break // only the innermost frame's locals are visible
	}
	if e, ok := t.global[d]; ok {
		return e
	}
	if d.IsStatic() && d.Type().Kind() != cc.Function {
		// a static local is declared where it appears, once
		return nil
	}
	return nil
}

// rankExpr translates an initialiser made only of constants,
// shmem_my_pe(), shmem_n_pes() and such locals; ok is false for any other.
func (t *translator) rankExpr(e cc.ExpressionNode) (string, bool) {
	if !t.rankOnly(e) {
		return "", false
	}
	t.novalue++
	defer func() { t.novalue-- }()
	return "(" + t.value(e) + ")", true
}

func (t *translator) rankOnly(e cc.ExpressionNode) bool {
	if _, ok := constValue(e); ok {
		return true
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			return t.rankOnly(x.ExpressionList)
		case cc.PrimaryExpressionIdent:
			d, ok := x.ResolvedTo().(*cc.Declarator)
			if !ok {
				return false
			}
			e := t.lookup(d)
			return e != nil && e.kind == kConst
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return t.rankOnly(x.PrimaryExpression)
		case cc.PostfixExpressionCall:
			p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
			n := ""
			if ok {
				n = p.Token.SrcStr()
			}
			return x.ArgumentExpressionList == nil && (n == "shmem_my_pe" || n == "shmem_n_pes") || t.teamRankCall(n, x)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return t.rankOnly(x.PostfixExpression)
		case cc.UnaryExpressionMinus, cc.UnaryExpressionPlus, cc.UnaryExpressionNot:
			return t.rankOnly(x.CastExpression)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return t.rankOnly(x.UnaryExpression)
		}
		return cc.IsIntegerType(x.Type()) && t.rankOnly(x.CastExpression)
	case *cc.MultiplicativeExpression:
		return t.rankPair(x.MultiplicativeExpression, x.CastExpression)
	case *cc.AdditiveExpression:
		return t.rankPair(x.AdditiveExpression, x.MultiplicativeExpression)
	case *cc.RelationalExpression:
		return t.rankPair(x.RelationalExpression, x.ShiftExpression)
	case *cc.EqualityExpression:
		return t.rankPair(x.EqualityExpression, x.RelationalExpression)
	case *cc.ConditionalExpression:
		return x.Case == cc.ConditionalExpressionLOr && t.rankOnly(x.LogicalOrExpression)
	case *cc.LogicalOrExpression:
		return t.rankPair(x.LogicalOrExpression, x.LogicalAndExpression)
	case *cc.LogicalAndExpression:
		return t.rankPair(x.LogicalAndExpression, x.InclusiveOrExpression)
	case *cc.InclusiveOrExpression:
		return t.rankBits(x.InclusiveOrExpression, x.ExclusiveOrExpression)
	case *cc.ExclusiveOrExpression:
		return t.rankBits(x.ExclusiveOrExpression, x.AndExpression)
	case *cc.AndExpression:
		return t.rankBits(x.AndExpression, x.EqualityExpression)
	case *cc.ShiftExpression:
		// a shift's amount may be computed: shiftrank.go spells it per PE
		return t.rankPair(x.ShiftExpression, x.AdditiveExpression)
	}
	return false
}

func (t *translator) rankPair(a, b cc.ExpressionNode) bool {
	return (a == nil || t.rankOnly(a)) && (b == nil || t.rankOnly(b))
}

// rankBits: a bitwise operator or shift is of the rank kind when one
// operand is a constant (bitwise.go spells it out) and the other is.
func (t *translator) rankBits(a, b cc.ExpressionNode) bool {
	if a == nil {
		return t.rankOnly(b)
	}
	_, ca := constValue(a)
	_, cb := constValue(b)
	return (ca || cb) && t.rankOnly(a) && t.rankOnly(b)
}
