// Cells of static locals whose lifetimes are separated by barriers: a
// test program made of one macro expanded per type and operation (a
// `do { static T remote; remote = 0; shmem_barrier_all(); …atomics on
// &remote…; shmem_barrier_all(); check remote; } while (0)` per case)
// declares a symmetric object per expansion, beyond the checker's 60
// addresses, although no two of them are ever in use at once. A static
// local of main takes the cell of earlier ones when the program itself
// separates them by barrier_all, as a linker could overlay them.
//
// The plan (planStatics, before the translation) cuts main's body into
// points: the block items at its top level, plain blocks and
// `do { … } while (0)` bodies opened (when no break or continue leaves
// them early). With no goto in main, every PE runs the points in this
// order, each at most once; a PE that stops early takes no barrier again,
// so no PE passes one after that. A static local x is a candidate when it
// is an integer scalar with a constant initialiser whose address is only
// given to library and OpenSHMEM calls (never stored, never passed to
// the file's own functions): then it is accessed only at the points that
// name it. A use inside a call's arguments counts as remote (an operation
// that may run asynchronously, or on another PE's copy); any other as a
// local load or store of the PE's own copy.
//
// A later candidate y takes the cell of the earlier ones x₁…xₖ (a slot)
// at a point g (its reset) when
//   - every point naming an xᵢ (its declaration included) is before g;
//   - a `shmem_barrier_all();` point lies after the last remote use of the
//     xᵢ and before g, and one lies at or after g and before the first
//     remote use of y;
//   - g is at or before the first use of y.
// At g every PE stores y's initial value into the cell, unless the point
// g is itself `y = e;` with e not naming y (then the value before is
// never read).
//
// Why the translation stays exact. The translation checks, or drops the
// plan and translates again without it, that every barrier of the
// program is such a point (so the k-th barrier step of the run is the
// k-th barrier point of every PE) and that no operation on the cell uses
// a context other than the default one (so barrier_all's quiet completes
// it). Then, on the copy of any PE p, every access of an xᵢ happens
// before p's reset in every run (p's own by program order; another PE's
// is complete before its barrier, which is p's barrier before g), and
// the reset before every access of y (p's own by program order; another
// PE's follows its barrier at or after g, the same step as p's). These
// orders are program order and barriers, which every computation
// respects, so each value read is the one of the program with separate
// objects (y starts with its initial value) and the computations of the
// two programs correspond one to one. Every conflict edge the sharing
// adds (between an xᵢ access and a y access, or with the reset) goes the
// way of a path of program order and barrier edges that exists without
// it, so it closes no happens-before cycle that was not there: the
// verdicts are the same.

package cfront

import (
	"fmt"
	"regexp"
	"strings"

	"modernc.org/cc/v4"
)

// staticPlan is which static locals of main share cells, and the resets.
type staticPlan struct {
	points  map[*cc.BlockItem]int
	items   []*cc.BlockItem
	barrier []bool                            // items[i] is `shmem_barrier_all();`
	share   map[*cc.Declarator]*cc.Declarator // y → the slot's first object
	resets  map[int][]staticReset             // before point g
	cur     int                               // the point being translated, -1 none
	cells   []string                          // the .pgas names of shared cells
	bad     string                            // why the translation must drop the plan
	done    bool                              // main is translated: checks end
	emitted map[int]bool                      // barrier points that emitted their barrier
}

// staticReset stores val into the cell of slot before a point.
type staticReset struct {
	slot, y *cc.Declarator
	val     int64
}

// staticUse is what the plan knows of a candidate.
type staticUse struct {
	decl, first, last, firstR, lastR int
	val                              int64
}

const never = 1 << 30

// planStatics makes the plan for main, nil when nothing is shared.
func planStatics(funcs map[string]*cc.FunctionDefinition) (p *staticPlan) {
	defer func() {
		if recover() != nil {
			p = nil // an AST shape the plan does not know: no sharing
		}
	}()
	main := funcs["main"]
	if main == nil || hasLabel(main) {
		return nil
	}
	p = &staticPlan{points: map[*cc.BlockItem]int{}, cur: -1,
		share: map[*cc.Declarator]*cc.Declarator{}, resets: map[int][]staticReset{}}
	p.flatten(main.CompoundStatement)
	if funcs["shmem_barrier_all"] != nil {
		return nil // the file's own: not the API's quiet and barrier
	}
	uses, order := p.uses(funcs)
	type slot struct {
		head        *cc.Declarator
		last, lastR int
	}
	var slots []*slot
	for _, y := range order {
		u := uses[y]
		if u == nil {
			continue
		}
		placed := false
		for _, s := range slots {
			g, ok := p.gap(s.last, s.lastR, u)
			if !ok {
				continue
			}
			p.share[y] = s.head
			if g >= 0 && !p.plainStore(g, y) {
				p.resets[g] = append(p.resets[g], staticReset{slot: s.head, y: y, val: u.val})
			}
			s.last, s.lastR = max(s.last, u.last), max(s.lastR, u.lastR)
			placed = true
			break
		}
		if !placed {
			slots = append(slots, &slot{head: y, last: u.last, lastR: u.lastR})
		}
	}
	if len(p.share) == 0 {
		return nil
	}
	return p
}

// gap finds the point before which y can take a slot whose objects are
// named up to point last and used remotely up to lastR: -1 when y is
// never used (no reset needed).
func (p *staticPlan) gap(last, lastR int, u *staticUse) (int, bool) {
	if u.first == never {
		return -1, u.decl > last
	}
	for g := u.first; g > last; g-- {
		if lastR >= 0 && !p.barrierIn(lastR+1, g) {
			continue
		}
		if u.firstR != never && !p.barrierIn(g, u.firstR) {
			continue
		}
		return g, true
	}
	return 0, false
}

// barrierIn reports a barrier point in lo..hi-1.
func (p *staticPlan) barrierIn(lo, hi int) bool {
	for i := max(lo, 0); i < hi && i < len(p.barrier); i++ {
		if p.barrier[i] {
			return true
		}
	}
	return false
}

// flatten numbers the points of cs, opening plain blocks and
// do { … } while (0) bodies that nothing leaves early.
func (p *staticPlan) flatten(cs *cc.CompoundStatement) {
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		it := l.BlockItem
		if it.Case == cc.BlockItemStmt {
			if body := openBody(it.Statement); body != nil {
				p.flatten(body)
				continue
			}
		}
		p.points[it] = len(p.items)
		p.items = append(p.items, it)
		p.barrier = append(p.barrier, isBarrierAll(it))
	}
}

// openBody is the body of a plain block or of do { … } while (0) with no
// break or continue of its own.
func openBody(s *cc.Statement) *cc.CompoundStatement {
	switch s.Case {
	case cc.StatementCompound:
		return s.CompoundStatement
	case cc.StatementIteration:
		it := s.IterationStatement
		if it.Case != cc.IterationStatementDo || it.Statement.Case != cc.StatementCompound {
			return nil
		}
		if v, ok := constValue(it.ExpressionList); !ok || v != 0 || leavesEarly(it.Statement, true) {
			return nil
		}
		return it.Statement.CompoundStatement
	}
	return nil
}

// leavesEarly reports a break (when brk) or continue in n that is not
// inside a nested loop (or, for break, a switch).
func leavesEarly(n cc.Node, brk bool) bool {
	found := false
	walk(n, func(m cc.Node) bool {
		switch x := m.(type) {
		case *cc.IterationStatement:
			return false
		case *cc.SelectionStatement:
			if x.Case == cc.SelectionStatementSwitch && brk {
				found = found || leavesEarly(x.Statement, false)
				return false
			}
		case *cc.JumpStatement:
			if x.Case == cc.JumpStatementContinue || (brk && x.Case == cc.JumpStatementBreak) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isBarrierAll: the item is the statement shmem_barrier_all();.
func isBarrierAll(it *cc.BlockItem) bool {
	if it.Case != cc.BlockItemStmt || it.Statement.Case != cc.StatementExpr {
		return false
	}
	e := it.Statement.ExpressionStatement.ExpressionList
	x, ok := unparen(e).(*cc.PostfixExpression)
	return ok && x.Case == cc.PostfixExpressionCall && x.ArgumentExpressionList == nil && calleeName(x) == "shmem_barrier_all"
}

func hasLabel(fd *cc.FunctionDefinition) bool {
	found := false
	walk(fd.CompoundStatement, func(n cc.Node) bool {
		if l, ok := n.(*cc.LabeledStatement); ok && l.Case == cc.LabeledStatementLabel {
			found = true
		}
		return !found
	})
	return found
}

// sharedStatic gives the static local d the cell of its slot, if the
// plan says so.
func (t *translator) sharedStatic(d *cc.Declarator, name string, elem int64) bool {
	if t.sr == nil || t.sr.share[d] == nil {
		return false
	}
	xe := t.global[t.sr.share[d]]
	if xe == nil || xe.kind != kSym || xe.length != 0 {
		t.sr.bad = "the cell of " + name + "'s slot is not declared"
		return false
	}
	t.global[d] = &entity{kind: kSym, name: xe.name, elem: elem}
	t.shareName(xe.name, name) // reuse.go
	t.sr.cells = append(t.sr.cells, xe.name)
	return true
}

// staticPoint notes that the point it, if it is one, is being
// translated, and stores first the initial values the plan resets
// there. The function returned ends the point.
func (t *translator) staticPoint(it *cc.BlockItem) func() {
	if t.sr == nil {
		return func() {}
	}
	g, ok := t.sr.points[it]
	if !ok {
		return func() {}
	}
	prev := t.sr.cur
	t.sr.cur = g
	for _, r := range t.sr.resets[g] {
		xe := t.global[r.slot]
		if xe == nil {
			t.sr.bad = "a reset before its slot's declaration"
			continue
		}
		old := t.at(r.y)
		t.cur.Text = fmt.Sprintf("%s = %d (the initial value of static %s, whose cell it shares; docs/shmem.md)", r.y.Name(), r.val, r.y.Name())
		if r.val != 0 {
			t.constant(r.y, r.val)
		}
		t.emit("mem[%s] <- %d", xe.name, r.val)
		t.cur = old
	}
	return func() { t.sr.cur = prev }
}

// staticBarrier checks a barrier emitted while main is translated: the
// plan holds only if every barrier is a barrier_all point.
func (t *translator) staticBarrier(line string) {
	if t.sr == nil || t.sr.done || line != "barrier" {
		return
	}
	if t.sr.cur < 0 || !t.sr.barrier[t.sr.cur] {
		t.sr.bad = "a barrier outside a top-level shmem_barrier_all();"
		return
	}
	if t.sr.emitted == nil {
		t.sr.emitted = map[int]bool{}
	}
	t.sr.emitted[t.sr.cur] = true
}

// staticsDone ends the plan's checks once main is translated: no
// operation on a shared cell may use a context other than the default
// one, whose quiet barrier_all is.
func (t *translator) staticsDone() {
	if t.sr == nil {
		return
	}
	t.sr.done = true
	for i, b := range t.sr.barrier {
		if b && !t.sr.emitted[i] && len(t.errs) == 0 {
			t.sr.bad = "a shmem_barrier_all(); point that is no barrier (a function of the file of that name?)"
		}
	}
	var others []string
	for _, c := range t.ctxs {
		if c != t.defctx {
			others = append(others, regexp.QuoteMeta(c))
		}
	}
	if len(others) == 0 || len(t.sr.cells) == 0 {
		return
	}
	ctx := regexp.MustCompile(`\b(` + strings.Join(others, "|") + `)\b`)
	var cells []string
	for _, c := range t.sr.cells {
		cells = append(cells, regexp.QuoteMeta(c))
	}
	cell := regexp.MustCompile(`\b(` + strings.Join(cells, "|") + `)\b`)
	for _, l := range t.out {
		if cell.MatchString(l) && ctx.MatchString(l) {
			t.sr.bad = "an operation on a shared cell on another context: " + strings.TrimSpace(l)
			return
		}
	}
}
