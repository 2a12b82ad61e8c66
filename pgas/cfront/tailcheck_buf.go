// The collapse law (buffer.go) on dead checks and dead assignments
// (tailcheck.go): their loads are uses of a buffer like the elements a
// printf prints, since the values go nowhere; the dropped branches are
// not uses at all.

package cfront

import "modernc.org/cc/v4"

// deadStmt recognises n, a dead check (*cc.SelectionStatement) or the
// expression of a dead assignment: in a canonical loop (acc not nil) every
// load is an element x[i] of a buffer and every other operand reads no
// memory; outside, its constant-index elements are accesses and every
// other load is visited.
func (a *bufAnalysis) deadStmt(n cc.Node, i *cc.Declarator, acc *bufAccess) bool {
	if a.dead == nil {
		return false
	}
	var e cc.ExpressionNode
	switch x := n.(type) {
	case *cc.SelectionStatement:
		if !a.dead.checks[x] {
			return false
		}
		e = x.ExpressionList
	case cc.ExpressionNode:
		if !a.dead.assign[x] {
			return false
		}
		if e = assignRHS(x); e == nil {
			return true // v++ of a dead local: no load
		}
	default:
		return false
	}
	var singles []*bufAccess
	for _, l := range loadLeaves(e) {
		c, idx := a.elemRef(l)
		switch {
		case c != nil && acc != nil && identDecl(unparen(idx)) == i:
			acc.bufs = append(acc.bufs, c)
		case c != nil && acc == nil:
			k, ok := idxConst(idx)
			if !ok || k < 0 || k >= c.size {
				return false
			}
			singles = append(singles, &bufAccess{bufs: []*bufCand{c}, lo: k, hi: k + 1, offs: idxNodes(idx)})
		case acc != nil:
			return false // a load of another object between the elements' blocks
		}
	}
	if acc != nil && len(acc.bufs) == 0 {
		return false
	}
	for _, s := range singles {
		a.accs = append(a.accs, s)
	}
	if acc == nil {
		for _, l := range loadLeaves(e) {
			if c, _ := a.elemRef(l); c == nil {
				a.walk(l)
			}
		}
	}
	return true
}
