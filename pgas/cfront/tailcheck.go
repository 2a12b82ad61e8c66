// Dead checks: the verification at the end of a test program
// (docs/deviations.md, entry 18). A test compares what it received with
// what it expected, then prints, counts failures in a local, or stops
// (exit, abort, shmem_global_exit, return). When nothing but printing, such
// counters and the exit status sees the outcome of a comparison, the
// values compared reach nothing that orders memory: the loads of the
// comparison stay (they are events), the comparison and its branch go.
// Then the values of the buffers those loads read are dead, and the
// collapse law (buffer.go) applies to them.
//
// The analysis works on main only:
//
//   - a dead local is a plain integer local of main whose every read is in
//     a dead check's condition, in the right side of an assignment to a
//     dead local, or in main's return value or a stop's status (the
//     greatest such set: `failed`, `errors`, `total_sum`);
//   - a dead check is `if (C) B [else B2]` whose condition only loads and
//     computes (no call but shmem_my_pe/shmem_n_pes, no division by a
//     non-constant, no short circuit over a load) and whose branches only
//     print such values, assign dead locals, and stop; the loads of a
//     branch must re-read the one non-private cell the condition reads
//     (entry 18, clause (b)), and a branch that stops must be in a final
//     check: an item of main's outermost block after which only frees,
//     finalize, barriers, returns and checks without loads come (clause (a));
//   - a dead assignment is `v = e`, `v op= e`, `v++` with v dead and e
//     as a condition.
//
// A dead check is translated as the loads of C; a dead assignment as the
// loads of e. Everything else is translated as before.

package cfront

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// deadPlan is what the analysis found.
type deadPlan struct {
	locals map[*cc.Declarator]bool
	checks map[*cc.SelectionStatement]bool
	assign map[cc.ExpressionNode]bool // the statement's expression
	used   []pgas.Pos                 // the dead checks translated
	// private arrays: local arrays of main touched only by main's own
	// loads and stores and read by puts (never written by RMA)
	private map[*cc.Declarator]bool
}

// deadAnalysis is the state of the fixpoint.
type deadAnalysis struct {
	main    *cc.FunctionDefinition
	locals  map[*cc.Declarator]bool
	private map[*cc.Declarator]bool
	final   map[*cc.SelectionStatement]bool // items of main's outer block that may stop
}

// analyseDead finds the dead locals, checks and assignments of main.
func analyseDead(ast *cc.AST) *deadPlan {
	main := mainDef(ast)
	if main == nil || main.CompoundStatement == nil {
		return nil
	}
	d := &deadAnalysis{main: main, locals: map[*cc.Declarator]bool{}, private: map[*cc.Declarator]bool{}}
	d.candidates(main)
	d.final = d.finalChecks(main.CompoundStatement)
	for {
		live := map[*cc.Declarator]bool{}
		d.uses(main.CompoundStatement, false, live)
		changed := false
		for v := range live {
			if d.locals[v] {
				delete(d.locals, v)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	p := &deadPlan{locals: d.locals, checks: map[*cc.SelectionStatement]bool{}, assign: map[cc.ExpressionNode]bool{}, private: d.private}
	walk(main.CompoundStatement, func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.SelectionStatement:
			if d.check(x) {
				p.checks[x] = true
			}
		case *cc.ExpressionStatement:
			if x.ExpressionList != nil && d.assignment(single(x.ExpressionList)) {
				p.assign[single(x.ExpressionList)] = true
			}
		}
		return true
	})
	return p
}

// plainLocal is an integer local the translation keeps in a register.
func plainLocal(v *cc.Declarator) bool {
	return v != nil && !v.IsStatic() && !v.IsExtern() && !v.AddressTaken() && v.Type() != nil &&
		cc.IsIntegerType(v.Type()) && v.Type().Kind() != cc.Array
}

// candidates collects main's plain locals and its private arrays.
func (d *deadAnalysis) candidates(fd *cc.FunctionDefinition) {
	walk(fd.CompoundStatement, func(n cc.Node) bool {
		if x, ok := n.(*cc.Declarator); ok {
			if plainLocal(x) {
				d.locals[x] = true
			}
			if at, ok := x.Type().(*cc.ArrayType); ok && !x.IsStatic() && !x.IsExtern() && cc.IsIntegerType(at.Elem()) {
				d.private[x] = true
			}
		}
		return true
	})
	d.priv(fd.CompoundStatement)
}

// priv removes from the private arrays those named under n anywhere but
// in a subscript or as the source of a put or memcpy: such a name may let
// RMA write the array.
func (d *deadAnalysis) priv(n cc.Node) {
	switch x := n.(type) {
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionIndex && d.private[identDecl(unparen(x.PostfixExpression))] {
			d.priv(x.ExpressionList)
			return
		}
		if x.Case == cc.PostfixExpressionCall {
			name := calleeName(x)
			for i, a := range callArgs(x) {
				src := i == 1 && (strings.HasPrefix(name, "shmem_") && strings.Contains(name, "put") || name == "memcpy")
				if !src || !d.private[identDecl(unparen(a))] {
					d.priv(a)
				}
			}
			return
		}
	case *cc.PrimaryExpression:
		if v := identDecl(x); v != nil {
			delete(d.private, v)
		}
	}
	bufChildren(n, d.priv)
}

// uses records in live the locals read in a live context under n; dead is
// whether n's value is dead (a dead check's condition and so on).
func (d *deadAnalysis) uses(n cc.Node, dead bool, live map[*cc.Declarator]bool) {
	if n == nil {
		return
	}
	switch x := n.(type) {
	case *cc.SelectionStatement:
		if d.check(x) {
			d.deadExprUses(x.ExpressionList, live)
			return // the branches are dropped
		}
	case *cc.ExpressionStatement:
		if x.ExpressionList != nil {
			if e := single(x.ExpressionList); d.assignment(e) {
				d.deadExprUses(assignRHS(e), live)
				return
			}
		}
	case *cc.JumpStatement:
		if x.Case == cc.JumpStatementReturn {
			return // main's value is not evaluated (stmt.go, jump)
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionCall && stopCall(calleeName(x)) && allNoLoads(callArgs(x)) {
			return // the status of a stop orders nothing (its loads would: then it is live)
		}
	}
	if v := identDecl(n); v != nil && !dead {
		live[v] = true
	}
	bufChildren(n, func(c cc.Node) { d.uses(c, dead, live) })
}

// deadExprUses: the locals of a dead expression are dead, but those of
// its addresses (indices) are live.
func (d *deadAnalysis) deadExprUses(e cc.Node, live map[*cc.Declarator]bool) {
	walk(e, func(n cc.Node) bool {
		if x, ok := n.(*cc.PostfixExpression); ok && x.Case == cc.PostfixExpressionIndex {
			d.uses(x.ExpressionList, false, live)
			return false
		}
		if x, ok := n.(*cc.UnaryExpression); ok && x.Case == cc.UnaryExpressionDeref {
			d.uses(x.CastExpression, false, live)
			return false
		}
		return true
	})
}

func allNoLoads(es []cc.ExpressionNode) bool {
	for _, e := range es {
		if !noLoads(e) {
			return false
		}
	}
	return true
}

func stopCall(name string) bool {
	return name == "exit" || name == "_Exit" || name == "abort" || name == "shmem_global_exit"
}

// assignRHS is the value an assignment, compound assignment or
// increment reads besides its target (nil for an increment).
func assignRHS(e cc.ExpressionNode) cc.ExpressionNode {
	if x, ok := e.(*cc.AssignmentExpression); ok {
		return x.AssignmentExpression
	}
	return nil
}

// assignTarget is the local an assignment statement writes, if any.
func assignTarget(e cc.ExpressionNode) *cc.Declarator {
	switch x := e.(type) {
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			return identDecl(unparen(x.UnaryExpression))
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec {
			return identDecl(unparen(x.PostfixExpression))
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec {
			return identDecl(unparen(x.UnaryExpression))
		}
	}
	return nil
}

// assignment reports whether e (a statement's expression) writes a dead
// local a value that only loads and computes.
func (d *deadAnalysis) assignment(e cc.ExpressionNode) bool {
	v := assignTarget(e)
	if v == nil || !d.locals[v] {
		return false
	}
	if x, ok := e.(*cc.AssignmentExpression); ok && (x.Case == cc.AssignmentExpressionDiv || x.Case == cc.AssignmentExpressionMod) {
		return false // a division by zero is the program's error
	}
	rhs := assignRHS(e)
	return rhs == nil || loadOnlyAt(rhs, true)
}

// Hooks of the translation.

// assumeDeadChecks is the assumption ID of a translation that used the law.
const assumeDeadChecks = "dead-checks"

// deadOf is the plan of the translation, nil when the law is off.
func (t *translator) deadOf() *deadPlan {
	if t.buf == nil {
		return nil
	}
	return t.buf.dead
}

// deadCheck translates s if it is a dead check: the loads of its
// condition, in order; the comparison and the branches are left out.
func (t *translator) deadCheck(s *cc.SelectionStatement) bool {
	p := t.deadOf()
	if p == nil || !p.checks[s] {
		return false
	}
	t.deadLoads(s.ExpressionList)
	p.used = append(p.used, t.pos(s))
	return true
}

// deadAssign translates e, a statement's expression, if it assigns a dead
// local: the loads of its right side.
func (t *translator) deadAssign(e cc.ExpressionNode) bool {
	p := t.deadOf()
	if p == nil || !p.assign[single(e)] {
		return false
	}
	if rhs := assignRHS(single(e)); rhs != nil {
		t.deadLoads(rhs)
	}
	return true
}

// deadLoads emits the loads of a loadOnly expression into temporaries
// nothing reads.
func (t *translator) deadLoads(e cc.ExpressionNode) {
	for _, l := range loadLeaves(e) {
		old := t.at(l)
		t.value(l)
		t.cur = old
	}
}

// deadAssumptions says that the law was used.
func (p *deadPlan) assumptions() []pgas.Assumption {
	if p == nil || len(p.used) == 0 {
		return nil
	}
	return []pgas.Assumption{{ID: assumeDeadChecks, Text: "dead checks: the outcome of a comparison that only prints, counts failures in a local that nothing else reads, or stops at the end is not evaluated; its loads stay (docs/deviations.md, entry 18)"}}
}

// warnings is one line per file, at the first dead check translated.
func (p *deadPlan) warnings() []pgas.Diag {
	if p == nil || len(p.used) == 0 {
		return nil
	}
	what := "this check of received values only prints, counts failures or stops at the end: its loads are kept, its comparison is not evaluated"
	if len(p.used) > 1 {
		what = fmt.Sprintf("%d checks of received values (this one first) only print, count failures or stop at the end: their loads are kept, their comparisons are not evaluated", len(p.used))
	}
	return []pgas.Diag{{Pos: p.used[0], Msg: what + " (dead-check law, docs/deviations.md entry 18)"}}
}

// mainDef is the definition of main in ast (the last one, as the file's
// own order gives them), or nil.
func mainDef(ast *cc.AST) *cc.FunctionDefinition {
	var main *cc.FunctionDefinition
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed != nil && ed.Case == cc.ExternalDeclarationFuncDef && ed.FunctionDefinition != nil &&
			ed.FunctionDefinition.Declarator != nil && ed.FunctionDefinition.Declarator.Name() == "main" {
			main = ed.FunctionDefinition
		}
	}
	return main
}
