// Aggregates of integers: arrays (of any dimension) and structs whose
// members are integers of one size, laid out as consecutive cells of that
// size, so that element counts in bytes (sizeof, nelems * size) stay cell
// counts. A member is a cell at its byte offset divided by the size.

package cfront

import (
	"fmt"
	"strconv"

	"modernc.org/cc/v4"
)

// layout is the number of cells of type ty and their size in bytes; why
// is non-empty when ty is not an aggregate of the subset.
func layout(ty cc.Type) (cells int64, elem int64, why string) {
	switch {
	case cc.IsIntegerType(ty):
		return 1, ty.Size(), ""
	case ty.Kind() == cc.Array:
		at := ty.(*cc.ArrayType)
		if at.IsVLA() || at.Len() <= 0 {
			return 0, 0, "an array without a constant length"
		}
		c, e, why := layout(at.Elem())
		if why != "" {
			return 0, 0, why
		}
		return c * at.Len(), e, ""
	case ty.Kind() == cc.Struct:
		st := ty.(*cc.StructType)
		for i := 0; i < st.NumFields(); i++ {
			f := st.FieldByIndex(i)
			if f.IsBitfield() {
				return 0, 0, "a struct with a bit-field (" + f.Name() + ")"
			}
			c, e, why := layout(f.Type())
			if why != "" {
				return 0, 0, why
			}
			if elem != 0 && e != elem {
				return 0, 0, "a struct with members of different sizes (the subset lays a struct out as cells of one size)"
			}
			elem, cells = e, cells+c
		}
		if elem == 0 || cells*elem != ty.Size() {
			return 0, 0, "a struct with padding or no members"
		}
		return cells, elem, ""
	case ty.Kind() == cc.Union:
		return 0, 0, "a union"
	case cc.IsFloatingPointType(ty):
		return 0, 0, "floating point"
	case ty.Kind() == cc.Ptr:
		return 0, 0, "a pointer"
	}
	return 0, 0, fmt.Sprintf("type %s", ty)
}

// stride is the number of cells of an element of type ty (1 for an
// integer, and for anything else the subset refuses elsewhere).
func stride(ty cc.Type) int64 {
	if ty == nil || cc.IsIntegerType(ty) {
		return 1
	}
	if c, _, why := layout(ty); why == "" {
		return c
	}
	return 1
}

// scaled is the .pgas expression i * k.
func scaled(i string, k int64) string {
	if k == 1 {
		return i
	}
	if v, err := strconv.ParseInt(i, 10, 64); err == nil {
		return fmt.Sprint(v * k)
	}
	return fmt.Sprintf("(%s * %d)", i, k)
}

// member is the cell of s.m or p->m, or the first cell of it when the
// member is itself an aggregate.
func (t *translator) member(x *cc.PostfixExpression) addrTerm {
	var base addrTerm
	if x.Case == cc.PostfixExpressionSelect {
		base = t.aggregate(x.PostfixExpression)
	} else {
		base = t.pointer(x.PostfixExpression)
	}
	f := x.Field()
	if f == nil || base.ent == nil {
		t.refuse(x, "member %s", x.Token2.SrcStr())
	}
	if f.IsBitfield() {
		t.refuse(x, "bit-field member %s", f.Name())
	}
	if base.ent.elem == 0 || f.Offset()%base.ent.elem != 0 {
		t.refuse(x, "member %s is not at a cell boundary", f.Name())
	}
	a := base.plus(fmt.Sprint(f.Offset() / base.ent.elem))
	t.check(x, a, int(stride(f.Type())))
	return a
}

// aggregate is the first cell of a struct or array lvalue.
func (t *translator) aggregate(e cc.ExpressionNode) addrTerm {
	switch x := unparen(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			ent := t.ident(x)
			if (ent.kind == kSym || ent.kind == kCell) && ent.length > 0 {
				return addrTerm{ent, "0"}
			}
			if ent.kind == kPtr {
				return ent.ptr
			}
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex:
			return t.address(x)
		case cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			return t.member(x)
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			return t.pointer(x.CastExpression)
		}
	}
	t.refuse(e, "this struct or array is not an object of the subset")
	return addrTerm{}
}

// initAggregate stores the initial values of a local aggregate: every
// cell, the unlisted ones 0, as C does at each execution of the
// declaration.
func (t *translator) initAggregate(e *entity, ty cc.Type, init *cc.Initializer) {
	vals := make([]cc.ExpressionNode, e.length)
	t.initLeaves(e, init, 0, vals)
	types := leafTypes(init) // conv.go
	for i, v := range vals {
		s := "0"
		if v != nil {
			s = t.convTo(types[v], v, t.value(v), nil)
		}
		t.emit("mem[%s] <- %s", elemAddr(e.name, fmt.Sprint(i)), s)
	}
}

// initLeaves finds the expression of each cell of an initialiser, by the
// byte offsets cc computes (designators and nested braces included).
func (t *translator) initLeaves(e *entity, init *cc.Initializer, base int64, vals []cc.ExpressionNode) {
	switch init.Case {
	case cc.InitializerExpr:
		if s, ok := stringConst(init.AssignmentExpression); ok && init.Type() != nil && init.Type().Kind() == cc.Array {
			t.refuse(init, "a string initialiser %q: write the characters as a list", s)
		}
		off := base + init.Offset()
		if off%e.elem != 0 || off/e.elem >= int64(len(vals)) || init.Len() != 1 {
			t.refuse(init, "initialiser of %s outside its cells", t.cname(e))
		}
		vals[off/e.elem] = init.AssignmentExpression
	case cc.InitializerInitList:
		for l := init.InitializerList; l != nil; l = l.InitializerList {
			t.initLeaves(e, l.Initializer, base, vals)
		}
	}
}

// pointee is the type a pointer or array type designates.
func pointee(ty cc.Type) cc.Type {
	switch x := ty.(type) {
	case *cc.PointerType:
		return x.Elem()
	case *cc.ArrayType:
		return x.Elem()
	}
	return nil
}

// isArrayValued reports whether x (an index or a member selection)
// designates an array, which decays to a pointer to its first element.
func isArrayValued(x *cc.PostfixExpression) bool {
	var ty cc.Type
	switch x.Case {
	case cc.PostfixExpressionIndex:
		ty = pointee(x.PostfixExpression.Type())
	default:
		if f := x.Field(); f != nil {
			ty = f.Type()
		}
	}
	return ty != nil && ty.Kind() == cc.Array
}
