// The forms of buffer.go: canonical loops, printf, put and get.

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// loop recognises `for (i = 0; i < C; i++) S` and `for (i = C-1; i >= 0;
// i--) S` (i declared there or a plain local; i += 1 and ++i too) whose
// body S is one statement on elements a[i].
func (a *bufAnalysis) loop(s *cc.IterationStatement) bool {
	var i *cc.Declarator
	var init, cond, step cc.ExpressionNode
	switch s.Case {
	case cc.IterationStatementForDecl:
		d := s.Declaration
		if d == nil || d.InitDeclaratorList == nil || d.InitDeclaratorList.InitDeclaratorList != nil {
			return false
		}
		id := d.InitDeclaratorList.InitDeclarator
		if id == nil || id.Initializer == nil || id.Initializer.Case != cc.InitializerExpr {
			return false
		}
		i, init = id.Declarator, id.Initializer.AssignmentExpression
		cond, step = s.ExpressionList, s.ExpressionList2
	case cc.IterationStatementFor:
		if s.ExpressionList == nil {
			return false
		}
		as, ok := single(s.ExpressionList).(*cc.AssignmentExpression)
		if !ok || as.Case != cc.AssignmentExpressionAssign {
			return false
		}
		i, init = identDecl(unparen(as.UnaryExpression)), as.AssignmentExpression
		cond, step = s.ExpressionList2, s.ExpressionList3
	default:
		return false
	}
	if !a.local(i) || i.Type().Size() < 4 || cond == nil || step == nil { // a char counter may wrap
		return false
	}
	start, ok := constValue(init)
	if !ok {
		return false
	}
	up, ok := a.stepOf(single(step), i)
	if !ok {
		return false
	}
	acc := &bufAccess{loop: &bufLoop{counter: i, stmt: s}}
	rel, ok := single(cond).(*cc.RelationalExpression)
	if !ok || identDecl(unparen(rel.RelationalExpression)) != i {
		return false
	}
	bound, ok := a.constOf(rel.ShiftExpression) // buffer_block.go: or a local set once
	switch {
	case !ok:
		return false
	case up && start == 0 && rel.Token.SrcStr() == "<" && bound >= 1:
		acc.lo, acc.hi, acc.bound = 0, bound, rel.ShiftExpression
	case !up && start >= 0 && bound == 0 && rel.Token.SrcStr() == ">=":
		acc.lo, acc.hi, acc.last = 0, start+1, init
	default:
		return false
	}
	if !a.body(s.Statement, i, acc) {
		return false
	}
	for _, b := range acc.bufs {
		if acc.hi > b.size {
			return false
		}
	}
	u := map[*cc.Declarator]int{}
	countUses(s, u)
	acc.loop.uses = u[i]
	a.accs = append(a.accs, acc)
	return true
}

// stepOf recognises i++, ++i, i += 1 (up) and their decrements.
func (a *bufAnalysis) stepOf(e cc.ExpressionNode, i *cc.Declarator) (up bool, ok bool) {
	switch x := e.(type) {
	case *cc.PostfixExpression:
		if identDecl(unparen(x.PostfixExpression)) == i {
			return x.Case == cc.PostfixExpressionInc, x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec
		}
	case *cc.UnaryExpression:
		if identDecl(unparen(x.UnaryExpression)) == i {
			return x.Case == cc.UnaryExpressionInc, x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec
		}
	case *cc.AssignmentExpression:
		if v, ok := constValue(x.AssignmentExpression); ok && v == 1 && identDecl(unparen(x.UnaryExpression)) == i {
			return x.Case == cc.AssignmentExpressionAdd, x.Case == cc.AssignmentExpressionAdd || x.Case == cc.AssignmentExpressionSub
		}
	}
	return false, false
}

// body recognises the one statement of a canonical loop: a[i] = v,
// a[i] = b[i], or a printf of elements a[i] and of values reading no
// memory.
func (a *bufAnalysis) body(s *cc.Statement, i *cc.Declarator, acc *bufAccess) bool {
	for s != nil && s.Case == cc.StatementCompound {
		cs := s.CompoundStatement
		if cs == nil || cs.BlockItemList == nil || cs.BlockItemList.BlockItemList != nil {
			return false
		}
		it := cs.BlockItemList.BlockItem
		if it == nil || it.Case != cc.BlockItemStmt {
			return false
		}
		s = it.Statement
	}
	if s != nil && s.Case == cc.StatementSelection && s.SelectionStatement != nil {
		return a.deadStmt(s.SelectionStatement, i, acc) // tailcheck_buf.go
	}
	if s == nil || s.Case != cc.StatementExpr || s.ExpressionStatement == nil || s.ExpressionStatement.ExpressionList == nil {
		return false
	}
	if e := single(s.ExpressionStatement.ExpressionList); a.dead != nil && a.dead.assign[e] {
		return a.deadStmt(e, i, acc)
	}
	switch x := single(s.ExpressionStatement.ExpressionList).(type) {
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionAssign {
			return false
		}
		c, idx := a.elemRef(x.UnaryExpression)
		if c == nil || identDecl(unparen(idx)) != i {
			return false
		}
		acc.bufs = append(acc.bufs, c)
		if src, sidx := a.elemRef(x.AssignmentExpression); src != nil {
			if identDecl(unparen(sidx)) != i || src == c {
				return false
			}
			acc.bufs = append(acc.bufs, src)
			return true
		}
		if _, _, ok := a.rankArith(x.AssignmentExpression, i, acc.hi); !ok && !a.storable(x.AssignmentExpression, i) {
			return false
		}
		acc.zeros = append(acc.zeros, x.AssignmentExpression)
		return true
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionCall {
			if n := calleeName(x); n == "printf" || n == "fprintf" {
				return a.printf(x, i, acc)
			}
		}
	}
	return false
}

// printf recognises printf and fprintf(stdout or stderr): outside a loop
// (acc nil), its constant-index elements are accesses and every other
// argument is visited; in a loop, every argument is an element a[i] or a
// value that reads no memory.
func (a *bufAnalysis) printf(x *cc.PostfixExpression, i *cc.Declarator, acc *bufAccess) bool {
	args := callArgs(x)
	if calleeName(x) == "fprintf" {
		if len(args) == 0 {
			return false
		}
		if p, ok := unparen(args[0]).(*cc.PrimaryExpression); !ok || p.Case != cc.PrimaryExpressionIdent ||
			(p.Token.SrcStr() != "stdout" && p.Token.SrcStr() != "stderr") {
			return false
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return false
	}
	if _, ok := stringConst(args[0]); !ok {
		return false
	}
	args = args[1:]
	var singles []*bufAccess
	for _, e := range args {
		c, idx := a.elemRef(e)
		switch {
		case c != nil && acc != nil && identDecl(unparen(idx)) == i:
			acc.bufs = append(acc.bufs, c)
		case c != nil && acc == nil:
			k, ok := idxConst(idx)
			if !ok || k < 0 || k >= c.size {
				return false
			}
			singles = append(singles, &bufAccess{bufs: []*bufCand{c}, lo: k, hi: k + 1, offs: idxNodes(idx)})
		case acc != nil && !a.eventFree(e, i):
			return false
		}
	}
	if acc != nil && len(acc.bufs) == 0 {
		return false
	}
	a.accs = append(a.accs, singles...)
	if acc == nil {
		for _, e := range args {
			if c, _ := a.elemRef(e); c == nil {
				a.walk(e)
			}
		}
	}
	return true
}

// eventFree reports whether a printed value reads no memory and cannot
// fail: a constant, a string literal, a local, the counter, rank calls.
func (a *bufAnalysis) eventFree(e cc.ExpressionNode, i *cc.Declarator) bool {
	e = unparen(e)
	if _, ok := constValue(e); ok {
		return true
	}
	if _, ok := stringConst(e); ok {
		return true
	}
	if d := identDecl(e); d != nil {
		return d == i || a.local(d)
	}
	if x, ok := e.(*cc.PostfixExpression); ok {
		return rankCall(x)
	}
	if x, ok := e.(*cc.CastExpression); ok && x.Case == cc.CastExpressionCast && cc.IsIntegerType(x.Type()) {
		return a.eventFree(x.CastExpression, i)
	}
	return false
}

// transfer recognises a put or get of a constant count between two
// buffers at one constant offset.
func (a *bufAnalysis) transfer(x *cc.PostfixExpression, name string) bool {
	c := parseShmem(name)
	switch c.op {
	case "put", "put_nbi", "get", "get_nbi", "put_signal", "put_signal_nbi":
	default:
		return false
	}
	args := callArgs(x)
	if c.ctx {
		if len(args) == 0 {
			return false
		}
		args = args[1:]
	}
	var signal []cc.ExpressionNode // a put-with-signal's signal, value, operation: visited
	if strings.HasPrefix(c.op, "put_signal") && len(args) == 7 {
		signal, args = args[3:6], append(args[:3:3], args[6])
	}
	if len(args) != 4 {
		return false
	}
	d, dk, doff := a.bufArg(args[0])
	s, sk, soff := a.bufArg(args[1])
	n, ok := a.constOf(args[2]) // buffer_block.go: or a local set once
	if d == nil || s == nil || !ok || n < 1 || dk != sk || d.elem != s.elem {
		return false
	}
	unit := c.size
	if unit == 0 {
		unit = d.elem
	}
	if (strings.HasPrefix(c.op, "put") && !d.sym) || (strings.HasPrefix(c.op, "get") && !s.sym) {
		return false // the remote side must be symmetric: refused as today
	}
	if unit > d.elem || d.elem%unit != 0 || (n*unit)%d.elem != 0 {
		return false
	}
	cells := n * unit / d.elem
	if dk+cells > d.size || dk+cells > s.size {
		return false
	}
	acc := &bufAccess{bufs: []*bufCand{d, s}, lo: dk, hi: dk + cells, count: args[2], unit: unit}
	for _, o := range []cc.ExpressionNode{doff, soff} {
		if o != nil {
			acc.offs = append(acc.offs, o)
		}
	}
	a.accs = append(a.accs, acc)
	if c.ctx {
		a.walk(callArgs(x)[0])
	}
	for _, e := range signal {
		a.walk(e)
	}
	a.walk(args[3])
	return true
}

// bufArg recognises a, &a[k] and a + k with a a candidate and k a
// constant: the candidate, k and the node of k (nil for a).
func (a *bufAnalysis) bufArg(e cc.ExpressionNode) (*bufCand, int64, cc.ExpressionNode) {
	e = unparen(e)
	if c := a.cands[identDecl(e)]; c != nil {
		return c, 0, nil
	}
	switch x := e.(type) {
	case *cc.UnaryExpression:
		if x.Case != cc.UnaryExpressionAddrof {
			return nil, 0, nil
		}
		c, idx := a.elemRef(x.CastExpression)
		if k, ok := idxConst(idx); c != nil && ok && k >= 0 && k < c.size {
			return c, k, idx
		}
	case *cc.AdditiveExpression:
		if x.Case != cc.AdditiveExpressionAdd {
			return nil, 0, nil
		}
		c := a.cands[identDecl(unparen(x.AdditiveExpression))]
		if k, ok := constValue(x.MultiplicativeExpression); c != nil && ok && k >= 0 && k < c.size {
			return c, k, x.MultiplicativeExpression
		}
	}
	return nil, 0, nil
}

// memory recognises memcpy(d, s, bytes) between two buffers at one
// constant offset, and memset(a, c, bytes) (its byte c is a value stored:
// replaced by 0). The library model accesses the elements one by one in
// index order (libc_mem.go): a block.
func (a *bufAnalysis) memory(x *cc.PostfixExpression, name string) bool {
	args := callArgs(x)
	if len(args) != 3 {
		return false
	}
	d, dk, doff := a.bufArg(args[0])
	bytes, ok := constValue(args[2])
	if d == nil || !ok || bytes < 1 || bytes%d.elem != 0 {
		return false
	}
	cells := bytes / d.elem
	acc := &bufAccess{bufs: []*bufCand{d}, lo: dk, hi: dk + cells, count: args[2], unit: 1}
	if doff != nil {
		acc.offs = append(acc.offs, doff)
	}
	if name == "memset" {
		if _, ok := constValue(args[1]); !ok {
			return false
		}
		acc.zeros = append(acc.zeros, args[1])
	} else {
		s, sk, soff := a.bufArg(args[1])
		if s == nil || s == d || sk != dk || s.elem != d.elem {
			return false
		}
		acc.bufs = append(acc.bufs, s)
		if soff != nil {
			acc.offs = append(acc.offs, soff)
		}
	}
	for _, b := range acc.bufs {
		if acc.hi > b.size {
			return false
		}
	}
	a.accs = append(a.accs, acc)
	return true
}
