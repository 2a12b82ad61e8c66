// The shapes of dead checks (tailcheck.go): conditions that only load and
// compute, branches that only print, count and stop, and the final items
// of main after which a stop truncates no memory event.

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// loadOnly reports whether e only reads integer variables and elements
// and computes on them, with no failure of its own: no call but the rank
// queries, no division by a non-constant, no short circuit or choice
// over a load (a load that runs only sometimes would be dropped with the
// comparison).
func loadOnly(e cc.Node) bool { return loadOnlyAt(e, false) }

// loadOnlyAt is loadOnly, with indices that load if idx: a dead
// assignment keeps every load of its right side, those of its indices
// too, in their order (deadLoads), so nothing but its value is dropped;
// a check's reloads (deadAnalysis.check) need indices that read no memory.
func loadOnlyAt(e cc.Node, idx bool) bool {
	if x, ok := e.(cc.ExpressionNode); ok {
		if _, ok := constValue(x); ok && !effects(x) {
			return true
		}
	}
	switch x := e.(type) {
	case *cc.ExpressionList:
		if x.ExpressionList != nil {
			return false
		}
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			return false
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond && (!noLoads(x.ExpressionList) || !noLoads(x.ConditionalExpression)) {
			return false
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr && !noLoads(x.LogicalAndExpression) {
			return false
		}
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd && !noLoads(x.InclusiveOrExpression) {
			return false
		}
	case *cc.InclusiveOrExpression, *cc.ExclusiveOrExpression, *cc.AndExpression, *cc.EqualityExpression,
		*cc.RelationalExpression, *cc.ShiftExpression:
	case *cc.AdditiveExpression:
		if isPointer(x.Type()) {
			return false
		}
	case *cc.MultiplicativeExpression:
		if x.Case == cc.MultiplicativeExpressionDiv || x.Case == cc.MultiplicativeExpressionMod {
			if v, ok := constValue(x.CastExpression); !ok || v == 0 {
				return false
			}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			return x.Type() != nil && cc.IsIntegerType(x.Type()) && loadOnlyAt(x.CastExpression, idx)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix, cc.UnaryExpressionMinus, cc.UnaryExpressionPlus, cc.UnaryExpressionCpl, cc.UnaryExpressionNot:
		case cc.UnaryExpressionDeref:
			return intPointer(identDecl(unparen(x.CastExpression)))
		default:
			return false
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
		case cc.PostfixExpressionIndex:
			v := identDecl(unparen(x.PostfixExpression))
			if idx {
				return (intPointer(v) || intArray(v)) && loadOnlyAt(x.ExpressionList, true)
			}
			return (intPointer(v) || intArray(v)) && noLoads(x.ExpressionList)
		case cc.PostfixExpressionCall:
			return rankCall(x)
		default:
			return false
		}
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			v := identDecl(x)
			return v != nil && v.Type() != nil && cc.IsIntegerType(v.Type()) && v.Type().Kind() != cc.Array
		case cc.PrimaryExpressionExpr:
		default:
			return false
		}
	default:
		return false
	}
	ok := true
	bufChildren(e, func(c cc.Node) { ok = ok && loadOnlyAt(c, idx) })
	return ok
}

func intPointer(v *cc.Declarator) bool {
	if v == nil {
		return false
	}
	pt, ok := v.Type().(*cc.PointerType)
	return ok && cc.IsIntegerType(pt.Elem())
}

func intArray(v *cc.Declarator) bool {
	if v == nil {
		return false
	}
	at, ok := v.Type().(*cc.ArrayType)
	return ok && cc.IsIntegerType(at.Elem())
}

// noLoads reports whether e is loadOnly and reads no memory: constants
// and locals kept in registers.
func noLoads(e cc.Node) bool {
	return loadOnly(e) && len(loadLeaves(e)) == 0
}

// loadLeaves are the reads of memory of a loadOnly expression, in the
// order of evaluation: variables that are not plain locals (function
// parameters and main's locals kept in registers read no memory),
// elements a[k] and *p.
func loadLeaves(e cc.Node) []cc.ExpressionNode {
	var out []cc.ExpressionNode
	walk(e, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionIndex {
				out = append(out, x)
				return false
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionDeref {
				out = append(out, x)
				return false
			}
		case *cc.PrimaryExpression:
			if v := identDecl(x); v != nil && !registerLocal(v) && v.Type() != nil && cc.IsIntegerType(v.Type()) {
				if _, ok := constValue(x); !ok {
					out = append(out, x)
				}
			}
		}
		return true
	})
	return out
}

// registerLocal is a plain integer local or parameter: not a global, not
// static, address not taken.
func registerLocal(v *cc.Declarator) bool {
	return plainLocal(v) && v.Linkage() == cc.None
}

// check reports whether s is a dead check under the current dead locals.
func (d *deadAnalysis) check(s *cc.SelectionStatement) bool {
	if s.Case != cc.SelectionStatementIf && s.Case != cc.SelectionStatementIfElse {
		return false
	}
	if !loadOnly(s.ExpressionList) {
		return false
	}
	var loads []cc.ExpressionNode
	stop := d.final[s]
	if !d.branch(s.Statement, stop, true, &loads) {
		return false
	}
	if s.Case == cc.SelectionStatementIfElse && !d.branch(s.Statement2, stop, true, &loads) {
		return false
	}
	return d.reloads(loadLeaves(s.ExpressionList), loads)
}

// reloads is clause (b): the branch's loads of cells others may touch
// re-read the one such cell the condition reads, with nothing but
// private loads between (loads of the condition's other operands).
func (d *deadAnalysis) reloads(cond, branch []cc.ExpressionNode) bool {
	shared := func(l []cc.ExpressionNode) map[string]bool {
		m := map[string]bool{}
		for _, e := range l {
			if !d.privateLoad(e) {
				m[strings.Join(strings.Fields(cc.NodeSource(e)), "")] = true
			}
		}
		return m
	}
	b := shared(branch)
	if len(b) == 0 {
		return true
	}
	c := shared(cond)
	if len(c) != 1 || len(b) != 1 {
		return false
	}
	for k := range b {
		return c[k]
	}
	return false
}

// privateLoad is an element of a private array of main.
func (d *deadAnalysis) privateLoad(e cc.ExpressionNode) bool {
	x, ok := e.(*cc.PostfixExpression)
	return ok && x.Case == cc.PostfixExpressionIndex && d.private[identDecl(unparen(x.PostfixExpression))]
}

// branch reports whether s only prints, assigns dead locals and (when
// stop, as its last statement) stops; it collects the loads.
func (d *deadAnalysis) branch(s *cc.Statement, stop, last bool, loads *[]cc.ExpressionNode) bool {
	if s == nil {
		return false
	}
	switch s.Case {
	case cc.StatementCompound:
		if s.CompoundStatement == nil {
			return false
		}
		for l := s.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
			it := l.BlockItem
			if it == nil || it.Case != cc.BlockItemStmt || !d.branch(it.Statement, stop, last && l.BlockItemList == nil, loads) {
				return false
			}
		}
		return true
	case cc.StatementJump:
		js := s.JumpStatement
		return stop && last && js != nil && js.Case == cc.JumpStatementReturn
	case cc.StatementExpr:
		if s.ExpressionStatement == nil || s.ExpressionStatement.ExpressionList == nil {
			return true
		}
		e := single(s.ExpressionStatement.ExpressionList)
		if d.assignment(e) {
			if rhs := assignRHS(e); rhs != nil {
				*loads = append(*loads, loadLeaves(rhs)...)
			}
			return true
		}
		x, ok := e.(*cc.PostfixExpression)
		if !ok || x.Case != cc.PostfixExpressionCall {
			return false
		}
		name := calleeName(x)
		args := callArgs(x)
		switch {
		case stopCall(name):
			if !stop || !last {
				return false
			}
		case name == "printf" || name == "puts":
		case name == "fprintf" || name == "fflush":
			if len(args) == 0 || !stdStream(args[0]) {
				return false
			}
			args = args[1:]
		default:
			return false
		}
		for _, a := range args {
			if _, ok := stringConst(a); ok {
				continue
			}
			if !loadOnly(a) {
				return false
			}
			*loads = append(*loads, loadLeaves(a)...)
		}
		return true
	}
	return false
}

func stdStream(e cc.ExpressionNode) bool {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	return ok && p.Case == cc.PrimaryExpressionIdent && (p.Token.SrcStr() == "stdout" || p.Token.SrcStr() == "stderr")
}

// finalChecks are the if statements of main's outermost block after which
// only quiet items come: clause (a), a stop there truncates no memory
// event of its PE, and the collectives it skips order none.
func (d *deadAnalysis) finalChecks(body *cc.CompoundStatement) map[*cc.SelectionStatement]bool {
	var items []*cc.BlockItem
	for l := body.BlockItemList; l != nil; l = l.BlockItemList {
		items = append(items, l.BlockItem)
	}
	out := map[*cc.SelectionStatement]bool{}
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it == nil || it.Case != cc.BlockItemStmt || it.Statement == nil {
			break
		}
		if s := it.Statement; s.Case == cc.StatementSelection && s.SelectionStatement != nil {
			out[s.SelectionStatement] = true
		}
		if !quiet(it.Statement) {
			break
		}
	}
	return out
}

// endCalls are the calls a quiet item may make: printing, stopping, and
// the collectives that end a program.
var endCalls = map[string]bool{"printf": true, "fprintf": true, "puts": true, "fflush": true,
	"exit": true, "_Exit": true, "abort": true, "shmem_global_exit": true,
	"shmem_free": true, "free": true, "shmem_finalize": true, "shmem_barrier_all": true, "shmem_sync_all": true}

// quiet reports whether s performs no memory event: no load, no store,
// no loop, no call but endCalls.
func quiet(s cc.Node) bool {
	ok := true
	walk(s, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.IterationStatement, *cc.Declaration, *cc.LabeledStatement:
			ok = false
		case *cc.JumpStatement:
			ok = x.Case == cc.JumpStatementReturn // a goto may run earlier code again
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionCall:
				if !endCalls[calleeName(x)] {
					ok = false
				}
				for _, a := range callArgs(x) {
					if _, str := stringConst(a); !str && !pointerName(a) && !noLoads(a) {
						ok = false
					}
				}
				return false
			case cc.PostfixExpressionIndex:
				ok = false
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionDeref {
				ok = false
			}
		case *cc.PrimaryExpression:
			if v := identDecl(x); v != nil && !registerLocal(v) {
				if _, c := constValue(x); !c && !stdStream(x) {
					ok = false
				}
			}
		case *cc.AssignmentExpression:
			if x.Case != cc.AssignmentExpressionCond && !registerLocal(assignTarget(x)) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// pointerName is a pointer local (the argument of a free).
func pointerName(e cc.ExpressionNode) bool {
	v := identDecl(unparen(e))
	return v != nil && v.Linkage() == cc.None && !v.IsStatic() && v.Type() != nil && v.Type().Kind() == cc.Ptr
}
