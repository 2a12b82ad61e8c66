// The non-blocking fetching atomics (shmem_atomic_fetch_add_nbi,
// fetch_inc_nbi, swap_nbi, compare_swap_nbi, fetch_and/or/xor_nbi) where a
// quiet of their context follows at once: there they are their blocking
// form. Elsewhere they are refused.
//
// Why that is exact. The nbi call issues an operation that, at some time
// before the next quiet of its context, reads and updates dest on pe in
// one step (fences order that update like a put's delivery: OpenSHMEM
// 1.6, shmem_fence) and, at some later time before the quiet, writes the
// old value into fetch (fences do not order that). Take a computation of
// that semantics in which the PE, between the call and the quiet, takes
// no step of its own program (its earlier items may still be delivered).
// The issue touches no cell, and the PE does nothing between the issue and
// the update, so the issue can be moved to just before the update without
// changing program order or any conflict: the update then happens exactly
// where the blocking atomic would, under the same rule (no send to pe of
// an earlier fence epoch undelivered). The write of fetch happens after
// the update and before the quiet, as the store that follows the blocking
// atomic does, at any time in between; fetch is private, so no other PE's
// access conflicts with it. Conversely every computation of the blocking
// form is one of the nbi call. So the two have the same happens-before
// relations, and the same reachable values. With two nbi operations
// before one quiet this fails: their updates may happen in either order
// while program order keeps theirs, which no sequence of blocking atomics
// has; hence "at once".
//
// "At once" is checked on the compiled translation: from the store of the
// fetched value, every path takes only register steps (assignments and
// branches) until a quiet of the same context (shmem_quiet,
// shmem_ctx_quiet, the quiet of shmem_barrier_all).

package cfront

import (
	"bytes"
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"github.com/pgasrob/pgasrob/pgas"
)

// nbiMark ends the .pgas line of the store of an nbi atomic's fetched
// value; the context's name follows it.
const nbiMark = "# nbi-fetch "

// nbiFetching is the set of fetching atomics with an nbi form that updates
// the target (fetch_nbi, an atomic read, is fetchNbi in api_amo.go).
var nbiFetching = map[string]bool{"fetch_inc": true, "fetch_add": true, "swap": true,
	"compare_swap": true, "fetch_and": true, "fetch_or": true, "fetch_xor": true}

// atomicNbi translates shmem_[ctx_][TYPE_]atomic_OP_nbi(fetch, dest, …,
// pe) as the blocking atomic and a store of its result into fetch, marked
// for nbiCheck.
func (t *translator) atomicNbi(x *cc.PostfixExpression, name string, c shmemCall, ctx, op string, args []cc.ExpressionNode) string {
	base := strings.TrimSuffix(op, "_nbi")
	n := map[string]int{"fetch_inc": 3, "fetch_add": 4, "swap": 4, "compare_swap": 5,
		"fetch_and": 4, "fetch_or": 4, "fetch_xor": 4}[base]
	t.arity(x, name, args, n)
	fetch := t.localCell(args[0], 1)
	if fetch.ent.kind == kSym {
		t.refuse(args[0], "the fetch argument of %s is the symmetric object %s: the fetched value lands in it at a time of its own, which is modelled only for a private object (a local or a malloc block)", name, t.cname(fetch.ent))
	}
	dst := t.symCell(x, args[1], 1)
	t.asyncWrite(dst)
	t.asyncWrite(fetch)
	t.sizeMatch(x, c, dst)
	if fetch.ent.elem != dst.ent.elem {
		t.refuse(x, "%s between %s and %s, whose elements differ in size", name, t.cname(fetch.ent), t.cname(dst.ent))
	}
	var vals []string
	for _, a := range args[2 : n-1] {
		vals = append(vals, t.value(a))
	}
	k := t.pe(args[n-1])
	r := t.temp()
	switch base {
	case "fetch_inc":
		t.emit("%s <- amo_fetch_inc(%s, %s, %s)", r, k, dst, ctx)
	case "compare_swap":
		t.emit("%s <- amo_cswap(%s, %s, %s, %s, %s)", r, vals[0], vals[1], k, dst, ctx)
	default:
		t.emit("%s <- amo_%s(%s, %s, %s, %s)", r, base, vals[0], k, dst, ctx)
	}
	t.emit("mem[%s] <- %s    %s%s", fetch, r, nbiMark, ctx)
	return ""
}

// nbiCheck refuses every nbi atomic of the translation that a quiet of its
// context does not follow at once (see the top of this file).
func nbiCheck(res *Result) error {
	if !bytes.Contains(res.Source, []byte(nbiMark)) {
		return nil
	}
	p, err := pgas.Compile("nbi.pgas", res.Source)
	if err != nil {
		return nil // Compile reports it as the internal error it is
	}
	var errs pgas.ErrorList
	for i, line := range strings.Split(string(res.Source), "\n") {
		j := strings.Index(line, nbiMark)
		if j < 0 {
			continue
		}
		ctx := strings.TrimSpace(line[j+len(nbiMark):])
		if nbiQuietFollows(p, i+1, ctx) {
			continue
		}
		o, _ := res.Origin(i + 1)
		errs = append(errs, &pgas.Error{Pos: o.Pos, Msg: fmt.Sprintf("%s is translated only when a quiet of its context follows it at once (shmem_quiet, shmem_ctx_quiet or shmem_barrier_all, with nothing between that reads or writes memory or issues an operation): until then its update and its fetched value land at times of their own, which the calculus has no item for; call the quiet right after it, or use the blocking form", callName(o.Text))})
	}
	if len(errs) == 0 {
		return nil
	}
	return capErrors(errs)
}

// nbiQuietFollows reports whether every path from the store on .pgas line
// line reaches a quiet of context ctx through register steps only.
func nbiQuietFollows(p *pgas.Program, line int, ctx string) bool {
	id := -1
	for i, q := range p.Queues {
		if q == ctx {
			id = i
		}
	}
	var todo []int
	for _, tr := range p.Trans {
		if tr.Pos.Line == line && tr.Cmd.Op == pgas.OpStore {
			todo = append(todo, tr.To)
		}
	}
	if id < 0 || len(todo) == 0 {
		return false
	}
	seen := map[int]bool{}
	for len(todo) > 0 {
		q := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[q] {
			continue // a loop of register steps: the PE does nothing else
		}
		seen[q] = true
		if len(p.Out[q]) == 0 {
			return false // the PE ends with the operation pending
		}
		for _, ti := range p.Out[q] {
			c := p.Trans[ti].Cmd
			switch {
			case c.Op == pgas.OpQuiet && isConstExpr(c.Queue, int64(id)):
			case c.Op == pgas.OpAssign || c.Op == pgas.OpAssume:
				todo = append(todo, p.Trans[ti].To)
			default:
				return false
			}
		}
	}
	return true
}

func isConstExpr(e *pgas.Expr, v int64) bool {
	if e == nil {
		return false
	}
	k, ok := e.Const()
	return ok && k == v
}

// callName is the routine's name in a call's text.
func callName(text string) string {
	if i := strings.IndexByte(text, '('); i > 0 {
		return strings.TrimSpace(text[:i])
	}
	return text
}
