// Buffers at their real size: the collapse law of docs/deviations.md,
// entry 15. This file finds the buffers the law applies to; buffer_plan.go
// computes what is kept of them and rewrites the translation.
//
// A buffer qualifies when it is an array of integers (symmetric or
// private) whose every use is one of the forms below, and nothing else
// names it (a pointer to it, an atomic on an element, an element in a
// guard, an index from a variable, a call of a function of the file...):
//
//   - a put or get (blocking or nbi, typed, sized or putmem/getmem) of a
//     constant count whose source and destination are both such buffers,
//     at the same constant offset (a, &a[k], a + k);
//   - a canonical loop `for (i = 0; i < C; i++)` or `for (i = C-1; i >= 0;
//     i--)` whose body is one statement, `a[i] = v` or `a[i] = b[i]` or a
//     printf of elements `a[i]` and of values that read no memory, and
//     whose counter is used nowhere else;
//   - a constant index a[k], printed or assigned a value that reads no
//     memory;
//   - its initializer.
//
// The values stored (v above, the initializer) must read no memory and be
// unable to fail: a constant, a local, the loop counter plus or minus a
// constant. They are replaced by 0 (the law lets every value stored in the
// buffer be one value, and the initial one changes no state). Values read
// go only to printing or to such buffers, so no guard, address, rank,
// atomic or exit code sees them. Buffers coupled by a copy or by one loop
// are shrunk together, with the same kept indices. Anything not
// recognised keeps the buffer at its size: exact or refused.

package cfront

import (
	"reflect"
	"strings"

	"modernc.org/cc/v4"
)

// bufCand is an array that may qualify.
type bufCand struct {
	d      *cc.Declarator
	size   int64 // cells
	elem   int64
	sym    bool // symmetric: global or static
	bad    bool
	alloc  *bufAlloc // a heap buffer's allocation (buffer_heap.go)
	block  *bufBlock // a buffer of npes blocks of size cells (buffer_block.go)
	parent *bufCand  // union-find of buffers shrunk together
}

func (c *bufCand) root() *bufCand {
	for c.parent != nil {
		c = c.parent
	}
	return c
}

// bufAccess is one recognised command (or block) on buffers: cells
// lo..hi-1 of each of bufs, and the nodes of the C program whose constant
// the shrinking rewrites.
type bufAccess struct {
	bufs   []*bufCand
	lo, hi int64
	bound  cc.ExpressionNode   // loop bound C of i < C: new hi
	last   cc.ExpressionNode   // descending loop's C-1: new hi - 1
	count  cc.ExpressionNode   // API count: new cells * elem / unit
	unit   int64               // bytes per count unit
	offs   []cc.ExpressionNode // constant offsets and indices: new lo
	zeros  []cc.ExpressionNode // values stored: 0
	loop   *bufLoop
	isInit bool
}

// bufLoop is a recognised loop, valid if its counter is used nowhere else.
type bufLoop struct {
	counter *cc.Declarator
	uses    int
	stmt    *cc.IterationStatement
}

// bufAnalysis is the state of the search.
type bufAnalysis struct {
	cands   map[*cc.Declarator]*bufCand
	order   []*bufCand
	globals map[*cc.Declarator]bool
	uses    map[*cc.Declarator]int
	accs    []*bufAccess
	seen    map[cc.Node]bool
	dead    *deadPlan                  // dead checks and assignments: their loads are uses (tailcheck_buf.go)
	allocs  map[cc.ExpressionNode]bool // allocations by assignment (buffer_assign.go)
	facts   *blockFacts                // locals the block forms read (buffer_block.go)
}

// analyseBuffers finds the qualifying buffers of the program.
func analyseBuffers(ast *cc.AST) *bufAnalysis { return analyseBuffersWith(ast, nil) }

// analyseBuffersWith is analyseBuffers with the dead checks of dead.
func analyseBuffersWith(ast *cc.AST, dead *deadPlan) *bufAnalysis {
	a := &bufAnalysis{cands: map[*cc.Declarator]*bufCand{}, globals: map[*cc.Declarator]bool{},
		uses: map[*cc.Declarator]int{}, seen: map[cc.Node]bool{}, dead: dead}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ours(ed.Position().Filename) {
			continue
		}
		countUses(ed, a.uses)
		if ed.Case == cc.ExternalDeclarationDecl && ed.Declaration != nil {
			for il := ed.Declaration.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
				if il.InitDeclarator != nil && il.InitDeclarator.Declarator != nil {
					a.globals[il.InitDeclarator.Declarator] = true
				}
			}
		}
	}
	a.blockFactsOf(ast)            // buffer_block.go
	a.allocs = a.assignedHeap(ast) // buffer_assign.go
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		if ed := l.ExternalDeclaration; ed != nil && !ours(ed.Position().Filename) {
			a.walk(ed)
		}
	}
	inLoops := map[*cc.Declarator]int{} // a counter's uses by the loops it counts
	for _, acc := range a.accs {
		if acc.loop != nil {
			inLoops[acc.loop.counter] += acc.loop.uses
		}
	}
	other := a.otherLoops(ast) // buffer_assign.go
	for _, acc := range a.accs {
		if acc.loop != nil && a.uses[acc.loop.counter] != inLoops[acc.loop.counter]+other[acc.loop.counter] {
			for _, b := range acc.bufs {
				b.bad = true
			}
		}
	}
	return a
}

// bufChildren calls f on each syntactic child of n.
func bufChildren(n cc.Node, f func(cc.Node)) {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	v = v.Elem()
	ty := v.Type()
	for i := 0; i < v.NumField(); i++ {
		if !ty.Field(i).IsExported() {
			continue
		}
		fv := v.Field(i)
		if (fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface) && !fv.IsNil() {
			if c, ok := fv.Interface().(cc.Node); ok {
				f(c)
			}
		}
	}
}

// countUses counts the occurrences of every declarator in n.
func countUses(n cc.Node, uses map[*cc.Declarator]int) {
	if d := identDecl(n); d != nil {
		uses[d]++
	}
	bufChildren(n, func(c cc.Node) { countUses(c, uses) })
}

// identDecl is the declarator an identifier expression names, or nil.
func identDecl(n cc.Node) *cc.Declarator {
	p, ok := n.(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	d, _ := p.ResolvedTo().(*cc.Declarator)
	return d
}

// walk visits n: recognised forms record accesses; a candidate named
// anywhere else is disqualified.
func (a *bufAnalysis) walk(n cc.Node) {
	if n == nil || a.seen[n] {
		return
	}
	a.seen[n] = true
	if e, ok := n.(cc.ExpressionNode); ok {
		if _, ok := constValue(e); ok && !effects(e) {
			return // sizeof a: cc's value, which the shrinking leaves alone
		}
	}
	switch x := n.(type) {
	case *cc.PrimaryExpression:
		if c := a.cands[identDecl(x)]; c != nil {
			c.bad = true
		}
	case *cc.InitDeclarator:
		if a.declare(x) {
			return
		}
	case *cc.IterationStatement:
		if a.loop(x) {
			return
		}
	case *cc.ExpressionStatement:
		if x.ExpressionList != nil && a.stmt(single(x.ExpressionList)) {
			return
		}
	case *cc.SelectionStatement:
		if a.deadStmt(x, nil, nil) { // tailcheck_buf.go
			return
		}
		if x.Case != cc.SelectionStatementSwitch && a.nullTest(x.ExpressionList) { // buffer_assign.go
			a.walk(x.Statement)
			a.walk(x.Statement2)
			return
		}
	}
	bufChildren(n, a.walk)
}

// single is e without a one-element expression list around it.
func single(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		l, ok := e.(*cc.ExpressionList)
		if !ok || l.ExpressionList != nil {
			return unparen(e)
		}
		e = l.AssignmentExpression
	}
}

// declare registers an array declarator as a candidate; its initializer
// is an access (private) or nothing (symmetric: stores before the start,
// on no cycle, of values replaced by 0). It reports whether n is handled.
func (a *bufAnalysis) declare(n *cc.InitDeclarator) bool {
	d := n.Declarator
	if d == nil || d.IsExtern() || d.IsThreadLocal() || d.IsAtomic() || strings.HasPrefix(d.Name(), "__") {
		return false
	}
	if a.heapCand(d, n.Initializer) {
		return true
	}
	at, ok := d.Type().(*cc.ArrayType)
	if !ok || at.IsVLA() || at.Len() <= 1 || !cc.IsIntegerType(at.Elem()) {
		return false
	}
	c := &bufCand{d: d, size: at.Len(), elem: at.Elem().Size(), sym: a.globals[d] || d.IsStatic()}
	a.cands[d] = c
	a.order = append(a.order, c)
	if n.Initializer == nil {
		return true
	}
	var leaves []cc.ExpressionNode
	initLeafList(n.Initializer, &leaves)
	for _, l := range leaves {
		if !c.sym && !a.storable(l, nil) {
			c.bad = true
		}
		a.walk(l)
	}
	if !c.sym {
		a.accs = append(a.accs, &bufAccess{bufs: []*bufCand{c}, lo: 0, hi: c.size, isInit: true})
	}
	return true
}

func initLeafList(in *cc.Initializer, out *[]cc.ExpressionNode) {
	switch in.Case {
	case cc.InitializerExpr:
		*out = append(*out, in.AssignmentExpression)
	case cc.InitializerInitList:
		for l := in.InitializerList; l != nil; l = l.InitializerList {
			if l.Initializer != nil {
				initLeafList(l.Initializer, out)
			}
		}
	}
}

// local reports whether d is a plain local the translation keeps in a
// register or substitutes: an integer, not static, not global, address
// not taken.
func (a *bufAnalysis) local(d *cc.Declarator) bool {
	return d != nil && !a.globals[d] && !d.IsStatic() && !d.IsExtern() && !d.AddressTaken() &&
		d.Type() != nil && cc.IsIntegerType(d.Type()) && a.cands[d] == nil
}

// storable reports whether e, a value stored into a buffer, reads no
// memory and cannot fail, so that replacing it by 0 drops nothing but
// its value: a constant, a local, the counter i (if not nil) plus or minus
// a constant.
func (a *bufAnalysis) storable(e cc.ExpressionNode, i *cc.Declarator) bool {
	e = unparen(e)
	if _, ok := constValue(e); ok {
		return true
	}
	if d := identDecl(e); d != nil {
		return a.local(d)
	}
	switch x := e.(type) {
	case *cc.CastExpression:
		return x.Case == cc.CastExpressionCast && cc.IsIntegerType(x.Type()) && a.storable(x.CastExpression, i)
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul || i == nil {
			break
		}
		if _, c1 := constValue(x.MultiplicativeExpression); c1 && identDecl(unparen(x.AdditiveExpression)) == i {
			return true
		}
	case *cc.PostfixExpression:
		return rankCall(x)
	}
	_, _, ok := a.rankArith(e, nil, 0) // buffer_block.go: rank arithmetic
	return ok
}

// rankCall is shmem_my_pe() or shmem_n_pes().
func rankCall(x *cc.PostfixExpression) bool {
	if x.Case != cc.PostfixExpressionCall || x.ArgumentExpressionList != nil {
		return false
	}
	n := calleeName(x)
	return n == "shmem_my_pe" || n == "shmem_n_pes"
}

// calleeName is the name of the function x calls, "" if not a name.
func calleeName(x *cc.PostfixExpression) string {
	p, ok := unparen(generic(x.PostfixExpression)).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return ""
	}
	return p.Token.SrcStr()
}

// elemRef is a[k] with a a candidate: the candidate and the index node.
func (a *bufAnalysis) elemRef(e cc.ExpressionNode) (*bufCand, cc.ExpressionNode) {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionIndex {
		return nil, nil
	}
	c := a.cands[identDecl(unparen(x.PostfixExpression))]
	if c == nil {
		return nil, nil
	}
	if c.block != nil { // buffer_block.go: the index within the block
		rest, ok := a.blockRef(c, x)
		if !ok {
			return nil, nil
		}
		return c, rest
	}
	return c, x.ExpressionList
}

// idxConst is the constant of an index within a block: 0 for none.
func idxConst(idx cc.ExpressionNode) (int64, bool) {
	if idx == nil {
		return 0, true
	}
	return constValue(idx)
}

// idxNodes is the index node to rewrite, if there is one.
func idxNodes(idx cc.ExpressionNode) []cc.ExpressionNode {
	if idx == nil {
		return nil
	}
	return []cc.ExpressionNode{idx}
}

// stmt recognises an expression statement: a put or get between
// buffers, a printf of constant-index elements, a[k] = v.
func (a *bufAnalysis) stmt(e cc.ExpressionNode) bool {
	if a.deadStmt(e, nil, nil) { // tailcheck_buf.go
		return true
	}
	if a.allocs[e] { // buffer_assign.go
		return true
	}
	switch x := e.(type) {
	case *cc.PostfixExpression:
		if x.Case != cc.PostfixExpressionCall {
			return false
		}
		name := calleeName(x)
		if name == "printf" || name == "fprintf" {
			return a.printf(x, nil, nil)
		}
		if strings.HasPrefix(name, "shmem_") && name != "shmem_free" {
			return a.transfer(x, name)
		}
		if name == "memcpy" || name == "memmove" || name == "memset" {
			return a.memory(x, name)
		}
		if name == "free" || name == "shmem_free" {
			return a.freeStmt(x, name)
		}
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionAssign {
			return false
		}
		c, idx := a.elemRef(x.UnaryExpression)
		k, ok := idxConst(idx)
		if c == nil || !ok || k < 0 || k >= c.size || !a.storable(x.AssignmentExpression, nil) {
			return false
		}
		a.accs = append(a.accs, &bufAccess{bufs: []*bufCand{c}, lo: k, hi: k + 1,
			offs: idxNodes(idx), zeros: []cc.ExpressionNode{x.AssignmentExpression}})
		a.walk(x.AssignmentExpression)
		return true
	}
	return false
}

func callArgs(x *cc.PostfixExpression) []cc.ExpressionNode {
	var args []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	return args
}

// effects reports whether e, outside the operands of sizeof and
// _Alignof, assigns, increments or calls: cc gives a value to
// "a[k] = 1" (its right side's) and to "(a[k] = 1, 2)", and such a node
// must be walked, or a buffer it names is shrunk unseen.
func effects(n cc.Node) bool {
	switch x := n.(type) {
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			return true
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionCall, cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			return true
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			return true
		case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
			return false // not evaluated
		}
	}
	found := false
	bufChildren(n, func(c cc.Node) { found = found || effects(c) })
	return found
}
