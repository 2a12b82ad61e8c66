// Files: `FILE *fp = fopen(name, mode)` tested against NULL, and
// fclose. Whether a file can be opened depends on the machine the PEs run
// on, which the translation does not know, so each fopen is a
// nondeterministic choice between NULL and an open stream, and a verdict
// covers every outcome (the shape of shmem_global_exit_example.c of the
// specification: exit when an input file is missing). Reading or writing
// the stream is refused by name (fprintf to a stream other than stdout or
// stderr, fscanf, fread, …): what a file holds is not known either.

package cfront

import (
	"fmt"

	"modernc.org/cc/v4"
)

// Values of the register of a FILE * local: not set, NULL, open.
const (
	fileUnset = 0
	fileNull  = 1
	fileOpen  = 2
)

// isFilePtr reports whether ty is FILE *.
func isFilePtr(ty cc.Type) bool {
	p, ok := ty.(*cc.PointerType)
	if !ok {
		return false
	}
	td := p.Elem().Typedef()
	return td != nil && td.Name() == "FILE"
}

// fileVar declares a FILE * local: a register holding fileNull or
// fileOpen.
func (t *translator) fileVar(d *cc.Declarator, init *cc.Initializer, static bool) {
	if static {
		t.refuse(d, "FILE * object %s outside a function's locals: only a local set by fopen is in the subset", d.Name())
	}
	if len(t.regs) >= 24 {
		t.refuse(d, "too many locals (the checker has 32 registers, some for temporaries)")
	}
	e := &entity{kind: kFile, name: t.fresh(d.Name(), d.Name())}
	t.regs = append(t.regs, e.name)
	t.frame().vars[d] = e
	if init == nil {
		return
	}
	if init.Case != cc.InitializerExpr {
		t.refuse(init, "brace initialiser of the pointer %s", d.Name())
	}
	old := t.atDecl(e, init)
	t.emit("%s <- %s", e.name, t.fileValue(init.AssignmentExpression))
	t.cur = old
}

// fileOf is the FILE * local e names, or nil.
func (t *translator) fileOf(e cc.ExpressionNode) *entity {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok || !isFilePtr(d.Type()) {
		return nil
	}
	if ent := t.lookup(d); ent != nil && ent.kind == kFile {
		return ent
	}
	return nil
}

// fileValue is the value a FILE * expression gives a local: fopen's
// choice, NULL, or another such local's.
func (t *translator) fileValue(e cc.ExpressionNode) string {
	if f := t.fileOf(e); f != nil {
		return f.name
	}
	if isNull(e) {
		return fmt.Sprint(fileNull)
	}
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || !isCallOf(x, "fopen") {
		t.refuse(e, "a FILE * other than fopen's result, NULL or such a local: only files opened by fopen are in the subset")
	}
	n := 0
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		if _, ok := stringLiteral(l.AssignmentExpression); !ok && !t.isArgvWord(l.AssignmentExpression) {
			t.refuse(l.AssignmentExpression, "fopen of a name or mode that is not a string literal or argv[k]")
		}
		n++
	}
	if n != 2 {
		t.refuse(x, "fopen takes 2 arguments here, not %d", n)
	}
	r := t.temp()
	null, open, end := t.label(), t.label(), t.label()
	t.constant(x, fileOpen)
	t.emit("goto %s, %s", null, open)
	t.place(null)
	t.emit("%s <- %d; goto %s", r, fileNull, end)
	t.place(open)
	t.emit("%s <- %d", r, fileOpen)
	t.place(end)
	return r
}

// isArgvWord reports whether e is argv[k] for a constant k.
func (t *translator) isArgvWord(e cc.ExpressionNode) bool {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionIndex {
		return false
	}
	if _, ok := constValue(x.ExpressionList); !ok {
		return false
	}
	p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok {
		return false
	}
	ent := t.lookup(d)
	return ent != nil && ent.kind == kArgv
}

// fileAssign translates fp = e for a FILE * local fp; the value of the
// assignment is fp's register.
func (t *translator) fileAssign(x *cc.AssignmentExpression, f *entity) string {
	if x.Case != cc.AssignmentExpressionAssign {
		t.refuse(x, "arithmetic on the FILE * %s", t.cname(f))
	}
	t.emit("%s <- %s", f.name, t.fileValue(x.AssignmentExpression))
	return f.name
}

// fileTest translates a FILE * as a condition and compared with NULL by
// == or !=: 1 when the stream is open (for ==, when it is NULL).
func (t *translator) fileTest(e cc.ExpressionNode) (string, bool) {
	if r, ok := t.fileOperand(e); ok {
		return fmt.Sprintf("(%s == %d)", r, fileOpen), true
	}
	x, ok := e.(*cc.EqualityExpression)
	if !ok || x.EqualityExpression == nil {
		return "", false
	}
	a, b := cc.ExpressionNode(x.EqualityExpression), cc.ExpressionNode(x.RelationalExpression)
	if isNull(a) {
		a, b = b, a
	}
	if !isNull(b) {
		return "", false
	}
	r, ok := t.fileOperand(a)
	if !ok {
		return "", false
	}
	if x.Token.SrcStr() == "==" {
		return fmt.Sprintf("(%s == %d)", r, fileNull), true
	}
	return fmt.Sprintf("(%s == %d)", r, fileOpen), true
}

// fileOperand evaluates a FILE * local, an assignment to one, or a call
// of fopen, to a register holding fileNull or fileOpen.
func (t *translator) fileOperand(e cc.ExpressionNode) (string, bool) {
	if f := t.fileOf(e); f != nil {
		return f.name, true
	}
	switch x := unparen(e).(type) {
	case *cc.AssignmentExpression:
		if f := t.fileOf(x.UnaryExpression); f != nil {
			return t.fileAssign(x, f), true
		}
	case *cc.PostfixExpression:
		if isCallOf(x, "fopen") {
			return t.fileValue(x), true
		}
	}
	return "", false
}

// fclose closes a stream fopen opened: nothing the model sees.
func (t *translator) fclose(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 1)
	if t.fileOf(args[0]) == nil {
		t.refuse(args[0], "fclose of a stream other than a FILE * local set by fopen")
	}
	return "0"
}
