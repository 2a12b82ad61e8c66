// The uses a bit pattern may meet (unsigned_bits.go).

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// unsafe says why the use of n by parent makes patterns inexact ("" when
// it does not, or n is no pattern).
func (b *bitsState) unsafe(n, parent cc.Node) string {
	if u, ok := n.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		if d := objectOf(u.CastExpression); d != nil && b.objs[d] && !isCallArgs(parent) {
			return "its object's address (" + opText(u) + "), through which it could be read unseen"
		}
	}
	if x, ok := n.(*cc.PostfixExpression); ok && x.Case == cc.PostfixExpressionCall {
		if why := b.callUse(x); why != "" {
			return why
		}
	}
	if x, ok := n.(*cc.InitDeclarator); ok && !intObj(x.Declarator.Type()) && b.patternInit(x.Initializer) {
		return "the initialiser of " + x.Declarator.Name() + ", which is no integer or array of integers"
	}
	e, ok := n.(cc.ExpressionNode)
	if !ok || !b.pattern(e) {
		return ""
	}
	size := e.Type().Size()
	same := func(p cc.ExpressionNode) string {
		if p.Type() == nil || p.Type().Size() != size {
			return "a conversion to another width in " + opText(p)
		}
		return ""
	}
	switch p := parent.(type) {
	case *cc.SelectionStatement:
		if p.Case == cc.SelectionStatementSwitch {
			return "a switch on it (its case labels are C's unsigned values)"
		}
		return ""
	case *cc.PrimaryExpression, *cc.ExpressionList, *cc.ExpressionStatement,
		*cc.IterationStatement, *cc.LogicalAndExpression, *cc.LogicalOrExpression:
		return "" // the same value, a discarded one, or a truth test
	case *cc.ArgumentExpressionList:
		return "" // judged at the call
	case *cc.PostfixExpression:
		switch p.Case {
		case cc.PostfixExpressionPrimary:
			return same(p)
		case cc.PostfixExpressionCall:
			if p.PostfixExpression == e {
				return opText(p)
			}
			return "" // judged at the call (callUse)
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect:
			if p.PostfixExpression == e {
				return "" // an element of a pattern object
			}
		}
	case *cc.UnaryExpression:
		switch p.Case {
		case cc.UnaryExpressionPostfix, cc.UnaryExpressionCpl:
			return same(p)
		case cc.UnaryExpressionNot, cc.UnaryExpressionAddrof:
			return "" // a truth test; the object's address (judged at the &)
		}
	case *cc.CastExpression:
		if p.Case == cc.CastExpressionUnary {
			return same(p)
		}
		if ty := p.Type(); cc.IsIntegerType(ty) && (ty.Size() == size || (ty.Size() < size && ty.Size() >= 4)) {
			return ""
		}
	case *cc.AndExpression, *cc.InclusiveOrExpression, *cc.ExclusiveOrExpression:
		return same(p.(cc.ExpressionNode))
	case *cc.EqualityExpression:
		if p.Case == cc.EqualityExpressionRel {
			return same(p)
		}
		other := p.EqualityExpression
		if other == e {
			other = p.RelationalExpression
		}
		if other.Type() != nil && other.Type().Size() <= size {
			return ""
		}
	case *cc.ConditionalExpression:
		if p.ExpressionList != e && p.ConditionalExpression != e {
			return "" // the condition
		}
		return same(p)
	case *cc.AssignmentExpression:
		return b.assignUse(p, e, size)
	case *cc.Initializer:
		if ty := p.Type(); ty != nil && cc.IsIntegerType(ty) && (ty.Size() == size || (ty.Size() < size && ty.Size() >= 4)) {
			return ""
		}
	}
	return opText(parent)
}

// assignUse judges a pattern in an assignment: stored whole into an
// object of its width, or the object of a bitwise compound assignment.
func (b *bitsState) assignUse(p *cc.AssignmentExpression, e cc.ExpressionNode, size int64) string {
	switch p.Case {
	case cc.AssignmentExpressionCond:
		return ""
	case cc.AssignmentExpressionAssign, cc.AssignmentExpressionAnd, cc.AssignmentExpressionOr, cc.AssignmentExpressionXor:
	default:
		return opText(p)
	}
	if d := objectOf(p.UnaryExpression); d == nil {
		return "a store through a pointer in " + opText(p)
	} else if !intObj(d.Type()) {
		return "a store into a member of a struct or union in " + opText(p)
	}
	if p.UnaryExpression.Type() == nil || p.UnaryExpression.Type().Size() != size {
		return "a conversion to another width in " + opText(p)
	}
	return ""
}

// callUse judges a call that a pattern meets, as a value or through
// an object it names: the printing routines only read it; the
// OpenSHMEM routines move it, combine it bit by bit or with + (the same
// bits modulo 2^w) and compare it for equality, on objects of one width;
// reductions, and waits and tests with an order, compare as unsigned
// numbers; any other routine could do anything with it.
func (b *bitsState) callUse(x *cc.PostfixExpression) string {
	args := callArgs(x)
	involved := false
	for _, a := range args {
		involved = involved || b.pattern(a) || b.objs[objectOf(derefArg(a))]
	}
	if !involved {
		return ""
	}
	name := calleeName(x)
	switch {
	case (name == "printf" || name == "fprintf") && !b.own[name]:
		return ""
	case !strings.HasPrefix(name, "shmem_") || name == "shmem_ptr" || b.own[name]:
		return "a call of " + name + " in " + opText(x)
	}
	for _, w := range []string{"reduce", "to_all", "scan"} {
		if strings.Contains(name, w) {
			return "a reduction, " + opText(x)
		}
	}
	if strings.Contains(name, "wait") || strings.Contains(name, "test") {
		// the comparison is second to last in every wait and test
		eq := false
		if len(args) >= 2 {
			v, ok := constValue(args[len(args)-2])
			eq = ok && (v == cmpEQ || v == cmpNE)
		}
		if !eq {
			return "a wait or test that may compare by order, " + opText(x)
		}
	}
	var size int64
	for _, a := range args {
		var s int64
		switch {
		case a.Type() != nil && a.Type().Kind() == cc.Ptr:
			el := a.Type().(*cc.PointerType).Elem()
			if !cc.IsIntegerType(el) {
				continue // a context, a team
			}
			if d := objectOf(derefArg(a)); d == nil {
				return "an OpenSHMEM call on an object named by a pointer variable, " + opText(x)
			} else if !intObj(d.Type()) {
				return "an OpenSHMEM call on a member of a struct or union, " + opText(x)
			}
			s = el.Size()
		case b.pattern(a):
			s = a.Type().Size()
		default:
			continue
		}
		if size != 0 && s != size {
			return "a conversion to another width in " + opText(x)
		}
		size = s
	}
	return ""
}

// the values of SHMEM_CMP_EQ and SHMEM_CMP_NE in our shmem.h.
const cmpEQ, cmpNE = 1, 2

func isCallArgs(n cc.Node) bool {
	_, ok := n.(*cc.ArgumentExpressionList)
	return ok
}
