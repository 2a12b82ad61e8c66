// Pointers into constant strings: the idiom of the tests-sos unit tests
//
//	char *pgm = strrchr(argv[0], '/');
//	if (pgm) pgm++; else pgm = argv[0];
//	fprintf(stderr, "usage: %s ...\n", pgm);
//
// A char * local qualifies when every value it is given is NULL, a string
// literal, argv[k] for a constant k, or strrchr/strchr of such a string
// and a constant character (stringSources decides, before the
// translation); the strings are constants of the translation (argv is
// Options.Args), so the local is a register holding a slot of a table of
// their positions, and what the program can do with it is computed
// exactly: test it (NULL or not), step it with ++, print it with %s. A
// use outside these is refused by name. Reading the characters is not
// needed for any of them (printing reads nothing the checker sees).

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// Register values of a string pointer: not set, NULL, or a slot.
const (
	strUnset = 0
	strNull  = 1
)

// strTable lays the known strings out: string i has the slots base[i] +
// k for k = 0..len (its characters and terminator) and base[i] + len + 1
// (one past its end); base[i+1] follows.
type strTable struct {
	strs []string
	base []int64
}

func (s *strTable) next() int64 {
	if len(s.strs) == 0 {
		return strNull + 1
	}
	i := len(s.strs) - 1
	return s.base[i] + int64(len(s.strs[i])) + 2
}

// add lays str out (once). The table is complete before the
// translation starts (stringSources), so that the checks of strStep know
// every string, whatever the order the code is translated in.
func (s *strTable) add(str string) {
	for _, x := range s.strs {
		if x == str {
			return
		}
	}
	s.base = append(s.base, s.next())
	s.strs = append(s.strs, str)
}

// slot is the value of a pointer to str[k]; ok is false for a string
// the table does not hold.
func (s *strTable) slot(str string, k int) (int64, bool) {
	for i, x := range s.strs {
		if x == str {
			return s.base[i] + int64(k), true
		}
	}
	return 0, false
}

// slotOf is slot, refusing a string missing from the table.
func (t *translator) slotOf(n cc.Node, str string, k int) string {
	v, ok := t.strs.slot(str, k)
	if !ok {
		t.refuse(n, "internal: string %q not laid out for the string pointers", str)
	}
	return fmt.Sprint(v)
}

// isCharPtr reports whether ty is a pointer to a character type.
func isCharPtr(ty cc.Type) bool {
	p, ok := ty.(*cc.PointerType)
	if !ok {
		return false
	}
	switch p.Elem().Kind() {
	case cc.Char, cc.SChar, cc.UChar:
		return true
	}
	return false
}

// stringSources finds the char * locals of the file's functions that
// qualify: not static, address not taken, and every initialiser and
// assignment of one is a string source (at least one not NULL).
func (t *translator) stringSources(ast *cc.AST) {
	t.strPtrs, t.strNeeds = map[*cc.Declarator]bool{}, map[*cc.Declarator]bool{}
	for _, w := range t.argv() {
		t.strs.add(w)
	}
	bad := map[*cc.Declarator]bool{}
	needs := map[*cc.Declarator]bool{} // stepped, or given more than a literal
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef || ed.Position().Filename != t.file {
			continue
		}
		walk(ed.FunctionDefinition.CompoundStatement, func(n cc.Node) bool {
			switch x := n.(type) {
			case *cc.InitDeclarator:
				d := x.Declarator
				if d == nil || !isCharPtr(d.Type()) {
					break
				}
				if d.IsStatic() || d.IsExtern() || d.AddressTaken() {
					bad[d] = true
				}
				if x.Initializer != nil {
					t.noteSource(d, x.Initializer.AssignmentExpression, x.Initializer.Case == cc.InitializerExpr, bad)
				} else {
					t.strPtrs[d] = t.strPtrs[d] || false
				}
			case *cc.PostfixExpression:
				if d := identDecl(unparen(x.PostfixExpression)); d != nil && x.Case == cc.PostfixExpressionInc {
					needs[d] = true
				}
			case *cc.UnaryExpression:
				if d := identDecl(unparen(x.UnaryExpression)); d != nil && x.Case == cc.UnaryExpressionInc {
					needs[d] = true
				}
			case *cc.AssignmentExpression:
				if x.Case == cc.AssignmentExpressionCond {
					break
				}
				if d := identDecl(unparen(x.UnaryExpression)); d != nil && isCharPtr(d.Type()) {
					t.noteSource(d, x.AssignmentExpression, x.Case == cc.AssignmentExpressionAssign, bad)
				}
			}
			return true
		})
	}
	for d := range bad {
		delete(t.strPtrs, d)
	}
	for d, ok := range t.strPtrs {
		if ok && !needs[d] && !t.strNeeds[d] {
			// literals only, never stepped: a pointer variable to a
			// string (pointer.go) already passes, compares and tests it
			delete(t.strPtrs, d)
		}
	}
	for d, ok := range t.strPtrs {
		if !ok {
			delete(t.strPtrs, d) // only NULL, or never set: not ours
		}
	}
}

// noteSource records that d is given e (plain says by = or an expression
// initialiser).
func (t *translator) noteSource(d *cc.Declarator, e cc.ExpressionNode, plain bool, bad map[*cc.Declarator]bool) {
	switch {
	case !plain || e == nil:
		bad[d] = true
	case isNull(e):
	case isStringSource(e):
		t.strPtrs[d] = true
		if _, lit := stringConst(e); !lit {
			t.strNeeds[d] = true
		}
		if s, ok := stringConst(e); ok {
			t.strs.add(s)
		}
		if x, ok := unparen(e).(*cc.PostfixExpression); ok && x.Case == cc.PostfixExpressionCall {
			if args := callArgs(x); len(args) > 0 {
				if s, ok := stringConst(args[0]); ok {
					t.strs.add(s)
				}
			}
		}
	default:
		bad[d] = true
	}
}

// isStringSource recognises a literal, argv[k] (checked again when
// translated), and strrchr/strchr of one.
func isStringSource(e cc.ExpressionNode) bool {
	if _, ok := stringConst(e); ok {
		return true
	}
	switch x := unparen(e).(type) {
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex:
			return true
		case cc.PostfixExpressionCall:
			return isCallOf(x, "strrchr") || isCallOf(x, "strchr")
		}
	}
	return false
}

// strVar declares a qualifying char * local: a register.
func (t *translator) strVar(d *cc.Declarator, init *cc.Initializer) {
	if len(t.regs) >= 24 {
		t.refuse(d, "too many locals (the checker has 32 registers, some for temporaries)")
	}
	t.constant(d, t.strs.next()) // the register's values: the slots
	e := &entity{kind: kStr, name: t.fresh(d.Name(), d.Name())}
	t.regs = append(t.regs, e.name)
	t.frame().vars[d] = e
	if init == nil {
		return
	}
	old := t.atDecl(e, init)
	t.emit("%s <- %s", e.name, t.strValue(init.AssignmentExpression))
	t.cur = old
}

// strOf is the string pointer e names, or nil.
func (t *translator) strOf(e cc.ExpressionNode) *entity {
	d := identDecl(unparen(e))
	if d == nil || !t.strPtrs[d] {
		return nil
	}
	if ent := t.lookup(d); ent != nil && ent.kind == kStr {
		return ent
	}
	return nil
}

// strValue is the slot a string source gives a pointer.
func (t *translator) strValue(e cc.ExpressionNode) string {
	if isNull(e) {
		return fmt.Sprint(strNull)
	}
	if s, ok := t.stringOf(e); ok {
		return t.slotOf(e, s, 0)
	}
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || !(isCallOf(x, "strrchr") || isCallOf(x, "strchr")) {
		t.refuse(e, "a char * given something other than NULL, a string literal, argv[k] or strrchr/strchr of one")
		return ""
	}
	args := callArgs(x)
	name := calleeName(x)
	t.arity(x, name, args, 2)
	s, ok := t.stringOf(args[0])
	c, okc := constValue(args[1])
	if !ok || !okc {
		t.refuse(x, "%s of a string that is not a literal or argv[k], or of a character that is not a constant", name)
		return ""
	}
	b := byte(c) // C converts c to char
	var k int
	if b == 0 {
		k = len(s) // the terminator
	} else if name == "strrchr" {
		k = strings.LastIndexByte(s, b)
	} else {
		k = strings.IndexByte(s, b)
	}
	if k < 0 {
		return fmt.Sprint(strNull)
	}
	return t.slotOf(x, s, k)
}

// strAssign translates p = e for a string pointer p.
func (t *translator) strAssign(x *cc.AssignmentExpression, p *entity) {
	if x.Case != cc.AssignmentExpressionAssign {
		t.refuse(x, "arithmetic other than ++ on the string pointer %s", t.cname(p))
	}
	t.emit("%s <- %s", p.name, t.strValue(x.AssignmentExpression))
}

// strSet is a run-time error where p is read before it is set (C:
// an indeterminate value).
func (t *translator) strSet(p *entity) {
	g := t.temp()
	t.emit("%s <- rank - rank + (%s == %d) * %d", g, p.name, strUnset, poisonValue)
}

// strStep translates p++ and ++p: the next slot; a run-time error for a
// NULL pointer or when p was already one past its string's end (C:
// undefined), which the new value shows: the first slot of a string or
// the end of the table are reached by no step otherwise.
func (t *translator) strStep(e cc.ExpressionNode, p *entity, inc bool) {
	if !inc {
		t.refuse(e, "-- on the string pointer %s", t.cname(p))
	}
	t.strSet(p)
	t.emit("%s <- %s + 1", p.name, p.name)
	var bad []string
	for _, b := range append(t.strs.base[:len(t.strs.base):len(t.strs.base)], t.strs.next()) {
		bad = append(bad, fmt.Sprintf("%s == %d", p.name, b))
	}
	g := t.temp()
	t.emit("%s <- rank - rank + (%s) * %d", g, strings.Join(bad, " || "), poisonValue)
}

// strTest translates a string pointer as a condition and compared with
// NULL by == or !=.
func (t *translator) strTest(e cc.ExpressionNode) (string, bool) {
	if p := t.strOf(e); p != nil {
		t.strSet(p)
		return fmt.Sprintf("(%s != %d)", p.name, strNull), true
	}
	if u, ok := unparen(e).(*cc.AssignmentExpression); ok {
		if p := t.strOf(u.UnaryExpression); p != nil { // if ((p = strrchr(...)))
			t.strAssign(u, p)
			return fmt.Sprintf("(%s != %d)", p.name, strNull), true
		}
	}
	x, ok := e.(*cc.EqualityExpression)
	if !ok || x.EqualityExpression == nil {
		return "", false
	}
	a, b := cc.ExpressionNode(x.EqualityExpression), cc.ExpressionNode(x.RelationalExpression)
	if isNull(a) {
		a, b = b, a
	}
	p := t.strOf(a)
	if p == nil {
		if u, ok := unparen(a).(*cc.AssignmentExpression); ok {
			if p = t.strOf(u.UnaryExpression); p != nil && isNull(b) {
				t.strAssign(u, p)
				return fmt.Sprintf("(%s %s %d)", p.name, x.Token.SrcStr(), strNull), true
			}
		}
		return "", false
	}
	if !isNull(b) {
		t.refuse(x, "comparison of the string pointer %s with something other than NULL", t.cname(p))
	}
	t.strSet(p)
	return fmt.Sprintf("(%s %s %d)", p.name, x.Token.SrcStr(), strNull), true
}

// strPrint is %s of a string pointer: nothing of memory (the strings are
// constants); a run-time error when it is one past its string's end. NULL
// prints as glibc prints it, "(null)", as for optarg.
func (t *translator) strPrint(p *entity) {
	t.strSet(p)
	var bad []string
	for i, b := range t.strs.base {
		bad = append(bad, fmt.Sprintf("%s == %d", p.name, b+int64(len(t.strs.strs[i]))+1))
	}
	if len(bad) > 0 {
		g := t.temp()
		t.emit("%s <- rank - rank + (%s) * %d", g, strings.Join(bad, " || "), poisonValue)
	}
}
