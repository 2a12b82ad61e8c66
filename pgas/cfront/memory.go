// Memory layout: objects and their cells, addresses and pointers into them.

package cfront

import (
	"fmt"
	"strconv"

	"modernc.org/cc/v4"
)

// An addrTerm is a cell of the program: an object (an address, or the
// first of consecutive ones) and an offset, a .pgas expression.
type addrTerm struct {
	ent *entity
	off string
}

func (a addrTerm) String() string { return elemAddr(a.ent.name, a.off) }

// plus offsets a by i elements.
func (a addrTerm) plus(i string) addrTerm {
	x, err1 := strconv.ParseInt(a.off, 10, 64)
	y, err2 := strconv.ParseInt(i, 10, 64)
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
	k, err := strconv.ParseInt(a.off, 10, 64)
	if err != nil {
		return
	}
	size := a.ent.length
	if size == 0 {
		size = 1
	}
	if k < 0 || k+int64(cells) > int64(size) {
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
			base := t.pointer(x.PostfixExpression)
			k := stride(pointee(x.PostfixExpression.Type())) // an element of an array of aggregates
			a := base.plus(scaled(t.index(x.ExpressionList), k))
			t.check(x, a, int(k))
			return a
		case cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			return t.member(x)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return t.address(x.PostfixExpression)
		case cc.UnaryExpressionDeref:
			a := t.pointer(x.CastExpression)
			t.check(x, a, 1)
			return a
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return t.address(x.UnaryExpression)
		}
	}
	t.refuse(e, "this is not a cell of the subset (an object, an array element or *pointer)")
	return addrTerm{}
}

// pointer evaluates a pointer-valued expression of the subset: &lvalue,
// an array (its first element), a pointer parameter, p + i, p - i.
func (t *translator) pointer(e cc.ExpressionNode) addrTerm {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			return t.pointer(x.ExpressionList)
		case cc.PrimaryExpressionIdent:
			ent := t.ident(x)
			switch {
			case ent.kind == kPtr:
				return ent.ptr
			case (ent.kind == kSym || ent.kind == kCell) && ent.length > 0:
				return addrTerm{ent, "0"}
			}
			t.refuse(x, "%s is not a pointer or an array", x.Token.SrcStr())
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return t.pointer(x.PrimaryExpression)
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			if isArrayValued(x) {
				return t.address(x) // a row or an array member, decayed
			}
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return t.pointer(x.PostfixExpression)
		case cc.UnaryExpressionAddrof:
			return t.address(x.CastExpression)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return t.pointer(x.UnaryExpression)
		}
		t.refuse(x, "pointer cast")
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			return t.pointer(x.MultiplicativeExpression)
		}
		if isPointer(x.AdditiveExpression.Type()) {
			base := t.pointer(x.AdditiveExpression)
			i := scaled(t.index(x.MultiplicativeExpression), stride(pointee(x.AdditiveExpression.Type())))
			if x.Case == cc.AdditiveExpressionSub {
				if isPointer(x.MultiplicativeExpression.Type()) {
					t.refuse(x, "pointer difference")
				}
				i = "(-" + i + ")"
			}
			return base.plus(i)
		}
		if isPointer(x.MultiplicativeExpression.Type()) && x.Case == cc.AdditiveExpressionAdd {
			return t.pointer(x.MultiplicativeExpression).plus(scaled(t.index(x.AdditiveExpression), stride(pointee(x.MultiplicativeExpression.Type()))))
		}
	}
	t.refuse(e, "pointer outside the subset (only &object, an array, array + i and pointer parameters bound to those)")
	return addrTerm{}
}
