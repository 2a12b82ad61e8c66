// Memory layout: objects and their cells, addresses and pointers into them.

package cfront

import (
	"fmt"
	"strconv"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// An addrTerm is a cell of the program: an object (an address, or the
// first of consecutive ones) and an offset, a .pgas expression.
type addrTerm struct {
	ent *entity
	off string
}

// String is the .pgas address of the cell. A computed offset is guarded:
// outside its object it is pushed outside every address, so that the
// access is a run-time error at its position rather than an access to the
// neighbouring object (C: undefined behaviour; docs/shmem.md, "Indices").
func (a addrTerm) String() string {
	if isConstOff(a.off) {
		return elemAddr(a.ent.name, a.off)
	}
	n := max(a.ent.length, 1)
	return elemAddr(a.ent.name, fmt.Sprintf("(%s + ((%s < 0) || (%s >= %d)) * %d)", a.off, a.off, a.off, n, pgas.MaxAddrs))
}

// plus offsets a by i elements.
func (a addrTerm) plus(i string) addrTerm {
	x, err1 := strconv.ParseInt(trimParens(a.off), 10, 64)
	y, err2 := strconv.ParseInt(trimParens(i), 10, 64)
	switch {
	case err1 == nil && err2 == nil:
		return addrTerm{a.ent, fmt.Sprint(x + y)}
	case err1 == nil && x == 0:
		return addrTerm{a.ent, i}
	case err2 == nil && y == 0:
		return a
	}
	return addrTerm{a.ent, fmt.Sprintf("(%s + %s)", a.off, i)}
}

// check refuses a constant offset outside the object (n cells from a).
// Offsets computed at run time are checked only against all addresses,
// as in .pgas (docs/language.md, "Out of range").
func (t *translator) check(n cc.Node, a addrTerm, cells int) {
	k, err := strconv.ParseInt(trimParens(a.off), 10, 64)
	if err != nil {
		return
	}
	size := a.ent.length
	if size == 0 {
		size = 1
	}
	if k < 0 {
		t.refuse(n, "access to element %d of %s: a negative index designates memory before the object (another object in the translation's layout)", k, t.cname(a.ent))
	}
	if k+int64(cells) > int64(size) {
		t.refuse(n, "access to element %d..%d of %s, which has %d", k, k+int64(cells)-1, t.cname(a.ent), size)
	}
}

func (t *translator) cname(e *entity) string {
	if c, ok := t.names[e.name]; ok {
		return c
	}
	return e.name
}

// index evaluates an index expression; its constants are offsets, not
// values of the data domain.
func (t *translator) index(e cc.ExpressionNode) string {
	t.novalue++
	defer func() { t.novalue-- }()
	return t.value(e)
}

// address is the cell an lvalue designates: x, a[i], *p, p[i].
func (t *translator) address(e cc.ExpressionNode) addrTerm {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			return t.address(x.ExpressionList)
		case cc.PrimaryExpressionIdent:
			ent := t.ident(x)
			switch ent.kind {
			case kSym, kCell:
				if ent.length > 0 && x.Type() != nil && x.Type().Kind() == cc.Struct {
					return addrTerm{ent, "0"} // its first cell: &s, a struct argument
				}
				if ent.length > 0 {
					t.refuse(x, "array %s as a whole (use its elements)", x.Token.SrcStr())
				}
				return addrTerm{ent, "0"}
			}
			t.refuse(x, "%s does not name a cell", x.Token.SrcStr())
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return t.address(x.PrimaryExpression)
		case cc.PostfixExpressionIndex:
			base, cond := t.derefBase(x.PostfixExpression)
			k := stride(pointee(x.PostfixExpression.Type())) // an element of an array of aggregates
			a := base.plus(scaled(t.index(x.ExpressionList), k))
			t.check(x, a, int(k))
			return guardNull(a, cond)
		case cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			return t.member(x)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return t.address(x.PostfixExpression)
		case cc.UnaryExpressionDeref:
			a, cond := t.derefBase(x.CastExpression)
			t.check(x, a, 1)
			return guardNull(a, cond)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return t.address(x.UnaryExpression)
		}
	}
	t.refuse(e, "this is not a cell of the subset (an object, an array element or *pointer)")
	return addrTerm{}
}

// pointer evaluates a pointer-valued expression that designates cells:
// &lvalue, an array (its first element), a pointer variable or parameter,
// p + i, p - i. NULL, a pointer shmem_ptr may have set to NULL, and a
// freed object are refused.
func (t *translator) pointer(e cc.ExpressionNode) addrTerm {
	a, cond := t.pterm(e, nil)
	return t.cells(e, a, cond)
}

// cells checks that a, the value of e, designates cells.
func (t *translator) cells(e cc.ExpressionNode, a addrTerm, cond string) addrTerm {
	switch {
	case a.ent == nil:
		what := t.text(e) + " is NULL here"
		if _, ok := constValue(e); ok {
			what = "NULL"
		}
		t.refuse(e, "%s: a null pointer designates no cell", what)
	case cond != "":
		t.refuse(e, "%s, from shmem_ptr, passed to an OpenSHMEM routine: the specification makes that undefined (the routines take symmetric addresses); pass the symmetric object itself", t.text(e))
	}
	if a.ent == stringObject {
		t.refuse(e, "a string literal used as memory: strings are not objects of the translation (only printf and friends read them)")
	}
	if at, ok := t.hs().freed[a.ent]; ok {
		p := t.pos(at)
		t.refuse(e, "%s designates %s, freed at line %d: use after free", t.text(e), t.cname(a.ent), p.Line)
	}
	return a
}

// derefBase evaluates the pointer of a load or store (*p, p[i]): as
// pointer, except that a pointer shmem_ptr may have set to NULL is
// allowed, with the condition under which it is not NULL.
func (t *translator) derefBase(e cc.ExpressionNode) (addrTerm, string) {
	a, cond := t.pterm(e, nil)
	return t.cells(e, a, ""), cond // evaluated once: e may step a pointer
}

// guardNull makes the cell a out of range unless cond holds: a load or
// store through a pointer that is NULL is then a run-time error at the
// access (an address outside the program's), where the C program would
// crash, and the cell itself otherwise.
func guardNull(a addrTerm, cond string) addrTerm {
	if cond == "" {
		return a
	}
	return addrTerm{a.ent, fmt.Sprintf("(%s + (!%s) * %d)", a.off, cond, pgas.MaxAddrs)}
}

// pterm evaluates a pointer expression that may be NULL: the cells it
// designates (ent nil for NULL) and, from shmem_ptr, the condition under
// which it is not NULL. elem is the type it is used as, which an
// allocation needs (nil: the expression's own).
func (t *translator) pterm(e cc.ExpressionNode, elem cc.Type) (addrTerm, string) {
	if v, ok := constValue(e); ok && v == 0 {
		return addrTerm{}, ""
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			return t.pterm(x.ExpressionList, elem)
		case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
			return addrTerm{ent: stringObject}, ""
		case cc.PrimaryExpressionIdent:
			ent := t.ident(x)
			switch {
			case ent.kind == kPtr:
				if pv := t.hs().vars[ent]; pv != nil {
					if !pv.set {
						t.refuse(x, "pointer %s is used before it is set", pv.cname)
					}
					return pv.at, pv.cond
				}
				return ent.ptr, ""
			case (ent.kind == kSym || ent.kind == kCell) && ent.length > 0:
				return addrTerm{ent, "0"}, ""
			}
			t.refuse(x, "%s is not a pointer or an array", x.Token.SrcStr())
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return t.pterm(x.PrimaryExpression, elem)
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			if isArrayValued(x) {
				return t.address(x), "" // a row or an array member, decayed
			}
		case cc.PostfixExpressionCall:
			return t.pointerCall(x, elem)
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			// *p++: the value before the step, kept if it is a register's
			pv := t.ptrVarOf(x.PostfixExpression)
			if pv == nil {
				t.refuse(x, "++ or -- on a pointer that is not a variable")
			}
			a, cond := t.varTerm(x, pv)
			if !isConstOff(a.off) {
				r := t.temp()
				t.emit("%s <- %s", r, a.off)
				a.off = r
			}
			t.stepPointer(x.PostfixExpression, x.Case == cc.PostfixExpressionInc)
			return a, cond
		}
	case *cc.AssignmentExpression:
		// (p = e) == NULL: the assignment, then p
		if x.Case == cc.AssignmentExpressionAssign || x.Case == cc.AssignmentExpressionAdd || x.Case == cc.AssignmentExpressionSub {
			t.assignPointer(x)
			return t.pterm(x.UnaryExpression, elem)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			t.stepPointer(x.UnaryExpression, x.Case == cc.UnaryExpressionInc)
			return t.pterm(x.UnaryExpression, elem)
		case cc.UnaryExpressionPostfix:
			return t.pterm(x.PostfixExpression, elem)
		case cc.UnaryExpressionAddrof:
			return t.address(x.CastExpression), ""
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return t.pterm(x.UnaryExpression, elem)
		}
		pt, ok := x.Type().(*cc.PointerType)
		if !ok {
			t.refuse(x, "cast of a pointer to %s", x.Type())
		}
		a, cond := t.pterm(x.CastExpression, pt.Elem())
		if k := pt.Elem().Kind(); a.ent != nil && k != cc.Void && pt.Elem().Size() != a.ent.elem {
			t.refuse(x, "pointer cast to elements of %d bytes, where %s has elements of %d bytes (a reinterpreting cast)", pt.Elem().Size(), t.cname(a.ent), a.ent.elem)
		}
		return a, cond
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			return t.pterm(x.MultiplicativeExpression, elem)
		}
		var base addrTerm
		var i, cond string
		switch {
		case isPointer(x.AdditiveExpression.Type()):
			if x.Case == cc.AdditiveExpressionSub && isPointer(x.MultiplicativeExpression.Type()) {
				t.refuse(x, "pointer difference used as a pointer")
			}
			base, cond = t.arith(x.AdditiveExpression)
			i = scaled(t.index(x.MultiplicativeExpression), stride(pointee(x.AdditiveExpression.Type())))
			if x.Case == cc.AdditiveExpressionSub {
				i = "(-" + i + ")"
			}
		case isPointer(x.MultiplicativeExpression.Type()) && x.Case == cc.AdditiveExpressionAdd:
			base, cond = t.arith(x.MultiplicativeExpression)
			i = scaled(t.index(x.AdditiveExpression), stride(pointee(x.MultiplicativeExpression.Type())))
		default:
			t.refuse(x, "pointer outside the subset")
		}
		a := base.plus(i)
		t.checkRange(x, a)
		return a, cond
	}
	t.refuse(e, "pointer outside the subset (only NULL, &object, an array, a pointer variable, p + i, p - i, an allocation and a helper's result)")
	return addrTerm{}, ""
}

// stringObject is what a string literal designates: an object without
// cells, so that a pointer to a string may be passed, compared and
// tested, and is refused where its characters would be read or written.
var stringObject = &entity{kind: kConst, name: "a string literal", length: 0, elem: 1}

// arith is the base of pointer arithmetic: not NULL, not a string; one
// that shmem_ptr may have set to NULL keeps its condition.
func (t *translator) arith(e cc.ExpressionNode) (addrTerm, string) {
	a, cond := t.pterm(e, nil)
	if a.ent == nil || a.ent == stringObject {
		t.refuse(e, "arithmetic on %s, which is NULL or a string", t.text(e))
	}
	return a, cond
}

// checkRange refuses a pointer computed with a constant offset outside
// its object (one past the end is a valid pointer in C, not a cell).
func (t *translator) checkRange(n cc.Node, a addrTerm) {
	k, err := strconv.ParseInt(trimParens(a.off), 10, 64)
	if err != nil {
		return
	}
	if size := max(a.ent.length, 1); k < 0 || k > int64(size) {
		t.refuse(n, "pointer to element %d of %s, which has %d (outside the object)", k, t.cname(a.ent), size)
	}
}

// trimParens strips the parentheses around a negative constant, "(-1)".
func trimParens(s string) string {
	for len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' {
		s = s[1 : len(s)-1]
	}
	return s
}

// addAddrAt declares the cells of e, refusing at n when the checker's
// addresses would run out.
func (t *translator) addAddrAt(n cc.Node, e *entity) {
	if k := max(e.length, 1); t.ncells+k > maxCells {
		t.refuse(n, "too many cells: the checker has %d addresses, and %s needs %d more than the %d left", maxCells, t.cname(e), k, maxCells-t.ncells)
	}
	t.addAddr(e)
}
