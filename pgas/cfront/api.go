// The OpenSHMEM API mapping: dispatch of a shmem_* call to its family
// (one api_*.go file per family) and the operand helpers they share.

package cfront

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// shmemCall is a routine name taken apart: shmem_[ctx_][TYPE_]op.
type shmemCall struct {
	op   string
	typ  string // "" for the untyped and generic forms
	ctx  bool
	size int64 // element size of the routine; 0: that of the destination
}

var typeSizes = map[string]int64{"char": 1, "schar": 1, "uchar": 1, "short": 2, "ushort": 2,
	"int": 4, "uint": 4, "long": 8, "ulong": 8, "longlong": 8, "ulonglong": 8, "int8": 1,
	"int16": 2, "int32": 4, "int64": 8, "uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8,
	"size": 8, "ptrdiff": 8}

// untyped routines, whose name has no TYPE (after ctx_, if any)
var untyped = map[string]bool{"init": true, "finalize": true, "my_pe": true, "n_pes": true,
	"barrier_all": true, "sync_all": true, "fence": true, "quiet": true, "create": true,
	"destroy": true, "set_lock": true, "clear_lock": true, "test_lock": true,
	"signal_wait_until": true, "signal_fetch": true}

func parseShmem(name string) shmemCall {
	rest := strings.TrimPrefix(name, "shmem_")
	var c shmemCall
	if r, ok := strings.CutPrefix(rest, "ctx_"); ok {
		c.ctx = true
		rest = r
	}
	if untyped[rest] {
		c.op = rest
		return c
	}
	for _, mem := range []string{"putmem", "getmem"} {
		if strings.HasPrefix(rest, mem) {
			c.op, c.size = strings.Replace(rest, "mem", "", 1), 1
			return c
		}
	}
	for _, bits := range []string{"128", "16", "32", "64", "8"} {
		for _, op := range []string{"iput", "iget", "put", "get"} {
			if strings.HasPrefix(rest, op+bits) {
				var n int64
				fmt.Sscan(bits, &n)
				c.op, c.size = op+strings.TrimPrefix(rest, op+bits), n/8
				return c
			}
		}
	}
	best := ""
	for typ := range typeSizes {
		if strings.HasPrefix(rest, typ+"_") && len(typ) > len(best) {
			best = typ
		}
	}
	if best != "" {
		c.typ, c.size, rest = best, typeSizes[best], rest[len(best)+1:]
	}
	c.op = rest
	return c
}

// plainArity is the number of arguments of the routines shmem handles
// itself (without a context argument).
var plainArity = map[string]int{"init": 0, "finalize": 0, "my_pe": 0, "n_pes": 0, "barrier_all": 0,
	"sync_all": 0, "fence": 0, "quiet": 0, "create": 2, "destroy": 1, "signal_wait_until": 3,
	"signal_fetch": 1}

// deprecated names of the atomics (OpenSHMEM 1.6, Annex: deprecated).
var deprecated = map[string]string{"fetch": "atomic_fetch", "set": "atomic_set", "add": "atomic_add",
	"inc": "atomic_inc", "fadd": "atomic_fetch_add", "finc": "atomic_fetch_inc", "swap": "atomic_swap",
	"cswap": "atomic_compare_swap"}

// shmem translates an OpenSHMEM call. Arguments are evaluated left to
// right before the operation (C leaves the order open; each load is one
// event either way).
func (t *translator) shmem(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if v, ok := t.ctxSwitch(x, name, args); ok {
		return v
	}
	if v, ok := t.apiFamilies(x, name, args); ok {
		return v
	}
	c := parseShmem(name)
	if n, ok := plainArity[c.op]; ok && (!c.ctx || c.op == "create" || c.op == "destroy") {
		t.arity(x, name, args, n)
	}
	if d, ok := deprecated[c.op]; ok && c.typ != "" {
		c.op = d
	}
	ctx := t.defctx
	if c.ctx && c.op != "create" && c.op != "destroy" {
		if len(args) == 0 {
			t.refuse(x, "%s without its context", name)
		}
		ctx = t.ctxArg(args[0]).name
		args = args[1:]
	}
	switch c.op {
	case "init", "finalize":
		return ""
	case "my_pe":
		return "(rank - 1)"
	case "n_pes":
		return "N"
	case "barrier_all":
		t.emit("quiet %s", t.defctx)
		t.emit("barrier")
		return ""
	case "sync_all":
		t.emit("barrier")
		return ""
	case "fence", "quiet":
		t.arity(x, name, args, 0)
		t.emit("%s %s", c.op, ctx)
		return ""
	case "create":
		t.novalue++
		t.value(args[0])
		t.novalue--
		target := t.ctxArg(derefAddr(t, args[1]))
		_ = target
		return "0"
	case "destroy":
		t.emit("quiet %s", t.ctxArg(args[0]).name)
		return ""
	case "set_lock", "clear_lock", "test_lock":
		return t.lock(x, c.op, args)
	case "signal_wait_until":
		sig := t.symCell(x, args[0], 1)
		return t.await(x, sig, args[1], args[2])
	case "signal_fetch":
		sig := t.symCell(x, args[0], 1)
		r := t.temp()
		// an atomic read of the signal (an await whose guard always
		// holds: the same step as a load in X); the race criterion
		// needs to know it is atomic (docs/criteria.md)
		t.emit("%s <- mem[%s] when 1", r, sig)
		return r
	}
	if c.typ == "" && c.size == 0 && c.op != "p" && c.op != "g" && !strings.HasPrefix(c.op, "put") &&
		!strings.HasPrefix(c.op, "get") && !strings.HasPrefix(c.op, "atomic_") && c.op != "iput" && c.op != "iget" &&
		!strings.HasPrefix(c.op, "wait_until") && !strings.HasPrefix(c.op, "test") {
		t.refuse(x, "%s is outside the subset", name)
	}
	return t.rma(x, name, c, ctx, args)
}

// derefAddr turns the &ctx argument of shmem_ctx_create into ctx.
func derefAddr(t *translator, e cc.ExpressionNode) cc.ExpressionNode {
	if u, ok := unparen(e).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		return u.CastExpression
	}
	t.refuse(e, "shmem_ctx_create takes &ctx for a shmem_ctx_t object of the file")
	return nil
}

// pe is the rank of a PE argument: PE p is rank p+1. A PE number that
// reads neither a register nor rank would be checked against N before the
// program runs (pgas.CheckN); C programs guard such calls by
// shmem_n_pes(), so the number is made to read rank and is checked when
// the call executes, as every other.
func (t *translator) pe(e cc.ExpressionNode) string {
	v := t.index(e)
	if !strings.Contains(v, "rank") && !t.readsRegister(v) {
		return fmt.Sprintf("(rank - rank + %s + 1)", v)
	}
	return fmt.Sprintf("(%s + 1)", v)
}

// readsRegister reports whether the .pgas expression v names a register.
func (t *translator) readsRegister(v string) bool {
	for _, w := range strings.FieldsFunc(v, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		for _, r := range t.regs {
			if w == r {
				return true
			}
		}
	}
	return false
}

// count is the number of cells an element count covers: nelems elements
// of size bytes each, in cells of the destination's element size.
func (t *translator) count(n cc.ExpressionNode, size int64, obj *entity, name string) int {
	k, ok := t.nConst(n) // size.go: constants and N
	if !ok {
		t.refuse(n, "element count of %s: only a constant count is in the subset", name)
	}
	if size == 0 {
		size = obj.elem
	}
	bytes := k * size
	if k < 1 || k > maxArray*8 || bytes%obj.elem != 0 {
		t.refuse(n, "element count %d of %s: must be a positive whole number of elements of %s", k, name, t.cname(obj))
	}
	return int(bytes / obj.elem)
}

// symCell evaluates a pointer argument that must designate symmetric
// cells (the remote side of an operation, or a cell others write).
func (t *translator) symCell(x cc.Node, e cc.ExpressionNode, cells int) addrTerm {
	a := t.pointer(e)
	if a.ent.kind != kSym {
		t.refuse(e, "%s is not symmetric: a remote cell must be a global or static object", t.cname(a.ent))
	}
	t.check(e, a, cells)
	return a
}

// localCell evaluates a pointer argument that designates cells of the
// calling PE (a source of a put, a destination of a get).
func (t *translator) localCell(e cc.ExpressionNode, cells int) addrTerm {
	a := t.pointer(e)
	t.check(e, a, cells)
	return a
}

// arity checks the number of arguments (after the context).
func (t *translator) arity(x cc.Node, name string, args []cc.ExpressionNode, n int) {
	if len(args) != n {
		t.refuse(x, "%s takes %d arguments here, not %d", name, n, len(args))
	}
}

func isNull(e cc.ExpressionNode) bool {
	s := strings.Join(strings.Fields(cc.NodeSource(e)), "")
	return s == "NULL" || s == "((void*)0)" || s == "0"
}

// apiExt is the translator's state for the API families added for the
// whole 1.6 API, kept apart from the core translator.
type apiExt struct {
	collcell     string                          // the private scratch cell of the reductions (api_coll.go)
	ctxOver      *entity                         // the context ctxArg gives for ctxNode (api_ctx.go, ctxSwitch)
	ctxNode      cc.ExpressionNode               // elems of a context array are in entity.elems
	asyncW       map[*entity]bool                // objects some operation writes asynchronously (api_rma.go)
	srcOrder     []srcOrderCheck                 // blocking puts from symmetric objects, checked by apiFinish
	srcAny       map[pgas.Pos]bool               // the puts among them issued in every order (api_rma.go, sourceOrder)
	srcRetry     map[pgas.Pos]bool               // the puts apiFinish found needing that: translate again with them in srcAny
	teams        map[*cc.Declarator]bool         // shmem_team_t objects naming a predefined team (api_team.go)
	stridedTeams map[*cc.Declarator]*stridedTeam // shmem_team_t locals set by split_strided (api_team_strided.go)
	configs      map[*cc.Declarator]bool         // shmem_team_config_t * locals that are always NULL
	bcastSigs    map[string]string               // the hidden counter of broadcasts into each dest (api_coll.go)
	bcastCtx     string                          // the hidden context of broadcasts
}
