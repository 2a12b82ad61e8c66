// OpenSHMEM collectives on data: broadcast, collect, fcollect, alltoall,
// alltoalls, reductions and scans (docs/shmem.md, "Collectives").

package cfront

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"

	"modernc.org/cc/v4"
)

// collective is a routine name taken apart: shmem_[TYPE_]op[mem|32|64]
// (team-based when team, active-set-based otherwise).
type collective struct {
	op     string // broadcast, collect, fcollect, alltoall, alltoalls, reduce, scan
	reduce string // for reduce: and, or, xor, max, min, sum, prod
	typ    string
	size   int64 // element size from the name; 0: the destination's
	team   bool
}

func collectiveOp(name string) (collective, bool) {
	rest, ok := strings.CutPrefix(name, "shmem_")
	if !ok {
		return collective{}, false
	}
	var c collective
	for typ := range typeSizes {
		if strings.HasPrefix(rest, typ+"_") && len(typ) > len(c.typ) {
			c.typ = typ
		}
	}
	if c.typ != "" {
		rest, c.size = rest[len(c.typ)+1:], typeSizes[c.typ]
	}
	for _, op := range []string{"broadcast", "fcollect", "collect", "alltoalls", "alltoall"} {
		if tail, ok := strings.CutPrefix(rest, op); ok {
			c.op = op
			switch tail {
			case "":
				c.team = true
			case "mem":
				c.team, c.size = true, 1
			case "32", "64":
				c.size = map[string]int64{"32": 4, "64": 8}[tail]
			default:
				return collective{}, false
			}
			return c, c.typ == "" || c.team
		}
	}
	for _, op := range reduceOps {
		if tail, ok := strings.CutPrefix(rest, op+"_"); ok && (tail == "reduce" || tail == "to_all") {
			c.op, c.reduce, c.team = "reduce", op, tail == "reduce"
			return c, true
		}
	}
	if rest == "sum_inscan" || rest == "sum_exscan" {
		c.op, c.team = "scan", true
		return c, true
	}
	return collective{}, false
}

// collective translates a collective on data over every PE (a
// predefined team, or an active set of every PE) as
//
//	barrier; the data moves (blocking gets, one after another); barrier
//
// Every PE's result depends on every PE's call, so no PE returns before
// all have called: the first barrier is that dependency. Between the two
// barriers only the collective runs: every PE is inside it, and the
// specification makes any other access to its buffers meanwhile
// undefined, so where inside the call the moves happen is not observable
// (docs/shmem.md, "Collectives", has the argument). A broadcast is not
// such a collective: its root waits for nobody.
func (t *translator) collective(x *cc.PostfixExpression, name string, c collective, args []cc.ExpressionNode) string {
	switch {
	case c.op == "broadcast":
		return t.broadcast(x, name, c, args)
	case c.op == "scan":
		t.refuse(x, "%s: scans are not in the subset", name)
	case c.op == "reduce" && (c.reduce == "and" || c.reduce == "or" || c.reduce == "xor"):
		t.refuse(x, "%s: the calculus has no bitwise operators; max, min, sum and prod reductions are in the subset", name)
	}
	want := map[string]int{"collect": 3, "fcollect": 3, "alltoall": 3, "alltoalls": 5, "reduce": 3}[c.op]
	res := "0"
	if c.team {
		t.arity(x, name, args, want+1)
		t.teamArg(args[0])
		args = args[1:]
	} else {
		extra := 4
		if c.op == "reduce" {
			extra = 5 // pWrk
		}
		t.arity(x, name, args, want+extra)
		t.activeSetAll(x, name, args[want], args[want+1], args[want+2])
		res = ""
	}
	dst, src := t.pointer(args[0]), t.pointer(args[1])
	for i, a := range []addrTerm{dst, src} {
		if a.ent.kind != kSym {
			t.refuse(args[i], "%s is not symmetric: the buffers of a collective must be global or static objects", t.cname(a.ent))
		}
	}
	if dst.ent.elem != src.ent.elem || c.size != 0 && c.size != dst.ent.elem {
		t.refuse(x, "%s: the elements of %s and %s must have the routine's size", name, t.cname(dst.ent), t.cname(src.ent))
	}
	if dst.ent == src.ent && c.op != "reduce" {
		t.refuse(x, "%s with overlapping source and destination (the specification leaves it undefined)", name)
	}
	var counts []int64
	if c.op == "collect" {
		counts, _ = t.collectCounts(args[want-1], c.size, dst.ent, name) // api_coll_var.go
	}
	n := 0
	if counts == nil {
		n = t.count(args[want-1], c.size, dst.ent, name)
	}
	t.asyncWrite(dst)
	t.emit("barrier")
	if counts != nil {
		t.gatherVar(x, dst, src, counts)
	} else if c.op == "reduce" {
		t.reduction(x, c, dst, src, int64(n))
	} else {
		ds, ss := int64(1), int64(1)
		if c.op == "alltoalls" {
			var ok1, ok2 bool
			ds, ok1 = t.nConst(args[2]) // constants, substituted locals and N
			ss, ok2 = t.nConst(args[3])
			if !ok1 || !ok2 || ds < 1 || ss < 1 {
				t.refuse(x, "strides of %s: only positive constants are in the subset", name)
			}
		}
		t.gather(x, c, dst, src, int64(n), ds, ss)
	}
	t.emit("barrier")
	return res
}

// gather is the moves of collect, fcollect, alltoall and alltoalls:
// each PE gets, from every PE j, the block it receives from j into its
// own dest (j's source block 0 for collect and fcollect, its block
// my_pe for alltoall). PE numbers are unrolled up to the largest N the
// checker takes, each copy behind "if N < j"; a copy whose block would
// lie outside a buffer is, from that N on, a run-time error at the call
// (C would overrun the buffer there).
func (t *translator) gather(x cc.Node, c collective, dst, src addrTerm, n, ds, ss int64) {
	end := t.label()
	a2a := strings.HasPrefix(c.op, "alltoall")
	for j := int64(1); j <= pgas.MaxRanks; j++ {
		if j > 1 {
			t.emit("if N < %d goto %s", j, end)
		}
		sneed := n
		if a2a {
			sneed = ss*(j*n-1) + 1
		}
		if ds*(j*n-1)+1 > t.room(x, dst) || sneed > t.room(x, src) {
			t.overflow()
			break
		}
		for e := int64(0); e < n; e++ {
			from := src.plus(fmt.Sprint(e))
			if a2a {
				from = src.plus(fmt.Sprintf("%d * (rank - 1) + %d", ss*n, ss*e))
			}
			t.emit("getmem(%s, (rank - rank + %d), %s, %s)", dst.plus(fmt.Sprint(ds*((j-1)*n+e))), j, from, t.defctx)
		}
	}
	t.place(end)
}

// reduction is the moves of a max, min, sum or prod reduction, element
// by element: each PE gets element e of every PE's source in turn and
// combines it into a register; after a barrier (source and dest may be
// the same array, so no PE overwrites element e while another still reads
// it) it stores the result into its dest. The barriers are inside the
// collective, where nothing else runs (see collective).
func (t *translator) reduction(x cc.Node, c collective, dst, src addrTerm, n int64) {
	if t.room(x, dst) < n || t.room(x, src) < n {
		t.refuse(x, "reduction of %d elements on a buffer with fewer", n)
	}
	cell := t.collCell()
	acc, r := t.temp(), t.temp()
	for e := int64(0); e < n; e++ {
		end := t.label()
		for j := 1; j <= pgas.MaxRanks; j++ {
			if j > 1 {
				t.emit("if N < %d goto %s", j, end)
			}
			t.emit("getmem(%s, (rank - rank + %d), %s, %s)", cell, j, src.plus(fmt.Sprint(e)), t.defctx)
			t.emit("%s <- mem[%s]", r, cell)
			if j == 1 {
				t.emit("%s <- %s", acc, r)
				continue
			}
			switch c.reduce {
			case "sum":
				t.emit("%s <- %s + %s", acc, acc, r)
			case "prod":
				t.emit("%s <- %s * %s", acc, acc, r)
			case "max", "min":
				skip, cmp := t.label(), "<="
				if c.reduce == "min" {
					cmp = ">="
				}
				t.emit("if %s %s %s goto %s", r, cmp, acc, skip)
				t.emit("%s <- %s", acc, r)
				t.place(skip)
			}
		}
		t.place(end)
		t.emit("barrier")
		t.emit("mem[%s] <- %s", dst.plus(fmt.Sprint(e)), acc)
	}
}

// room is the number of cells from a to the end of its object; a
// collective's buffer must start at a constant element.
func (t *translator) room(x cc.Node, a addrTerm) int64 {
	k, err := strconv.ParseInt(a.off, 10, 64)
	if err != nil {
		t.refuse(x, "a buffer of a collective that starts at a computed element of %s: only a constant start is in the subset", t.cname(a.ent))
	}
	size := int64(a.ent.length)
	if size == 0 {
		size = 1
	}
	return size - k
}

// overflow is a run-time error at the call: a value outside every data
// domain (the calculus has no other run-time error a translation can
// raise); it is reached only for the N at which the buffer overflows.
func (t *translator) overflow() {
	g := t.temp()
	t.emit("%s <- rank - rank + %d", g, poisonValue)
}

func (t *translator) collCell() string {
	if t.collcell == "" {
		t.collcell = t.fresh("coll_tmp", "(collective scratch)")
		t.addAddr(&entity{kind: kCell, name: t.collcell})
	}
	return t.collcell
}

// broadcast is shmem_broadcast (team-based) and shmem_broadcast32/64
// (active set of every PE). A broadcast synchronises in one direction
// only: each PE returns after the root has called, the root waits for
// nobody. The root sends its source to every PE's dest, a put-with-signal
// per PE on a hidden context whose signal adds 1 to a hidden counter of
// that dest (one per dest object and start); every receiving PE waits
// until its counter is positive and takes 1 from it by a compare-and-swap
// (docs/shmem.md, "Collectives", has the argument). The active-set form
// leaves the root's dest alone.
func (t *translator) broadcast(x *cc.PostfixExpression, name string, c collective, args []cc.ExpressionNode) string {
	res := "0"
	if c.team {
		t.arity(x, name, args, 5)
		t.teamArg(args[0])
		args = args[1:]
	} else {
		t.arity(x, name, args, 8)
		t.activeSetAll(x, name, args[4], args[5], args[6])
		res = ""
	}
	dst, src := t.pointer(args[0]), t.pointer(args[1])
	for i, a := range []addrTerm{dst, src} {
		if a.ent.kind != kSym {
			t.refuse(args[i], "%s is not symmetric: the buffers of a collective must be global or static objects", t.cname(a.ent))
		}
	}
	if dst.ent.elem != src.ent.elem || c.size != 0 && c.size != dst.ent.elem {
		t.refuse(x, "%s: the elements of %s and %s must have the routine's size", name, t.cname(dst.ent), t.cname(src.ent))
	}
	if dst.ent == src.ent {
		t.refuse(x, "%s with overlapping source and destination (the specification leaves it undefined)", name)
	}
	n := int64(t.count(args[2], c.size, dst.ent, name))
	if t.room(x, dst) < n || t.room(x, src) < n {
		t.refuse(x, "%s of %d elements on a buffer with fewer", name, n)
	}
	t.asyncWrite(dst)
	root := t.index(args[3])
	sig, ctx := t.bcastSignal(dst), t.bcastContext()
	count := ""
	if n > 1 {
		count = fmt.Sprintf(", %d", n)
	}
	notRoot, sent := t.label(), t.label()
	t.emit("if rank - 1 != %s goto %s", root, notRoot)
	for j := 1; j <= pgas.MaxRanks; j++ {
		next := t.label()
		if j > 1 {
			t.emit("if N < %d goto %s", j, sent)
		}
		if !c.team {
			t.emit("if rank == %d goto %s", j, next) // the root's dest is not updated
		}
		t.emit("put_signal_add(%s, (rank - rank + %d), %s, %s, 1, %s%s)", src, j, dst, sig, ctx, count)
		t.place(next)
	}
	t.place(sent)
	t.place(notRoot)
	done := t.label()
	if !c.team {
		t.emit("if rank - 1 == %s goto %s", root, done)
	}
	wait := t.label()
	r, s := t.temp(), t.temp()
	t.place(wait)
	t.emit("%s <- mem[%s] when %s >= 1", r, sig, r)
	t.emit("%s <- amo_cswap(%s, %s - 1, rank, %s, %s)", s, r, r, sig, ctx)
	t.emit("if %s != %s goto %s", s, r, wait)
	t.place(done)
	return res
}

// bcastSignal is the hidden counter of broadcasts into dest (a
// symmetric cell per dest object and constant start).
func (t *translator) bcastSignal(dst addrTerm) string {
	key := dst.String()
	if s, ok := t.bcastSigs[key]; ok {
		return s
	}
	s := t.fresh("bcast_sig", "(broadcasts into "+t.cname(dst.ent)+")")
	t.addAddr(&entity{kind: kSym, name: s})
	if t.bcastSigs == nil {
		t.bcastSigs = map[string]string{}
	}
	t.bcastSigs[key] = s
	return s
}

func (t *translator) bcastContext() string {
	if t.bcastCtx == "" {
		t.bcastCtx = t.fresh("bcast_ctx", "(broadcasts)")
		t.ctxs = append(t.ctxs, t.bcastCtx)
	}
	return t.bcastCtx
}
