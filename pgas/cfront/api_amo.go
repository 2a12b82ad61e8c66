// OpenSHMEM atomic memory operations (fetching and not).

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// atomic translates shmem_[ctx_][TYPE_]atomic_OP.
func (t *translator) atomic(x *cc.PostfixExpression, name string, c shmemCall, ctx, op string, args []cc.ExpressionNode) string {
	want := map[string]int{"fetch": 2, "set": 3, "add": 3, "inc": 2, "fetch_add": 3, "fetch_inc": 2,
		"swap": 3, "compare_swap": 4, "and": 3, "or": 3, "xor": 3, "fetch_and": 3, "fetch_or": 3, "fetch_xor": 3}
	if op == "fetch_nbi" {
		return t.fetchNbi(x, name, c, ctx, args)
	}
	if nbiFetching[strings.TrimSuffix(op, "_nbi")] && strings.HasSuffix(op, "_nbi") {
		return t.atomicNbi(x, name, c, ctx, op, args) // api_amo_nbi.go
	}
	n, ok := want[op]
	if !ok {
		t.refuse(x, "%s is outside the subset", name)
	}
	t.arity(x, name, args, n)
	dst := t.symCell(x, args[0], 1)
	if op != "fetch" {
		t.asyncWrite(dst)
	}
	t.sizeMatch(x, c, dst)
	var vals []string
	for _, a := range args[1 : n-1] {
		vals = append(vals, t.value(a))
	}
	k := t.pe(args[n-1])
	switch op {
	case "set", "add", "and", "or", "xor":
		t.emit("amo_%s(%s, %s, %s, %s)", op, vals[0], k, dst, ctx)
		return ""
	case "inc":
		t.emit("amo_inc(%s, %s, %s)", k, dst, ctx)
		return ""
	}
	r := t.temp()
	switch op {
	case "fetch", "fetch_inc":
		t.emit("%s <- amo_%s(%s, %s, %s)", r, op, k, dst, ctx)
	case "fetch_add", "swap", "fetch_and", "fetch_or", "fetch_xor":
		t.emit("%s <- amo_%s(%s, %s, %s, %s)", r, op, vals[0], k, dst, ctx)
	case "compare_swap":
		t.emit("%s <- amo_cswap(%s, %s, %s, %s, %s)", r, vals[0], vals[1], k, dst, ctx)
	}
	return r
}

// fetchNbi is shmem_atomic_fetch_nbi(fetch, source, pe): an atomic read
// of source on pe whose value lands in the local fetch, complete at the
// next quiet of the context; fences order neither the read nor the value
// (OpenSHMEM 1.6, shmem_fence: "values fetched by nonblocking AMO
// routines"). That is getmem_nbi of one cell: a recv whose popa reads the
// remote cell in one event and whose popb writes fetch. The routines that
// also update the target (fetch_add_nbi, swap_nbi, …) are refused: their
// update is fence-ordered while their value is not, which no item of the
// calculus does.
func (t *translator) fetchNbi(x *cc.PostfixExpression, name string, c shmemCall, ctx string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 3)
	fetch := t.localCell(args[0], 1)
	src := t.symCell(x, args[1], 1)
	t.sizeMatch(x, c, src)
	if fetch.ent.elem != src.ent.elem {
		t.refuse(x, "%s between %s and %s, whose elements differ in size", name, t.cname(fetch.ent), t.cname(src.ent))
	}
	t.asyncWrite(fetch)
	t.emit("getmem_nbi(%s, %s, %s, %s)", fetch, t.pe(args[2]), src, ctx)
	return ""
}
