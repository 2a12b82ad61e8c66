// ~ on unsigned values, as bit patterns: tests of the bitwise atomics
// start from ~(T)0 (every bit set) and clear or flip one bit per PE,
// then compare for equality. C's unsigned value of width w is then near
// 2^w, far outside any domain the checker can explore; read as the
// signed number with the same w bits (two's complement: ~(T)0 is -1,
// ~(T)(1 << k) is -1 - 2^k) it is small, and the translation already
// computes &, |, ^ and ~ on signed numbers bit by bit (bitwise.go).
//
// Why it is exact: reading every unsigned value v of width w as
// r(v) = v - 2^w when v >= 2^(w-1) (v otherwise) is one to one, and
// r(a & b) = r(a) & r(b) (also |, ^, and r(~a) = -1 - r(a)), because
// two's complement keeps the bits; r(a) == r(b) iff a == b, and
// r(a) != 0 iff a != 0; a conversion to a type of the same width keeps
// the bits (to the signed type, r(v) is then C's value), and one to a
// narrower type of at least 32 bits keeps r for the values the checker
// represents. So the program is exact as long as a value read so (a
// "pattern": a result of ~ or of a large unsigned constant, an object
// such a value is stored in, a value loaded from one) meets only these
// operations. The analysis (flow-insensitive, over every function of
// the file) finds the patterns and every place one is used; a use
// outside those operations (<, /, %, >>, +, a widening conversion, a
// pointer it could be stored through, a helper function) keeps the
// refusal of ~, naming the use.

package cfront

import (
	"fmt"
	"reflect"
	"strings"

	"modernc.org/cc/v4"
)

// bitsState is the analysis's result: on when unsigned values are read
// as bit patterns; why (with pos) names the first use that forbids it.
type bitsState struct {
	done, on bool
	root     cc.Node // the translation unit
	objs     map[*cc.Declarator]bool
	own      map[string]bool // the functions the file defines
	why      string
	pos      cc.Node
}

// bitsOn runs the analysis once and reports whether patterns are exact.
func (t *translator) bitsOn() bool {
	b := &t.bits
	if b.done {
		return b.on
	}
	if b.root == nil {
		return false // not yet known: the old refusals
	}
	b.done = true
	b.objs = map[*cc.Declarator]bool{}
	b.own = map[string]bool{}
	roots := []cc.Node{b.root}
	walk(b.root, func(n cc.Node) bool {
		if fd, ok := n.(*cc.FunctionDefinition); ok {
			b.own[fd.Declarator.Name()] = true
			return false
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for _, r := range roots {
			walk(r, func(n cc.Node) bool {
				if _, ok := n.(*cc.GenericSelection); ok {
					return false // its controlling expression is not evaluated
				}
				changed = b.spread(n) || changed
				return true
			})
		}
	}
	b.on = true
	for _, r := range roots {
		walkParent(r, nil, func(n, parent cc.Node) bool {
			if _, ok := n.(*cc.GenericSelection); ok {
				return false
			}
			if b.on && parent != nil {
				if why := b.unsafe(n, parent); why != "" {
					b.on, b.why, b.pos = false, why, parent
				}
			}
			return b.on
		})
	}
	return b.on
}

// spread marks the objects a pattern is stored in; it reports a change.
func (b *bitsState) spread(n cc.Node) bool {
	mark := func(d *cc.Declarator) bool {
		if d == nil || b.objs[d] || !unsignedObj(d.Type()) {
			return false
		}
		b.objs[d] = true
		return true
	}
	switch x := n.(type) {
	case *cc.InitDeclarator:
		// a negative constant initialiser is converted to a pattern, as
		// in an assignment (conv.go)
		if b.patternInit(x.Initializer) || x.Initializer != nil && x.Initializer.Case == cc.InitializerExpr && negConst(x.Initializer.AssignmentExpression) {
			return mark(x.Declarator)
		}
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond && (b.pattern(x.AssignmentExpression) || negConst(x.AssignmentExpression)) {
			return mark(objectOf(x.UnaryExpression))
		}
	case *cc.PostfixExpression:
		if x.Case != cc.PostfixExpressionCall {
			return false
		}
		args := callArgs(x)
		hot := false
		for _, a := range args {
			hot = hot || b.pattern(a) || b.objs[objectOf(derefArg(a))]
		}
		changed := false
		for _, a := range args {
			if hot {
				changed = mark(objectOf(derefArg(a))) || changed
			}
		}
		return changed
	}
	return false
}

// pattern reports whether e's value is read as a bit pattern.
func (b *bitsState) pattern(e cc.ExpressionNode) bool {
	if e == nil || e.Type() == nil || !isUnsigned(e.Type()) || !cc.IsIntegerType(e.Type()) {
		return false
	}
	if v, ok := e.Value().(cc.UInt64Value); ok {
		return bigUnsigned(uint64(v), e.Type())
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			return b.pattern(x.ExpressionList)
		}
		return b.objs[identDecl(x)]
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return b.pattern(x.PrimaryExpression)
		case cc.PostfixExpressionCall:
			for _, a := range callArgs(x) {
				if b.pattern(a) || b.objs[objectOf(derefArg(a))] {
					return true
				}
			}
			return false
		}
		return b.objs[objectOf(x)]
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionCpl {
			return true
		}
		return x.Case == cc.UnaryExpressionPostfix && b.pattern(x.PostfixExpression)
	case *cc.ExpressionList:
		for x.ExpressionList != nil {
			x = x.ExpressionList
		}
		return b.pattern(x.AssignmentExpression)
	case *cc.AssignmentExpression:
		return b.objs[objectOf(x.UnaryExpression)] || b.pattern(x.AssignmentExpression)
	case *cc.ConditionalExpression:
		return b.pattern(x.ExpressionList) || b.pattern(x.ConditionalExpression)
	case *cc.AndExpression, *cc.InclusiveOrExpression, *cc.ExclusiveOrExpression:
		for _, c := range operands(x) {
			if b.pattern(c) || negConst(c) {
				return true
			}
		}
		return false
	}
	for _, c := range operands(e) {
		if b.pattern(c) {
			return true
		}
	}
	return false
}

// bigUnsigned: v of unsigned type ty has its top bit set.
func bigUnsigned(v uint64, ty cc.Type) bool {
	w := ty.Size() * 8
	return w > 0 && w <= 64 && v >= uint64(1)<<(w-1)
}

// bitsConst is the constant e read as a bit pattern (v - 2^w for an
// unsigned v with its top bit set), when patterns are exact.
func (t *translator) bitsConst(e cc.ExpressionNode) (int64, bool) {
	if e == nil || e.Type() == nil || !isUnsigned(e.Type()) {
		return 0, false
	}
	v, ok := e.Value().(cc.UInt64Value)
	if !ok || !bigUnsigned(uint64(v), e.Type()) || !t.bitsOn() {
		return 0, false
	}
	w := e.Type().Size() * 8
	if w == 64 {
		return int64(v), true // the same bits
	}
	return int64(v) - int64(1)<<w, true
}

// bitsRefusal is the message for ~ on an unsigned value when patterns
// are not exact.
func (t *translator) bitsRefusal() string {
	return "~ in unsigned arithmetic" + t.bitsWhy()
}

func (t *translator) bitsWhy() string {
	b := &t.bits
	if b.why == "" {
		return " (C wraps it around, the calculus does not)"
	}
	p := t.pos(b.pos)
	return fmt.Sprintf(": its value is exact as a bit pattern (the negative number with the same bits) only while it meets &, |, ^, ~, == and != and conversions of the same width, and at %d:%d it meets %s; compute in a signed type (~(int64_t)0 is -1) or keep the value away from that operation", p.Line, p.Col, b.why)
}

// bigConst refuses, when ok is false, a constant initialiser that is an
// unsigned value with its top bit set, saying why it is not a pattern.
func (t *translator) bigConst(e cc.ExpressionNode, ok bool) {
	if v, big := e.Value().(cc.UInt64Value); !ok && big && e.Type() != nil && bigUnsigned(uint64(v), e.Type()) {
		t.refuse(e, "the unsigned constant %d (its top bit set)%s", uint64(v), t.bitsWhy())
	}
}

func unsignedObj(ty cc.Type) bool {
	for ty != nil && ty.Kind() == cc.Array {
		ty = ty.(*cc.ArrayType).Elem()
	}
	return ty != nil && cc.IsIntegerType(ty) && isUnsigned(ty)
}

// negConst: e is a negative constant (C converts it to a pattern).
func negConst(e cc.ExpressionNode) bool {
	v, ok := e.Value().(cc.Int64Value)
	return ok && v < 0
}

// objectOf is the object an lvalue denotes: x, a[i], s.f (nil for one
// reached through a pointer).
func objectOf(e cc.ExpressionNode) *cc.Declarator {
	e = unparen(e)
	if x, ok := e.(*cc.PostfixExpression); ok {
		switch x.Case {
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect:
			if d := identDecl(unparen(x.PostfixExpression)); d != nil && d.Type().Kind() != cc.Ptr {
				return d
			}
			return objectOf(x.PostfixExpression)
		}
		return nil
	}
	if d := identDecl(e); d != nil && d.Type().Kind() != cc.Ptr {
		return d
	}
	return nil
}

// derefArg is the object an argument points to: &x → x, an array a → a.
func derefArg(e cc.ExpressionNode) cc.ExpressionNode {
	e = unparen(e)
	if u, ok := e.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		return u.CastExpression
	}
	if d := identDecl(e); d != nil && d.Type().Kind() == cc.Array {
		return e
	}
	return nil
}

// operands are the expression children of e.
func operands(e cc.Node) []cc.ExpressionNode {
	var out []cc.ExpressionNode
	v := reflect.ValueOf(e).Elem()
	for i := 0; i < v.NumField(); i++ {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if c, ok := v.Field(i).Interface().(cc.ExpressionNode); ok && !reflect.ValueOf(c).IsNil() {
			out = append(out, c)
		}
	}
	return out
}

// walkParent is walk with each node's parent.
func walkParent(n, parent cc.Node, f func(n, parent cc.Node) bool) {
	if n == nil {
		return
	}
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || !f(n, parent) {
		return
	}
	s := v.Elem()
	if s.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < s.NumField(); i++ {
		fv := s.Field(i)
		if !s.Type().Field(i).IsExported() || (fv.Kind() != reflect.Pointer && fv.Kind() != reflect.Interface) || fv.IsNil() {
			continue
		}
		if c, ok := fv.Interface().(cc.Node); ok {
			walkParent(c, n, f)
		}
	}
}

func opText(n cc.Node) string {
	s := strings.Join(strings.Fields(cc.NodeSource(n)), " ")
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// constBits is constValue, with a large unsigned constant read as its
// bit pattern when patterns are exact.
func (t *translator) constBits(e cc.ExpressionNode) (int64, bool) {
	if v, ok := t.bitsConst(e); ok {
		return v, true
	}
	return constValue(e)
}

// patternInit: some element of an initialiser is a pattern.
func (b *bitsState) patternInit(init *cc.Initializer) bool {
	found := false
	walk(init, func(n cc.Node) bool {
		if i, ok := n.(*cc.Initializer); ok && i.Case == cc.InitializerExpr && b.pattern(i.AssignmentExpression) {
			found = true
		}
		return !found
	})
	return found
}

// intObj: ty is an integer, or an array of them (an object whose
// elements the analysis follows; not a struct or union).
func intObj(ty cc.Type) bool {
	for ty != nil && ty.Kind() == cc.Array {
		ty = ty.(*cc.ArrayType).Elem()
	}
	return ty != nil && cc.IsIntegerType(ty)
}
