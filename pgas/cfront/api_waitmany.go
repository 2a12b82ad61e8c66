// OpenSHMEM point-to-point synchronisation on several ivars (_all, _any,
// _some and their _vector forms).

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// The point-to-point routines on several ivars: wait_until_all/any/some,
// test_all/any/some and their _vector forms, with a status array
// (docs/shmem.md, "Waiting on several ivars", has each translation and
// why it is exact). maxOrders bounds the cells whose polling orders are
// all explored.
const maxOrders = 3

// ivarSet is the parsed arguments of one such call.
type ivarSet struct {
	name    string
	base    addrTerm  // ivars: symmetric cells
	n       int       // nelems
	status  *addrTerm // nil for NULL; a private array otherwise
	indices *addrTerm // _some: a private array
	op      string    // comparison
	val     string    // the comparison value; "" for _vector
	vec     *addrTerm // _vector: cmp_values, a private array
	// registers, filled by prologue: status and comparison value per cell
	sreg, creg []string
}

// manyIvars translates the routines of this file other than
// wait_until_all/any with status NULL and one value (waitMany, whose
// translation predates these and is kept).
func (t *translator) manyIvars(x *cc.PostfixExpression, name string, c shmemCall, args []cc.ExpressionNode) string {
	op := strings.TrimSuffix(c.op, "_vector")
	vector := op != c.op
	some := strings.HasSuffix(op, "_some")
	want := 5
	if some {
		want = 6
	}
	t.arity(x, name, args, want)
	s := &ivarSet{name: name}
	s.base = t.pointer(args[0])
	if s.base.ent.kind != kSym {
		t.refuse(args[0], "%s is not symmetric: the ivars of %s must be a global or static array", t.cname(s.base.ent), name)
	}
	t.sizeMatch(x, c, s.base)
	s.n = t.count(args[1], 0, s.base.ent, name)
	t.check(args[0], s.base, s.n)
	if op != "wait_until_any" && s.n > maxOrders {
		t.refuse(args[1], "%s of %d cells: at most %d (every polling order is explored)", name, s.n, maxOrders)
	}
	rest := args[2:]
	if some {
		if t.isNullArg(rest[0]) {
			t.refuse(rest[0], "indices argument of %s: a local array, not NULL", name)
		}
		s.indices = t.privateArray(rest[0], "indices", name, s.n, 0)
		rest = rest[1:]
	}
	if !t.isNullArg(rest[0]) {
		s.status = t.privateArray(rest[0], "status", name, s.n, 0)
	}
	s.op = t.cmp(rest[1])
	if vector {
		s.vec = t.privateArray(rest[2], "cmp_values", name, s.n, s.base.ent.elem)
	} else {
		s.val = t.value(rest[2])
	}
	// Registers and indices hold indices up to n-1, and counts and the
	// SIZE_MAX sentinel up to n: values of the data domain.
	if some || op == "test_any" || op == "wait_until_any" {
		t.needValue(args[1], s.n)
	}
	t.prologue(s)
	switch op {
	case "test_all":
		return t.testAll(s)
	case "test_any":
		return t.testAny(s)
	case "test_some":
		return t.testSome(s)
	case "wait_until_all":
		return t.waitAll(s)
	case "wait_until_any":
		return t.waitAny(s)
	case "wait_until_some":
		return t.waitSome(s)
	}
	t.refuse(x, "%s is outside the subset", name)
	return ""
}

// privateArray is a status, indices or cmp_values argument: an array of
// the calling PE that no other PE can touch (a local array), so the
// position of its accesses among the routine's ivar loads changes no
// happens-before edge between PEs (docs/shmem.md).
func (t *translator) privateArray(e cc.ExpressionNode, what, name string, n int, elem int64) *addrTerm {
	a := t.pointer(e)
	if a.ent.kind != kCell {
		t.refuse(e, "%s argument of %s: only NULL or a local array is in the subset (%s is not local)", what, name, t.cname(a.ent))
	}
	if elem != 0 && a.ent.elem != elem {
		t.refuse(e, "%s of %s: its elements must have the size of the ivars'", what, name)
	}
	t.check(e, a, n)
	return &a
}

// needValue makes v a value of the domain, or refuses when "#pragma
// pgasrob values" sets a smaller one.
func (t *translator) needValue(n cc.Node, v int) {
	if t.opt.Values > 0 && v >= t.opt.Values {
		t.refuse(n, "this call stores indices, counts or SIZE_MAX up to %d, outside the data domain 0..%d (raise values)", v, t.opt.Values-1)
	}
	t.constant(n, int64(v))
}

// prologue reads the status and the comparison values of every cell,
// in index order, into registers.
func (t *translator) prologue(s *ivarSet) {
	for i := 0; i < s.n; i++ {
		off := fmt.Sprint(i)
		if s.status != nil {
			r := t.temp()
			t.emit("%s <- mem[%s]", r, s.status.plus(off))
			s.sreg = append(s.sreg, r)
		}
		if s.vec != nil {
			r := t.temp()
			t.emit("%s <- mem[%s]", r, s.vec.plus(off))
			s.creg = append(s.creg, r)
		}
	}
}

// selected is cell i's status test ("1" without a status array).
func (s *ivarSet) selected(i int) string {
	if s.status == nil {
		return "1"
	}
	return fmt.Sprintf("(%s == 0)", s.sreg[i])
}

// holds is the comparison of cell i's value r.
func (s *ivarSet) holds(i int, r string) string {
	v := s.val
	if s.vec != nil {
		v = s.creg[i]
	}
	return fmt.Sprintf("(%s %s %s)", r, s.op, v)
}

// satisfied is "cell i is selected and its loaded value r satisfies".
func (s *ivarSet) satisfied(i int, r []string) string {
	if s.status == nil {
		return s.holds(i, r[i])
	}
	return fmt.Sprintf("(%s && %s)", s.selected(i), s.holds(i, r[i]))
}

func (s *ivarSet) noneSelected() string {
	var sel []string
	for i := 0; i < s.n; i++ {
		sel = append(sel, s.selected(i))
	}
	return "!(" + strings.Join(sel, " || ") + ")"
}

// loads reads every selected cell once, in an order chosen among all
// orders (the routine promises none); awaitAt >= 0 makes that cell's
// load an atomic await on its condition. r[i] receives cell i.
func (t *translator) loads(s *ivarSet, r []string, awaitAt int) {
	t.anyOrder(s.n, "", func(i int) { t.loadOne(s, r, i, i == awaitAt) })
}

func (t *translator) loadOne(s *ivarSet, r []string, i int, await bool) {
	cell := s.base.plus(fmt.Sprint(i))
	if await {
		// the branch that awaits cell i was taken only if it is selected
		t.emit("%s <- mem[%s] when %s", r[i], cell, s.holds(i, r[i]))
		return
	}
	skip := ""
	if s.status != nil {
		skip = t.label()
		t.emit("if !%s goto %s", s.selected(i), skip)
	}
	t.emit("%s <- mem[%s]", r[i], cell)
	if skip != "" {
		t.place(skip)
	}
}

func (t *translator) regsFor(s *ivarSet) []string {
	r := make([]string, s.n)
	for i := range r {
		r[i] = t.temp()
	}
	return r
}

// testAll is 1 iff every selected cell satisfies the comparison (1 when
// none is selected).
func (t *translator) testAll(s *ivarSet) string {
	r := t.regsFor(s)
	t.loads(s, r, -1)
	var all []string
	for i := 0; i < s.n; i++ {
		if s.status == nil {
			all = append(all, s.holds(i, r[i]))
		} else {
			all = append(all, fmt.Sprintf("(!%s || %s)", s.selected(i), s.holds(i, r[i])))
		}
	}
	res := t.temp()
	t.emit("%s <- (%s)", res, strings.Join(all, " && "))
	return res
}

// testAny returns the index of some satisfied cell, any of them (a
// choice), or SIZE_MAX when none is (the sentinel n, see sizeMax).
func (t *translator) testAny(s *ivarSet) string {
	r := t.regsFor(s)
	t.loads(s, r, -1)
	res := t.temp()
	end := t.label()
	var ls []string
	for i := 0; i <= s.n; i++ {
		ls = append(ls, t.label())
	}
	t.emit("goto %s", strings.Join(ls, ", "))
	var any []string
	for i := 0; i < s.n; i++ {
		t.place(ls[i])
		t.emit("assume %s", s.satisfied(i, r))
		t.emit("%s <- %d; goto %s", res, i, end)
		any = append(any, s.satisfied(i, r))
	}
	t.place(ls[s.n])
	t.emit("assume !(%s)", strings.Join(any, " || "))
	t.emit("%s <- %d", res, s.n)
	t.place(end)
	t.markSizeMax(res, s.n)
	return res
}

// record writes the indices of the satisfied cells into indices, in an
// order chosen among all orders (the routine promises none), and returns
// their number.
func (t *translator) record(s *ivarSet, r []string) string {
	k := t.temp()
	t.emit("%s <- 0", k)
	t.anyOrder(s.n, "", func(i int) {
		next := t.label()
		t.emit("if !%s goto %s", s.satisfied(i, r), next)
		t.emit("mem[%s] <- %d", s.indices.plus(k), i)
		t.emit("%s <- %s + 1", k, k)
		t.place(next)
	})
	return k
}

func (t *translator) testSome(s *ivarSet) string {
	r := t.regsFor(s)
	t.loads(s, r, -1)
	return t.record(s, r)
}

// waitAll awaits every selected cell, in an order chosen among all.
func (t *translator) waitAll(s *ivarSet) string {
	r := t.temp()
	t.anyOrder(s.n, "", func(i int) {
		skip := ""
		if s.status != nil {
			skip = t.label()
			t.emit("if !%s goto %s", s.selected(i), skip)
		}
		t.emit("%s <- mem[%s] when %s", r, s.base.plus(fmt.Sprint(i)), s.holds(i, r))
		if skip != "" {
			t.place(skip)
		}
	})
	return ""
}

// waitAny awaits one selected cell, any of them, and returns its index;
// with a status array selecting none it returns SIZE_MAX at once.
func (t *translator) waitAny(s *ivarSet) string {
	r := t.temp()
	res := t.temp()
	end := t.label()
	var ls []string
	for i := 0; i < s.n; i++ {
		ls = append(ls, t.label())
	}
	if s.status != nil {
		ls = append(ls, t.label())
	}
	if len(ls) > 1 {
		t.emit("goto %s", strings.Join(ls, ", "))
	}
	for i := 0; i < s.n; i++ {
		if len(ls) > 1 {
			t.place(ls[i])
		}
		if s.status != nil {
			t.emit("assume %s", s.selected(i))
		}
		t.emit("%s <- mem[%s] when %s", r, s.base.plus(fmt.Sprint(i)), s.holds(i, r))
		t.emit("%s <- %d; goto %s", res, i, end)
	}
	if s.status != nil {
		t.place(ls[s.n])
		t.emit("assume %s", s.noneSelected())
		t.emit("%s <- %d", res, s.n)
		t.markSizeMax(res, s.n)
	}
	t.place(end)
	return res
}

// waitSome is the last polling round of the routine: every selected
// cell loaded once in some order, one of them (any) by an atomic await,
// so that at least one is satisfied; then the indices as test_some. With
// a status array selecting none it returns 0 at once.
func (t *translator) waitSome(s *ivarSet) string {
	r := t.regsFor(s)
	var ls []string
	for i := 0; i < s.n; i++ {
		ls = append(ls, t.label())
	}
	if s.status != nil {
		ls = append(ls, t.label())
	}
	join := t.label()
	if len(ls) > 1 {
		t.emit("goto %s", strings.Join(ls, ", "))
	}
	for j := 0; j < s.n; j++ {
		if len(ls) > 1 {
			t.place(ls[j])
		}
		if s.status != nil {
			t.emit("assume %s", s.selected(j))
		}
		t.loads(s, r, j)
		t.emit("goto %s", join)
	}
	if s.status != nil {
		t.place(ls[s.n])
		t.emit("assume %s", s.noneSelected()) // nothing is loaded; no cell counts
	}
	t.place(join)
	return t.record(s, r)
}

// anyOrder emits a choice among every order of 0..n-1 (one branch per
// permutation, none when n < 2), running body on the indices of each
// branch in its order; the branches meet at join (a new label when "").
// The wait routines use it where the specification promises no order.
func (t *translator) anyOrder(n int, join string, body func(i int)) {
	t.anyPerm(n, join, func(p []int) {
		for _, i := range p {
			body(i)
		}
	})
}

// anyPerm is anyOrder with body run once per branch, on its permutation.
func (t *translator) anyPerm(n int, join string, body func(p []int)) {
	perms := permutations(n)
	ls := make([]string, len(perms))
	for k := range ls {
		ls[k] = t.label()
	}
	if join == "" {
		join = t.label()
	}
	if len(ls) > 1 {
		t.emit("goto %s", strings.Join(ls, ", "))
	}
	for k, p := range perms {
		if len(ls) > 1 {
			t.place(ls[k])
		}
		body(p)
		t.emit("goto %s", join)
	}
	t.place(join)
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}
