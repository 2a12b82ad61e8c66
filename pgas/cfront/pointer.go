// Pointer variables: a pointer is translated as the object it designates,
// fixed when translating, and an offset into it, a constant or a register
// of its own. See docs/shmem.md, "Memory: objects, heap, pointers".

package cfront

import (
	"fmt"
	"strconv"

	"modernc.org/cc/v4"
)

// heapState is the memory layout's part of the translator: pointer
// variables, heap objects, and what makes a position straight-line.
type heapState struct {
	straightFn map[*cc.FunctionDefinition]map[cc.Node]bool
	loopFn     map[*cc.FunctionDefinition]map[cc.Node]bool
	calls      []callCtx               // per inlined call: where it was made
	moved      map[*cc.Declarator]bool // pointer variables written off straight-line positions
	vars       map[*entity]*ptrVar
	heap       map[*entity]string  // objects from an allocation: the routine that made them
	freed      map[*entity]cc.Node // heap objects freed, and where
	rets       []*ptrReturn        // pointer results of the helpers being inlined
	hint       string              // the pointer being set, to name a block after it
}

func (t *translator) hs() *heapState {
	if t.heap == nil {
		t.heap = &heapState{straightFn: map[*cc.FunctionDefinition]map[cc.Node]bool{}, loopFn: map[*cc.FunctionDefinition]map[cc.Node]bool{},
			moved: map[*cc.Declarator]bool{}, vars: map[*entity]*ptrVar{}, heap: map[*entity]string{},
			freed: map[*entity]cc.Node{}}
	}
	return t.heap
}

// A ptrVar is the state of a pointer variable during the translation.
type ptrVar struct {
	cname string
	elem  cc.Type  // the pointed-to type
	set   bool     // holds a value (a global starts as NULL)
	at    addrTerm // what it designates; at.ent == nil is NULL
	cond  string   // from shmem_ptr: NULL unless this .pgas condition holds
	reg   string   // the offset register, if it has one
	local bool     // a local or parameter: straight-line within its function suffices
}

// pointerVar declares a pointer variable (hook of decls.go's object).
func (t *translator) pointerVar(d *cc.Declarator, init *cc.Initializer, global bool) {
	h := t.hs()
	if e, ok := t.global[d]; ok && h.vars[e] != nil {
		return // a static local met again in a second inlined instance
	}
	elem := t.pointee(d, d.Type())
	e := &entity{kind: kPtr, name: d.Name()}
	pv := &ptrVar{cname: d.Name(), elem: elem, set: global, local: !global}
	h.vars[e] = pv
	if global {
		t.global[d] = e
	} else {
		t.frame().vars[d] = e
	}
	if h.moved[d] {
		t.ptrReg(d, pv)
	}
	if init == nil {
		return
	}
	if init.Case != cc.InitializerExpr {
		t.refuse(init, "brace initialiser of the pointer %s", d.Name())
	}
	if global {
		// a file-scope initialiser is constant: &object or an array
		a, cond := t.pterm(init.AssignmentExpression, elem)
		if cond != "" || (pv.reg != "" && !isConstOff(a.off)) || (pv.reg != "" && a.ent != nil && a.off != "0") {
			t.refuse(init, "initialiser of the pointer %s: use &object or an array", d.Name())
		}
		t.checkElem(init, pv, a)
		pv.at = a
		if pv.reg != "" && a.ent != nil {
			pv.at = addrTerm{a.ent, pv.reg} // registers start at 0 on every PE
		}
		return
	}
	old := t.at(init)
	t.cur.Text = d.Name() + " = " + t.cur.Text
	a, cond := t.ptermFor(pv, init.AssignmentExpression)
	// a declaration starts the variable's life: its value before is moot
	t.bind(init, pv, a, cond, true)
	t.cur = old
}

// pointee checks the type of a pointer variable: a pointer to an integer
// (or void), and returns the integer type.
func (t *translator) pointee(d *cc.Declarator, ty cc.Type) cc.Type {
	pt, ok := ty.(*cc.PointerType)
	if !ok {
		t.refuse(d, "pointer %s of type %s", d.Name(), ty)
	}
	el := pt.Elem()
	switch {
	case cc.IsIntegerType(el), el.Kind() == cc.Void:
		return el
	case el.Kind() == cc.Function:
		t.refuse(d, "function pointer %s (call the function by its name)", d.Name())
	case el.Kind() == cc.Ptr:
		t.refuse(d, "pointer to a pointer (%s): only pointers to integer objects are in the subset", d.Name())
	}
	t.refuse(d, "pointer %s to %s: only pointers to integer objects are in the subset", d.Name(), el)
	return nil
}

// ptrReg gives pv an offset register.
func (t *translator) ptrReg(n cc.Node, pv *ptrVar) {
	if len(t.regs) >= 24 {
		t.refuse(n, "too many locals (the checker has 32 registers, some for temporaries); pointer %s needs one", pv.cname)
	}
	pv.reg = t.fresh(pv.cname+"_off", pv.cname+" (offset)")
	t.regs = append(t.regs, pv.reg)
}

func isConstOff(s string) bool {
	_, err := strconv.ParseInt(trimParens(s), 10, 64)
	return err == nil
}

// checkElem refuses binding pv to an object of another element size: the
// offsets of the translation count elements.
func (t *translator) checkElem(n cc.Node, pv *ptrVar, a addrTerm) {
	if a.ent == nil || pv.elem == nil || pv.elem.Kind() == cc.Void {
		return
	}
	if s := pv.elem.Size(); s != a.ent.elem {
		t.refuse(n, "%s points to elements of %d bytes, and %s has elements of %d bytes (a reinterpreting pointer)", pv.cname, s, t.cname(a.ent), a.ent.elem)
	}
}

// bind sets pv to a (NULL when a.ent is nil; from shmem_ptr when cond is
// set) at n. The object a pointer designates is fixed by the translation,
// so it may change only where n runs once per run (straight-line); in a
// loop or a branch only the offset may change, through its register.
func (t *translator) bind(n cc.Node, pv *ptrVar, a addrTerm, cond string, fresh bool) {
	t.checkElem(n, pv, a)
	straight := fresh || t.straight(n)
	if fd := t.funcs[t.frame().fn]; pv.local && fd != nil {
		straight = straight || t.hs().straightIn(fd)[n]
	}
	if !straight {
		switch {
		case pv.reg == "":
			t.refuse(n, "internal: pointer %s moved without a register", pv.cname)
		case !pv.set || pv.at.ent == nil:
			t.refuse(n, "pointer %s set in a loop or a branch while it holds no object: set it to its object once, outside loops and branches (the translation fixes the object a pointer designates)", pv.cname)
		case a.ent == nil || cond != pv.cond:
			t.refuse(n, "pointer %s set to NULL in a loop or a branch: the translation fixes the object a pointer designates", pv.cname)
		case a.ent != pv.at.ent:
			t.refuse(n, "pointer %s set to %s in a loop or a branch, where it designated %s: the translation fixes the object a pointer designates; index one object, or use one pointer per object", pv.cname, t.cname(a.ent), t.cname(pv.at.ent))
		}
	}
	if a.ent == stringObject && (pv.reg != "" || a.off != "" && a.off != "0") {
		// a moved pointer variable has an offset register, and a string
		// has no cells to offset (a char * given strings and stepped is
		// libc_strptr.go's)
		t.refuse(n, "pointer %s set to a string and moved: a char * is in the subset as a pointer into constant strings when every value it is given is NULL, a string literal, argv[k] or strrchr/strchr of one (then it may be tested, stepped with ++ and printed with %%s)", pv.cname)
	}
	pv.set, pv.cond = true, cond
	if a.ent == nil || a.ent == stringObject || isConstOff(a.off) && pv.reg == "" {
		pv.at = a
		return
	}
	if pv.reg == "" {
		t.ptrReg(n, pv) // a computed offset is kept as it is now
	}
	t.constant(n, int64(a.ent.length)) // offsets up to one past the end are values of the register
	t.emit("%s <- %s", pv.reg, a.off)
	pv.at = addrTerm{a.ent, pv.reg}
}

// ptrParam binds a pointer parameter of an inlined function to its
// argument (hook of inline.go).
func (t *translator) ptrParam(d *cc.Declarator, arg cc.ExpressionNode) *entity {
	h := t.hs()
	elem := t.pointee(d, d.Type())
	a, cond := t.pterm(arg, elem)
	pv := &ptrVar{cname: d.Name(), elem: elem, local: true}
	e := &entity{kind: kPtr, name: d.Name()}
	h.vars[e] = pv
	if h.moved[d] {
		t.ptrReg(d, pv)
		t.bind(arg, pv, a, cond, true)
		return e
	}
	t.checkElem(arg, pv, a)
	if a.ent != nil && t.unstable(a.off, false) {
		// a temporary of the calling statement keeps the offset for the
		// whole call (the helper's statements take the ones above it)
		r := t.temp()
		t.constant(arg, int64(a.ent.length))
		t.emit("%s <- %s", r, a.off)
		a.off = r
	}
	pv.set, pv.at, pv.cond = true, a, cond
	return e
}

// ptrVarOf is the pointer variable an lvalue names, or nil.
func (t *translator) ptrVarOf(e cc.ExpressionNode) *ptrVar {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	return t.hs().vars[t.ident(p)]
}

// assignPointer translates p = e, p += i, p -= i (hook of stmt.go).
func (t *translator) assignPointer(x *cc.AssignmentExpression) {
	if f := t.fileOf(x.UnaryExpression); f != nil {
		t.fileAssign(x, f) // libc_file.go
		return
	}
	if p := t.strOf(x.UnaryExpression); p != nil {
		t.strAssign(x, p) // libc_strptr.go
		return
	}
	if t.assignConfig(x) { // api_team_strided.go
		return
	}
	pv := t.ptrVarOf(x.UnaryExpression)
	if pv == nil {
		t.refuse(x, "assignment to a pointer that is not a variable (only pointer variables of integer objects are in the subset)")
	}
	switch x.Case {
	case cc.AssignmentExpressionAssign:
		a, cond := t.ptermFor(pv, x.AssignmentExpression)
		t.bind(x, pv, a, cond, false)
	case cc.AssignmentExpressionAdd, cc.AssignmentExpressionSub:
		i := t.index(x.AssignmentExpression)
		if x.Case == cc.AssignmentExpressionSub {
			i = "(-" + i + ")"
		}
		a, cond := t.varTerm(x, pv)
		t.bind(x, pv, a.plus(i), cond, false)
	default:
		t.refuse(x, "operator %s on a pointer", x.Token.SrcStr())
	}
}

// stepPointer translates p++ and p-- (hook of stmt.go).
func (t *translator) stepPointer(e cc.ExpressionNode, inc bool) {
	if p := t.strOf(e); p != nil {
		t.strStep(e, p, inc) // libc_strptr.go
		return
	}
	pv := t.ptrVarOf(e)
	if pv == nil {
		t.refuse(e, "++ or -- on a pointer that is not a variable")
	}
	i := "1"
	if !inc {
		i = "(-1)"
	}
	a, cond := t.varTerm(e, pv)
	t.bind(e, pv, a.plus(i), cond, false)
}

// varTerm is what pv designates, for arithmetic on it, and the
// condition under which it is not NULL (from shmem_ptr).
func (t *translator) varTerm(n cc.Node, pv *ptrVar) (addrTerm, string) {
	switch {
	case !pv.set:
		t.refuse(n, "pointer %s is used before it is set", pv.cname)
	case pv.at.ent == nil:
		t.refuse(n, "arithmetic on %s, which is NULL here", pv.cname)
	}
	return pv.at, pv.cond
}

// A ptrReturn collects what the returns of an inlined helper give.
type ptrReturn struct {
	depth int    // len(t.frames) inside the helper
	tmp   string // a temporary of the calling statement for a computed offset
	elem  cc.Type
	set   bool
	at    addrTerm
	cond  string
}

// callPointer inlines a call of a helper that returns a pointer; every
// return must give the same object (and, in a register, the offset).
func (t *translator) callPointer(x *cc.PostfixExpression, elem cc.Type) (addrTerm, string) {
	h := t.hs()
	r := &ptrReturn{depth: len(t.frames) + 1, elem: elem, tmp: t.temp()}
	h.rets = append(h.rets, r)
	t.call(x, false)
	h.rets = h.rets[:len(h.rets)-1]
	if !r.set {
		t.refuse(x, "the pointer this call returns: the function has no return with a value")
	}
	return r.at, r.cond
}

// returnPointer translates return e in a helper returning a pointer (hook
// of stmt.go); it reports whether it did.
func (t *translator) returnPointer(s *cc.JumpStatement) bool {
	fd := t.funcs[t.frame().fn]
	if s.ExpressionList == nil || fd == nil || t.frame().fn == "main" {
		return false
	}
	ft, ok := fd.Declarator.Type().(*cc.FunctionType)
	if !ok || ft.Result().Kind() != cc.Ptr {
		return false
	}
	h := t.hs()
	var r *ptrReturn
	if k := len(h.rets); k > 0 && h.rets[k-1].depth == len(t.frames) {
		r = h.rets[k-1]
	}
	var elem cc.Type
	if r != nil {
		elem = r.elem
	}
	a, cond := t.pterm(s.ExpressionList, elem)
	if r == nil {
		return true // the value is not used
	}
	if a.ent != nil && t.unstable(a.off, true) {
		t.constant(s, int64(a.ent.length))
		t.emit("%s <- %s", r.tmp, a.off) // the helper's temporaries are reused after it
		a.off = r.tmp
	}
	if r.set && (r.at.ent != a.ent || r.cond != cond || r.at.off != a.off) {
		t.refuse(s, "%s returns different pointers on different paths: the translation fixes the object a pointer designates", t.frame().fn)
	}
	r.set, r.at, r.cond = true, a, cond
	return true
}

// pointerValue is the hook of expr.go's value for expressions about
// pointers: the truth of a pointer, pointer comparisons and differences;
// a pointer converted to an integer is refused.
func (t *translator) pointerValue(e cc.ExpressionNode) (string, bool) {
	if s, ok := t.envTest(e); ok { // libc_env.go
		return s, true
	}
	if s, ok := t.fileTest(e); ok { // libc_file.go
		return s, true
	}
	if s, ok := t.strTest(e); ok { // libc_strptr.go
		return s, true
	}
	if s, ok := t.teamTest(e); ok { // api_team_strided.go
		return s, true
	}
	t.ctxCompare(e) // api_session.go
	switch x := e.(type) {
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && isPointer(x.CastExpression.Type()) && !isPointer(x.Type()) {
			if x.Type().Kind() != cc.Bool && x.Type().Kind() != cc.Void {
				t.refuse(x, "pointer converted to %s (addresses are not values of the translation)", x.Type())
			}
			return t.truth(x.CastExpression), true
		}
	case *cc.EqualityExpression:
		if x.EqualityExpression != nil && (isPtrType(x.EqualityExpression.Type()) || isPtrType(x.RelationalExpression.Type())) {
			return t.comparePointers(x, x.Token.SrcStr(), x.EqualityExpression, x.RelationalExpression), true
		}
	case *cc.RelationalExpression:
		if x.RelationalExpression != nil && isPtrType(x.RelationalExpression.Type()) && isPtrType(x.ShiftExpression.Type()) {
			return t.comparePointers(x, x.Token.SrcStr(), x.RelationalExpression, x.ShiftExpression), true
		}
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionSub && isPtrType(x.AdditiveExpression.Type()) && isPtrType(x.MultiplicativeExpression.Type()) {
			return t.comparePointers(x, "-", x.AdditiveExpression, x.MultiplicativeExpression), true
		}
	}
	if isPtrType(e.Type()) {
		return t.truth(e), true
	}
	return "", false
}

func isPtrType(ty cc.Type) bool { return ty != nil && ty.Kind() == cc.Ptr }

// truth is a pointer as a condition: 1 unless NULL.
func (t *translator) truth(e cc.ExpressionNode) string {
	a, cond := t.pterm(e, nil)
	switch {
	case a.ent == nil:
		return "0"
	case cond != "":
		return cond
	}
	return "1"
}

// comparePointers is a op b on pointers (== != < <= > >= or the
// difference -): exact on the objects and offsets of the translation.
func (t *translator) comparePointers(n cc.Node, op string, a, b cc.ExpressionNode) string {
	x, cx := t.pterm(a, nil)
	y, cy := t.pterm(b, nil)
	eq := op == "==" || op == "!="
	switch {
	case eq && x.ent == nil && y.ent == nil:
		return map[bool]string{true: "1", false: "0"}[op == "=="]
	case eq && (x.ent == nil || y.ent == nil):
		c := cx + cy // the non-NULL side's condition, if any
		if c == "" {
			c = "1"
		}
		if op == "==" {
			return "(!" + c + ")"
		}
		return c
	case cx != "" || cy != "":
		t.refuse(n, "comparison of two pointers of which one may be NULL (from shmem_ptr)")
	case x.ent != y.ent && eq:
		return map[bool]string{true: "0", false: "1"}[op == "=="]
	case x.ent == nil || y.ent == nil || x.ent != y.ent:
		t.refuse(n, "%s on pointers into different objects (undefined in C)", op)
	}
	return fmt.Sprintf("(%s %s %s)", x.off, op, y.off)
}

// isNullArg reports whether an argument is NULL: written so, or a
// pointer variable that holds NULL here (int *status = NULL).
func (t *translator) isNullArg(e cc.ExpressionNode) bool {
	if isNull(e) {
		return true
	}
	pv := t.ptrVarOf(e)
	return pv != nil && pv.set && pv.at.ent == nil && pv.cond == ""
}

// unstable reports whether an offset may change while a pointer made of
// it is in use: it reads the offset register of a global pointer (which
// a helper may move), or, with temps, a temporary (reused by the next
// statements). Registers of locals and parameters are written only by
// their own instance.
func (t *translator) unstable(off string, temps bool) bool {
	if isConstOff(off) {
		return false
	}
	words := map[string]bool{}
	for _, w := range tokens(off) {
		words[w] = true
	}
	for _, pv := range t.hs().vars {
		if !pv.local && pv.reg != "" && words[pv.reg] {
			return true
		}
	}
	if temps {
		for _, r := range t.temps {
			if words[r] {
				return true
			}
		}
	}
	return false
}

// ptermFor evaluates the value assigned to pv, naming a block allocated
// there after pv.
func (t *translator) ptermFor(pv *ptrVar, e cc.ExpressionNode) (addrTerm, string) {
	h := t.hs()
	old := h.hint
	h.hint = pv.cname
	defer func() { h.hint = old }()
	return t.pterm(e, pv.elem)
}
