// The heaps: shmem_malloc and its family on the symmetric heap, malloc on
// the private one; shmem_ptr and shmem_addr_accessible.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// allocators are the routines that return a new block: the symmetric ones
// (collective, with the barrier the specification gives them) and the
// private ones.
var allocators = map[string]bool{"shmem_malloc": true, "shmem_calloc": true, "shmem_align": true,
	"malloc": false, "calloc": false}

// pointerCall is a call whose value is a pointer: an allocation,
// shmem_ptr, or a helper of the file returning a pointer.
func (t *translator) pointerCall(x *cc.PostfixExpression, elem cc.Type) (addrTerm, string) {
	name, args := calleeArgs(x)
	if _, ok := allocators[name]; ok {
		return t.allocate(x, name, args, elem), ""
	}
	switch name {
	case "shmem_ptr":
		return t.shmemPtr(x, args)
	case "shmem_realloc", "realloc", "shmem_malloc_with_hints", "aligned_alloc":
		t.heapRefuse(x, name)
	}
	if _, ok := t.funcs[name]; ok {
		return t.callPointer(x, elem)
	}
	t.library(x, name, args) // a routine the C library model refuses says why (getenv, fopen)
	t.refuse(x, "the pointer %s returns: only allocations, shmem_ptr and functions of this file give pointers", name)
	return addrTerm{}, ""
}

func calleeArgs(x *cc.PostfixExpression) (string, []cc.ExpressionNode) {
	name := ""
	if p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		name = p.Token.SrcStr()
	}
	var args []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	return name, args
}

// heapCall is the hook of libc.go's library for the heap routines called
// for their effect or their integer value; ok is false for other names.
func (t *translator) heapCall(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) (string, bool) {
	if _, ok := allocators[name]; ok {
		// the block is lost, the barrier of a symmetric one happens
		t.allocate(x, name, args, nil)
		return "", true
	}
	switch name {
	case "shmem_free", "free":
		t.free(x, name, args)
		return "", true
	case "shmem_realloc", "realloc", "shmem_malloc_with_hints", "aligned_alloc":
		t.heapRefuse(x, name)
	case "shmem_ptr":
		t.shmemPtr(x, args) // nothing happens
		return "", true
	case "shmem_addr_accessible":
		return t.addrAccessible(x, args), true
	}
	return "", false
}

func (t *translator) heapRefuse(x cc.Node, name string) {
	switch name {
	case "shmem_realloc":
		t.refuse(x, "shmem_realloc: the specification says it \"may call barriers on both entry and exit\", so whether it synchronises is the implementation's choice and no one translation is exact; allocate the final size with shmem_malloc (or shmem_free, then shmem_malloc)")
	case "shmem_malloc_with_hints":
		t.refuse(x, "shmem_malloc_with_hints (use shmem_malloc: hints change no ordering, but they are not in the subset yet)")
	}
	t.refuse(x, "%s (use malloc or calloc of the final size)", name)
}

// allocate translates an allocation returning a block of elements of
// type elem (nil when the block is not used). Each allocation the
// translation meets is one new object: it must run once per run of its
// PE, at a straight-line position (the checker's memory is fixed).
func (t *translator) allocate(x *cc.PostfixExpression, name string, args []cc.ExpressionNode, elem cc.Type) addrTerm {
	sym := allocators[name]
	if len(t.frames) == 0 {
		t.refuse(x, "%s outside a function (a file-scope initialiser must be constant)", name)
	}
	want := map[string]int{"shmem_malloc": 1, "malloc": 1, "shmem_calloc": 2, "calloc": 2, "shmem_align": 2}[name]
	if len(args) != want {
		t.refuse(x, "%s takes %d arguments, not %d", name, want, len(args))
	}
	var bytes int64
	switch name {
	case "shmem_malloc", "malloc":
		bytes = t.sizeArg(args[0], name)
	case "shmem_calloc", "calloc":
		bytes = t.sizeArg(args[0], name) * t.sizeArg(args[1], name)
	case "shmem_align":
		t.sizeArg(args[0], name) // the alignment: any valid one gives the same cells
		bytes = t.sizeArg(args[1], name)
	}
	if !t.once(x) {
		t.refuse(x, "%s in a loop (or in a function with labels, or in a helper called from one): it allocates a new block each time it runs, and the translation gives each allocation one fixed object; allocate before the loop", name)
	}
	if bytes == 0 {
		if !sym {
			t.refuse(x, "%s of 0 bytes: C lets the implementation return NULL or a unique pointer", name)
		}
		return addrTerm{} // NULL, and no barrier (the specification says so)
	}
	if elem == nil && sym {
		t.barrierAll(x)
		return addrTerm{}
	}
	if elem == nil || elem.Kind() == cc.Void || !cc.IsIntegerType(elem) {
		t.refuse(x, "%s whose element type is not known: assign it to a pointer to an integer type (long *p = %s(...))", name, name)
	}
	es := elem.Size()
	if bytes%es != 0 {
		t.refuse(x, "%s of %d bytes for elements of %d bytes: not a whole number of elements", name, bytes, es)
	}
	n := bytes / es
	if n > maxArray {
		t.refuse(x, "%s of %d elements: at most %d (every element is a cell the checker explores)", name, n, maxArray)
	}
	k := kCell
	if sym {
		k = kSym
	}
	base := t.hs().hint // the pointer the block is assigned to
	if base == "" {
		base = "block"
	}
	cname := fmt.Sprintf("%s@%d", base, t.pos(x).Line)
	e := &entity{kind: k, name: t.fresh("heap_"+sanitize(base), cname), length: int(n), elem: es}
	t.names[e.name] = cname
	t.addAddrAt(x, e)
	t.bufHeapEntity(x, e) // buffer_heap.go
	t.hs().heap[e] = name
	t.assume(assumeAllocSucceeds)
	if name != "shmem_calloc" && name != "calloc" {
		t.assume(assumeAllocZero)
	}
	if sym {
		t.barrierAll(x)
	}
	return addrTerm{e, "0"}
}

// barrierAll is the barrier the symmetric heap routines include: "a
// procedure that is semantically equivalent to shmem_barrier_all", whose
// implicit barriers "quiet the default context" (OpenSHMEM 1.6, 9.3).
func (t *translator) barrierAll(x cc.Node) {
	old := t.at(x)
	t.emit("quiet %s", t.defctx)
	t.emit("barrier")
	t.cur = old
}

// free translates shmem_free (a barrier on entry, then the block is gone)
// and free (the block is gone).
func (t *translator) free(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) {
	if len(args) != 1 {
		t.refuse(x, "%s takes 1 argument", name)
	}
	a, cond := t.pterm(args[0], nil)
	if a.ent == nil {
		return // free(NULL): no action, and no barrier
	}
	h := t.hs()
	from := h.heap[a.ent]
	switch {
	case cond != "":
		t.refuse(x, "%s of a pointer from shmem_ptr", name)
	case from == "" || allocators[from] != (name == "shmem_free"):
		t.refuse(x, "%s of %s, which %s did not allocate (undefined behaviour)", name, t.cname(a.ent), map[bool]string{true: "shmem_malloc", false: "malloc"}[name == "shmem_free"])
	case a.off != "0":
		t.refuse(x, "%s of a pointer inside the block %s, not its start", name, t.cname(a.ent))
	case h.freed[a.ent] != nil:
		t.refuse(x, "%s of %s a second time", name, t.cname(a.ent))
	case !t.once(x):
		t.refuse(x, "%s in a loop (or in a function with labels, or in a helper called from one): free a block once, after the loop", name)
	}
	if name == "shmem_free" {
		t.barrierAll(x)
		t.assume(assumeFreeNoPending)
	}
	h.freed[a.ent] = x
}

// shmemPtr translates shmem_ptr(dest, pe). For the calling PE the object
// is reachable by loads and stores and the result is dest; for any other
// PE the specification lets the implementation return NULL ("otherwise, a
// null pointer is returned"), and this translation does: a program that
// tests the result takes its fallback path.
func (t *translator) shmemPtr(x *cc.PostfixExpression, args []cc.ExpressionNode) (addrTerm, string) {
	if len(t.frames) == 0 {
		t.refuse(x, "shmem_ptr outside a function")
	}
	if len(args) != 2 {
		t.refuse(x, "shmem_ptr takes 2 arguments")
	}
	a := t.pointer(args[0])
	if a.ent.kind != kSym {
		t.refuse(args[0], "shmem_ptr of %s, which is not symmetric (undefined behaviour)", t.cname(a.ent))
	}
	pe, ok := t.rankExpr(args[1])
	if !ok {
		t.refuse(args[1], "shmem_ptr for a PE computed at run time: give the PE as an expression of constants, shmem_my_pe() and shmem_n_pes()")
	}
	if strings.NewReplacer("(", "", ")", "", " ", "").Replace(pe) == "rank-1" {
		return a, "" // the caller's own object
	}
	t.assume(assumeShmemPtrNull)
	return a, fmt.Sprintf("(%s == rank - 1)", pe)
}

// addrAccessible translates shmem_addr_accessible(addr, pe): 1 for a
// symmetric object and a PE of the world team, 0 for a private one.
func (t *translator) addrAccessible(x *cc.PostfixExpression, args []cc.ExpressionNode) string {
	if len(args) != 2 {
		t.refuse(x, "shmem_addr_accessible takes 2 arguments")
	}
	a, _ := t.pterm(args[0], nil)
	t.novalue++
	pe := t.value(args[1])
	t.novalue--
	if a.ent == nil || a.ent.kind != kSym {
		return "0"
	}
	return fmt.Sprintf("((%s >= 0) && (%s < N))", pe, pe)
}

func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "block"
	}
	return b.String()
}
