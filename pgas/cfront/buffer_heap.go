// Heap buffers under the collapse law: a pointer set once, by its
// declaration, to a block of shmem_malloc, shmem_calloc, shmem_align,
// malloc or calloc of a constant size, is a buffer like an array
// (buffer.go) when its every use is one of the same forms, plus freeing
// it (shmem_free(p), free(p)). The allocation's size is rewritten.

package cfront

import "modernc.org/cc/v4"

// bufAlloc is the allocation of a heap buffer: the call and the node of
// its size (bytes) or count (elements of per bytes).
type bufAlloc struct {
	call *cc.PostfixExpression
	size cc.ExpressionNode
	per  int64 // bytes per unit of size: 1, or calloc's element size
}

// heapCand registers d, a pointer declared with initializer init, as a
// candidate if init is an allocation of a constant size.
func (a *bufAnalysis) heapCand(d *cc.Declarator, init *cc.Initializer) bool {
	if init == nil || init.Case != cc.InitializerExpr {
		return false
	}
	return a.heapAlloc(d, init.AssignmentExpression)
}

// heapAlloc registers d, a pointer written once, by e, as a candidate if
// e is an allocation of a constant size.
func (a *bufAnalysis) heapAlloc(d *cc.Declarator, e cc.ExpressionNode) bool {
	pt, ok := d.Type().(*cc.PointerType)
	if !ok || !cc.IsIntegerType(pt.Elem()) || d.WriteCount() != 1 || d.AddressTaken() || d.IsStatic() || a.globals[d] {
		return false
	}
	e = unparen(e)
	for {
		c, ok := e.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			break
		}
		e = unparen(c.CastExpression)
	}
	x, ok := e.(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionCall {
		return false
	}
	name := calleeName(x)
	sym, known := allocators[name]
	args := callArgs(x)
	if !known {
		return false
	}
	elem := pt.Elem().Size()
	al := &bufAlloc{call: x, per: 1}
	var bytes int64
	switch {
	case (name == "shmem_malloc" || name == "malloc") && len(args) == 1:
		al.size = args[0]
	case (name == "shmem_calloc" || name == "calloc") && len(args) == 2:
		per, ok := constValue(args[1])
		if !ok || per < 1 || elem%per != 0 {
			return false
		}
		al.size, al.per = args[0], per
	case name == "shmem_align" && len(args) == 2:
		al.size = args[1]
	default:
		return false
	}
	k, ok := a.constOf(al.size) // buffer_block.go: or a local set once
	var block *bufBlock
	if !ok {
		k, ok = a.perPE(al.size) // buffer_block.go: k per PE
		block = &bufBlock{}
	}
	if !ok || k < 1 {
		return false
	}
	bytes = k * al.per
	if elem < 1 || bytes%elem != 0 || bytes/elem <= 1 {
		return false
	}
	c := &bufCand{d: d, size: bytes / elem, elem: elem, sym: sym, alloc: al, block: block}
	a.cands[d] = c
	a.order = append(a.order, c)
	return true
}

// freeStmt recognises shmem_free(p) and free(p) of a heap buffer.
func (a *bufAnalysis) freeStmt(x *cc.PostfixExpression, name string) bool {
	args := callArgs(x)
	if (name != "free" && name != "shmem_free") || len(args) != 1 {
		return false
	}
	c := a.cands[identDecl(unparen(args[0]))]
	return c != nil && c.alloc != nil
}

// heapSubst rewrites the allocation of a shrunk heap buffer to its kept
// cells.
func (p *bufPlan) heapSubst(c *bufCand, k *bufKept) {
	al := c.alloc
	p.subst[al.size] = int64(len(k.old)) * c.elem / al.per // a blocked buffer's old: n blocks
	if p.heap == nil {
		p.heap = map[*cc.PostfixExpression]*bufKept{}
	}
	p.heap[al.call] = k
}

// bufHeapEntity records the object of a shrunk heap buffer's allocation.
func (t *translator) bufHeapEntity(x *cc.PostfixExpression, e *entity) {
	if t.buf == nil {
		return
	}
	if k, ok := t.buf.heap[x]; ok {
		if t.buf.elems == nil {
			t.buf.elems = map[string][]int64{}
		}
		t.buf.elems[e.name] = k.old
	}
}
