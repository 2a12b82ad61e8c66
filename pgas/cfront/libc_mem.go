// memset, memcpy, memmove and memcmp on objects of the program: their
// loads and stores, element by element, in index order.

package cfront

import (
	"fmt"

	"modernc.org/cc/v4"
)

// memRoutines is filled in init: the routines call back into the translator.
var memRoutines map[string]libRoutine

func init() {
	memRoutines = map[string]libRoutine{
		"memset": (*translator).memset, "memcpy": (*translator).memcpy, "memmove": (*translator).memcpy,
		"memcmp": (*translator).memcmp,
		"strcpy": refuseMem, "strncpy": refuseMem, "strcat": refuseMem, "strdup": refuseMem,
		"strchr": refuseMem, "strrchr": refuseMem, "strstr": refuseMem, "strerror": refuseMem,
	}
}

func refuseMem(t *translator, x *cc.PostfixExpression, name string, _ []cc.ExpressionNode) string {
	t.refuse(x, "%s: string routines other than strcmp, strncmp and strlen of known strings are outside the subset", name)
	return ""
}

// memCells is the number of cells n bytes cover from a (a whole number of
// elements of a's object, a constant).
func (t *translator) memCells(name string, a addrTerm, n cc.ExpressionNode) int {
	k, ok := t.bufConst(n) // buffer_plan.go: a shrunk buffer's count
	if !ok {
		t.refuse(n, "%s's size: only a constant number of bytes is in the subset (sizeof the object)", name)
	}
	if k < 0 || k%a.ent.elem != 0 {
		t.refuse(n, "%s of %d bytes: not a whole number of elements of %s (%d bytes each)", name, k, t.cname(a.ent), a.ent.elem)
	}
	return int(k / a.ent.elem)
}

// memset(p, c, n) stores in each element the value whose bytes are all c.
func (t *translator) memset(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 3)
	a := t.pointer(args[0])
	c, ok := t.bufConst(args[1]) // buffer_plan.go: 0 in a shrunk buffer
	if !ok {
		t.refuse(args[1], "memset's byte: only a constant is in the subset")
	}
	cells := t.memCells(name, a, args[2])
	t.check(x, a, cells)
	v := byteFill(c, a.ent.elem, t.elemSigned(args[0]))
	t.orderAssumed(a, cells)
	for i := 0; i < cells; i++ {
		t.emit("mem[%s] <- %s", a.plus(fmt.Sprint(i)).String(), t.intConst(x, v))
	}
	return ""
}

// byteFill is the value of an element of size bytes whose bytes are all
// c (converted to unsigned char), read as signed or unsigned.
func byteFill(c, size int64, signed bool) int64 {
	b := uint64(c) & 0xff
	var u uint64
	for i := int64(0); i < size; i++ {
		u = u<<8 | b
	}
	if signed && size < 8 && u>>(8*size-1) == 1 {
		return int64(u) - 1<<(8*size)
	}
	return int64(u)
}

// elemSigned reports whether the elements p points to are of a signed type.
func (t *translator) elemSigned(p cc.ExpressionNode) bool {
	ty := p.Type()
	if pt, ok := ty.(*cc.PointerType); ok {
		ty = pt.Elem()
	} else if at, ok := ty.(*cc.ArrayType); ok {
		ty = at.Elem()
	}
	return cc.IsSignedInteger(ty)
}

// memcpy(d, s, n) and memmove: each element loaded from s, then stored
// into d, in index order (the objects of the subset never overlap unless
// they are one: memmove of one object is refused).
func (t *translator) memcpy(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 3)
	d, s := t.pointer(args[0]), t.pointer(args[1])
	if d.ent.elem != s.ent.elem {
		t.refuse(x, "%s between objects of different element sizes (%s, %s)", name, t.cname(d.ent), t.cname(s.ent))
	}
	cells := t.memCells(name, d, args[2])
	t.check(x, d, cells)
	t.check(x, s, cells)
	if d.ent == s.ent {
		t.refuse(x, "%s within one object: the order of its copies is the C library's", name)
	}
	t.orderAssumed(d, cells)
	t.orderAssumed(s, cells)
	for i := 0; i < cells; i++ {
		r := t.temp()
		t.emit("%s <- mem[%s]", r, s.plus(fmt.Sprint(i)).String())
		t.emit("mem[%s] <- %s", d.plus(fmt.Sprint(i)).String(), r)
		t.ntemp--
	}
	return ""
}

// memcmp(a, b, n) tested against 0 (==, !=, !, or as a condition): 0
// when the elements are equal, 1 otherwise; the elements are loaded
// pairwise in index order up to the first difference (equal elements are
// equal bytes). Its sign says which byte differs first, which depends on
// the byte order: any other use is refused.
func (t *translator) memcmp(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 3)
	if !t.zeroTest {
		t.refuse(x, "memcmp used other than compared with 0 (its sign depends on the byte order)")
	}
	t.zeroTest = false
	a, b := t.pointer(args[0]), t.pointer(args[1])
	if a.ent.elem != b.ent.elem {
		t.refuse(x, "memcmp of objects of different element sizes")
	}
	cells := t.memCells(name, a, args[2])
	t.check(x, a, cells)
	t.check(x, b, cells)
	t.orderAssumed(a, cells)
	t.orderAssumed(b, cells)
	r := t.temp()
	end := t.label()
	t.emit("%s <- 0", r)
	for i := 0; i < cells; i++ {
		u, v := t.temp(), t.temp()
		t.emit("%s <- mem[%s]", u, a.plus(fmt.Sprint(i)).String())
		t.emit("%s <- mem[%s]", v, b.plus(fmt.Sprint(i)).String())
		t.emit("if %s == %s goto %s_%d", u, v, end, i)
		t.emit("%s <- 1", r)
		t.emit("goto %s", end)
		t.place(fmt.Sprintf("%s_%d", end, i))
		t.ntemp -= 2
	}
	t.place(end)
	return r
}

// orderAssumed records that several stores or loads of a symmetric object
// are taken in index order.
func (t *translator) orderAssumed(a addrTerm, cells int) {
	if cells > 1 && a.ent.kind == kSym {
		t.assume(assumeLibcIndexOrder)
	}
}

// isMemcmp reports whether e is a call of memcmp.
func isMemcmp(e cc.ExpressionNode) bool {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionCall {
		return false
	}
	p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	return ok && p.Case == cc.PrimaryExpressionIdent && p.Token.SrcStr() == "memcmp"
}

// zeroValue is value(e) for e compared with 0, where memcmp may stand.
func (t *translator) zeroValue(e cc.ExpressionNode) string {
	t.zeroTest = isMemcmp(e)
	defer func() { t.zeroTest = false }()
	return t.value(e)
}

// memcmpZero translates memcmp(...) == 0 and its variants (!=, 0 first).
func (t *translator) memcmpZero(x *cc.EqualityExpression) (string, bool) {
	a, b := cc.ExpressionNode(x.EqualityExpression), cc.ExpressionNode(x.RelationalExpression)
	if v, ok := constValue(a); ok && v == 0 {
		a, b = b, a
	}
	if v, ok := constValue(b); !ok || v != 0 || !isMemcmp(a) {
		return "", false
	}
	return fmt.Sprintf("(%s %s 0)", t.zeroValue(a), x.Token.SrcStr()), true
}
