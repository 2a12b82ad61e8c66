// Unsequenced side effects: C leaves `i = i++`, `a[i++] = i` and
// `f(i++, i)` undefined (C11 6.5p2: a side effect on an object unsequenced
// with another side effect on it, or with a use of its value), so there
// is no meaning to translate: they are refused. A use is sequenced with a
// side effect when it is inside it (the operands of an assignment or ++
// are computed first) or when the two are on different sides of &&, ||,
// the comma operator, or the condition of ?:. The check is by object
// name: a[0]++ + a[1] is refused too, though defined (rewrite it).

package cfront

import (
	"reflect"

	"modernc.org/cc/v4"
)

// access is an identifier of an object, or a side effect on one, with the
// path of nodes from the full expression down to it.
type access struct {
	d    *cc.Declarator
	path []cc.Node
}

// sequenced refuses e when it has an unsequenced side effect.
func (t *translator) sequenced(e cc.ExpressionNode) {
	if e == nil {
		return
	}
	var uses, effects []access
	var walk func(n cc.Node, path []cc.Node)
	walk = func(n cc.Node, path []cc.Node) {
		path = append(path[:len(path):len(path)], n)
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionIdent {
				if d, ok := x.ResolvedTo().(*cc.Declarator); ok {
					uses = append(uses, access{d, path})
				}
			}
			if x.Case == cc.PrimaryExpressionGeneric {
				// only the selected association is evaluated (the
				// generic routines of shmem.h repeat their destination
				// in the controlling expression)
				if a := x.GenericSelection.Associated(); a != nil {
					walk(a.AssignmentExpression, path)
				}
				return
			}
		case *cc.AssignmentExpression:
			if x.Case != cc.AssignmentExpressionCond {
				effects = append(effects, access{baseObject(x.UnaryExpression), path})
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec {
				effects = append(effects, access{baseObject(x.PostfixExpression), path})
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec {
				effects = append(effects, access{baseObject(x.UnaryExpression), path})
			}
			if x.Case == cc.UnaryExpressionSizeofExpr || x.Case == cc.UnaryExpressionAlignofExpr {
				return // not evaluated
			}
		}
		children(n, func(c cc.Node) { walk(c, path) })
	}
	walk(e, nil)
	for _, s := range effects {
		if s.d == nil {
			continue
		}
		// a use inside the side effect is one of its operands, computed
		// before it; another side effect on the object is a conflict
		// even when nested (x = x++)
		for _, o := range uses {
			if o.d == s.d && !inside(o.path, s.path) && !splitBySequencePoint(s.path, o.path) {
				t.refuseUnsequenced(e, s.d)
			}
		}
		for _, o := range effects {
			if o.d != s.d || len(o.path) == len(s.path) && o.path[len(o.path)-1] == s.path[len(s.path)-1] {
				continue
			}
			if inside(o.path, s.path) || inside(s.path, o.path) || !splitBySequencePoint(s.path, o.path) {
				t.refuseUnsequenced(e, s.d)
			}
		}
	}
}

func (t *translator) refuseUnsequenced(e cc.Node, d *cc.Declarator) {
	t.refuse(e, "%s is modified and used (or modified twice) with no sequence point between: C leaves that undefined; split the expression into statements", d.Name())
}

// inside reports whether the node at the end of p lies within the node
// at the end of outer.
func inside(p, outer []cc.Node) bool {
	if len(p) < len(outer) {
		return false
	}
	return p[len(outer)-1] == outer[len(outer)-1]
}

// splitBySequencePoint reports whether the deepest common ancestor of the
// two nodes separates them by a sequence point: they are in different
// operands of &&, ||, the comma operator or ?:.
func splitBySequencePoint(a, b []cc.Node) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == 0 || i == len(a) || i == len(b) {
		return false
	}
	switch a[i-1].(type) {
	case *cc.LogicalAndExpression, *cc.LogicalOrExpression, *cc.ExpressionList, *cc.ConditionalExpression:
		// the condition of ?: comes first, and only one branch runs
		return true
	}
	return false
}

// baseObject is the declarator of the object an lvalue designates at its
// root (a for a[i].m, p for *p), or nil.
func baseObject(e cc.ExpressionNode) *cc.Declarator {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			switch x.Case {
			case cc.PrimaryExpressionIdent:
				d, _ := x.ResolvedTo().(*cc.Declarator)
				return d
			case cc.PrimaryExpressionExpr:
				e = x.ExpressionList
				continue
			}
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionPrimary:
				e = x.PrimaryExpression
				continue
			case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
				e = x.PostfixExpression
				continue
			}
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionPostfix:
				e = x.PostfixExpression
				continue
			case cc.UnaryExpressionDeref:
				e = x.CastExpression
				continue
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				e = x.UnaryExpression
				continue
			}
			e = x.CastExpression
			continue
		case *cc.ExpressionList:
			for x.ExpressionList != nil {
				x = x.ExpressionList
			}
			e = x.AssignmentExpression
			continue
		}
		return nil
	}
}

var nodeType = reflect.TypeOf((*cc.Node)(nil)).Elem()

// children calls f on each AST child of n that is an expression node
// (fields of node types, in order), without entering statements (a
// statement expression is refused elsewhere).
func children(n cc.Node, f func(cc.Node)) {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	v = v.Elem()
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		fv := v.Field(i)
		if !v.Type().Field(i).IsExported() || fv.Kind() != reflect.Pointer && fv.Kind() != reflect.Interface || fv.IsNil() {
			continue
		}
		if !fv.Type().Implements(nodeType) {
			continue
		}
		c, ok := fv.Interface().(cc.Node)
		if !ok {
			continue
		}
		switch c.(type) {
		case *cc.CompoundStatement, *cc.TypeName:
			continue
		}
		f(c)
	}
}
