// Straight-line positions: where a construct runs at most once per run of
// its PE, so that its effect on the memory layout (an allocation, the
// object a pointer designates) can be fixed when translating.

package cfront

import (
	"reflect"

	"modernc.org/cc/v4"
)

// walk calls f on n and, while f returns true, on the nodes below it (the
// exported fields of cc's AST, which are its children).
func walk(n cc.Node, f func(cc.Node) bool) {
	if n == nil {
		return
	}
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || !f(n) {
		return
	}
	s := v.Elem()
	if s.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < s.NumField(); i++ {
		if !s.Type().Field(i).IsExported() {
			continue
		}
		fv := s.Field(i)
		if (fv.Kind() != reflect.Pointer && fv.Kind() != reflect.Interface) || fv.IsNil() {
			continue
		}
		if c, ok := fv.Interface().(cc.Node); ok {
			walk(c, f)
		}
	}
}

// straightSet computes the nodes of fd that run at most once per call of
// fd and every time it is called past the point: those of declarations
// and expression statements at the top level of the body (plain blocks
// included), before any return of a helper, outside the right operands of
// && and || and the branches of ?:. A function with a label (a goto
// target) has none: any point may run again.
func straightSet(fd *cc.FunctionDefinition) map[cc.Node]bool {
	set := map[cc.Node]bool{}
	labels := false
	walk(fd.CompoundStatement, func(n cc.Node) bool {
		if l, ok := n.(*cc.LabeledStatement); ok && l.Case == cc.LabeledStatementLabel {
			labels = true
		}
		return !labels
	})
	if labels {
		return set
	}
	helper := fd.Declarator.Name() != "main"
	returned := false
	mark := func(n cc.Node) {
		walk(n, func(m cc.Node) bool {
			set[m] = true
			switch x := m.(type) {
			case *cc.LogicalAndExpression:
				if x.LogicalAndExpression != nil {
					walk(x.LogicalAndExpression, func(k cc.Node) bool { set[k] = true; return true })
					return false
				}
			case *cc.LogicalOrExpression:
				if x.LogicalOrExpression != nil {
					walk(x.LogicalOrExpression, func(k cc.Node) bool { set[k] = true; return true })
					return false
				}
			case *cc.ConditionalExpression:
				if x.Case == cc.ConditionalExpressionCond {
					walk(x.LogicalOrExpression, func(k cc.Node) bool { set[k] = true; return true })
					return false
				}
			}
			return true
		})
	}
	var block func(cs *cc.CompoundStatement)
	block = func(cs *cc.CompoundStatement) {
		for l := cs.BlockItemList; l != nil && !returned; l = l.BlockItemList {
			it := l.BlockItem
			switch {
			case it.Case == cc.BlockItemDecl:
				mark(it.Declaration)
			case it.Case != cc.BlockItemStmt:
			case it.Statement.Case == cc.StatementCompound:
				block(it.Statement.CompoundStatement)
			case it.Statement.Case == cc.StatementExpr:
				mark(it.Statement)
			case it.Statement.Case == cc.StatementSelection:
				// the condition runs once, whichever branch follows
				mark(it.Statement.SelectionStatement.ExpressionList)
				if helper && hasReturn(it.Statement) {
					returned = true
				}
			case it.Statement.Case == cc.StatementIteration && it.Statement.IterationStatement.Case == cc.IterationStatementFor:
				mark(it.Statement.IterationStatement.ExpressionList) // the first clause runs once
				if helper && hasReturn(it.Statement) {
					returned = true
				}
			case it.Statement.Case == cc.StatementIteration && it.Statement.IterationStatement.Case == cc.IterationStatementForDecl:
				mark(it.Statement.IterationStatement.Declaration)
				if helper && hasReturn(it.Statement) {
					returned = true
				}
			default:
				if helper && hasReturn(it.Statement) {
					returned = true // what follows may be skipped
				}
			}
		}
	}
	block(fd.CompoundStatement)
	return set
}

func hasReturn(n cc.Node) bool {
	found := false
	walk(n, func(m cc.Node) bool {
		if j, ok := m.(*cc.JumpStatement); ok && j.Case == cc.JumpStatementReturn {
			found = true
		}
		return !found
	})
	return found
}

// loopSet computes the nodes of fd that may run more than once per call
// of fd: those inside a loop, and all of them in a function with a label
// (a goto may jump back). The rest run at most once.
func loopSet(fd *cc.FunctionDefinition) map[cc.Node]bool {
	set := map[cc.Node]bool{}
	all := false
	walk(fd.CompoundStatement, func(n cc.Node) bool {
		if l, ok := n.(*cc.LabeledStatement); ok && l.Case == cc.LabeledStatementLabel {
			all = true
		}
		return !all
	})
	walk(fd.CompoundStatement, func(n cc.Node) bool {
		if _, ok := n.(*cc.IterationStatement); ok || all {
			walk(n, func(m cc.Node) bool { set[m] = true; return true })
			return false
		}
		return true
	})
	return set
}

// straight reports whether n, in the function being translated, is at a
// straight-line position of a straight-line instance: every call on the
// way from main is itself at such a position.
func (t *translator) straight(n cc.Node) bool {
	h := t.hs()
	for _, c := range h.calls {
		if !c.straight {
			return false
		}
	}
	fd := t.funcs[t.frame().fn]
	if fd == nil {
		return false
	}
	return h.straightIn(fd)[n]
}

// once reports whether n runs at most once per run of its PE: it is in no
// loop of its function, and every call on the way from main is likewise.
func (t *translator) once(n cc.Node) bool {
	h := t.hs()
	for _, c := range h.calls {
		if !c.once {
			return false
		}
	}
	fd := t.funcs[t.frame().fn]
	if fd == nil {
		return false
	}
	l, ok := h.loopFn[fd]
	if !ok {
		l = loopSet(fd)
		h.loopFn[fd] = l
	}
	return !l[n]
}

type callCtx struct{ straight, once bool }

func (h *heapState) straightIn(fd *cc.FunctionDefinition) map[cc.Node]bool {
	s, ok := h.straightFn[fd]
	if !ok {
		s = straightSet(fd)
		h.straightFn[fd] = s
	}
	return s
}

// enterCall and leaveCall bracket the inlining of a call at x.
func (t *translator) enterCall(x cc.Node) {
	h := t.hs()
	h.calls = append(h.calls, callCtx{t.straight(x), t.once(x)})
}

func (t *translator) leaveCall() {
	h := t.hs()
	h.calls = h.calls[:len(h.calls)-1]
}

// movedPointers finds the pointer variables written where a write may run
// more than once or not at all (in a loop or branch, in a function with
// labels, or a global written outside main): they get an offset register.
func (t *translator) movedPointers(ast *cc.AST) {
	h := t.hs()
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef || ed.Position().Filename != t.file {
			continue
		}
		fd := ed.FunctionDefinition
		set := h.straightIn(fd)
		main := fd.Declarator.Name() == "main"
		walk(fd.CompoundStatement, func(n cc.Node) bool {
			var lhs cc.ExpressionNode
			switch x := n.(type) {
			case *cc.AssignmentExpression:
				if x.Case != cc.AssignmentExpressionCond {
					lhs = x.UnaryExpression
				}
			case *cc.PostfixExpression:
				if x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec {
					lhs = x.PostfixExpression
				}
			case *cc.UnaryExpression:
				if x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec {
					lhs = x.UnaryExpression
				}
			}
			if lhs == nil {
				return true
			}
			p, ok := unparen(lhs).(*cc.PrimaryExpression)
			if !ok || p.Case != cc.PrimaryExpressionIdent {
				return true
			}
			d, ok := p.ResolvedTo().(*cc.Declarator)
			if !ok || d.Type().Kind() != cc.Ptr {
				return true
			}
			global := !d.IsParam() && (d.IsStatic() || d.Linkage() != cc.None)
			if !set[n] || (global && !main) {
				h.moved[d] = true
			}
			return true
		})
	}
}
