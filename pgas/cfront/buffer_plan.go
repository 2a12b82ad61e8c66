// What the collapse law keeps of the buffers buffer.go found, and the
// hooks of the translation that apply it (docs/deviations.md, entry 15).

package cfront

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// bufPlan is the shrinking of one translation, for Options.N.
type bufPlan struct {
	n     int
	kept  map[*cc.Declarator]*bufKept
	subst map[cc.ExpressionNode]int64
	// perN names the buffers one N would shrink, when Options.N is 0
	perN []string
	// elems maps the .pgas name of a shrunk buffer to the old index of
	// each kept element (witnesses name the C elements)
	elems map[string][]int64
	order []*bufKept
	heap  map[*cc.PostfixExpression]*bufKept // allocations of shrunk heap buffers
	dead  *deadPlan                          // the dead-check law (tailcheck.go), nil when off
}

// bufKept is what is kept of one buffer.
type bufKept struct {
	pos   pgas.Pos
	name  string // C name
	size  int64
	old   []int64 // old index of each new index
	spans [][2]int64
	block int64 // cells per block of a blocked buffer (buffer_block.go), else 0
}

// bufGroup is a set of buffers shrunk together and their accesses.
type bufGroup struct {
	bufs []*bufCand
	accs []*bufAccess
	bad  bool
}

// planBuffers computes the plan for n PEs (0: none, only perN).
func planBuffers(a *bufAnalysis, n int) *bufPlan {
	p := &bufPlan{n: n, kept: map[*cc.Declarator]*bufKept{}, subst: map[cc.ExpressionNode]int64{}}
	for _, acc := range a.accs {
		for _, b := range acc.bufs[1:] {
			if r1, r2 := acc.bufs[0].root(), b.root(); r1 != r2 {
				r2.parent = r1
			}
		}
	}
	groups := map[*bufCand]*bufGroup{}
	var order []*bufGroup
	for _, c := range a.order {
		g := groups[c.root()]
		if g == nil {
			g = &bufGroup{}
			groups[c.root()] = g
			order = append(order, g)
		}
		g.bufs = append(g.bufs, c)
		g.bad = g.bad || c.bad || c.size != g.bufs[0].size
	}
	for _, acc := range a.accs {
		g := groups[acc.bufs[0].root()]
		g.accs = append(g.accs, acc)
	}
	for _, g := range order {
		if g.bad {
			continue
		}
		if n == 0 {
			if newOf, _ := g.intervals(2); newOf(g.bufs[0].size) < g.bufs[0].size {
				for _, b := range g.bufs {
					p.perN = append(p.perN, b.d.Name())
				}
			}
			continue
		}
		if n >= 2 {
			p.shrink(g, n)
		}
	}
	return p
}

// intervals splits the group's index space at the ends of its accesses
// and keeps min(length, n) of each interval: newOf maps an old boundary to
// its new index, spans are the kept old indices.
func (g *bufGroup) intervals(n int64) (newOf func(int64) int64, spans [][2]int64) {
	size := g.bufs[0].size
	cuts := []int64{0, size}
	for _, acc := range g.accs {
		cuts = append(cuts, acc.lo, acc.hi)
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	at := map[int64]int64{0: 0}
	var k int64
	for i := 0; i+1 < len(cuts); i++ {
		keep := min(cuts[i+1]-cuts[i], n)
		spans = append(spans, [2]int64{cuts[i], cuts[i] + keep})
		k += keep
		at[cuts[i+1]] = k
	}
	return func(b int64) int64 { return at[b] }, spans
}

// shrink applies the law to a group for n PEs.
func (p *bufPlan) shrink(g *bufGroup, n int) {
	newOf, spans := g.intervals(int64(n))
	size := g.bufs[0].size
	if newOf(size) == size {
		return
	}
	for _, b := range g.bufs {
		dp := b.d.Position()
		k := &bufKept{pos: pgas.Pos{File: dp.Filename, Line: dp.Line, Col: dp.Column}, name: b.d.Name(), size: size, spans: spans}
		if b.block != nil { // buffer_block.go: every block alike
			k.old, k.size, k.block = blockOld(spans, size, n), size*int64(n), size
			p.blockSubst(b, newOf(size))
		}
		for _, s := range spans {
			for i := s[0]; i < s[1] && b.block == nil; i++ {
				k.old = append(k.old, i)
			}
		}
		p.kept[b.d] = k
		p.order = append(p.order, k)
		if b.alloc != nil {
			p.heapSubst(b, k)
		}
	}
	for _, acc := range g.accs {
		lo, hi := newOf(acc.lo), newOf(acc.hi)
		if acc.bound != nil {
			p.subst[acc.bound] = hi
		}
		if acc.last != nil {
			p.subst[acc.last] = hi - 1
		}
		if acc.count != nil {
			p.subst[acc.count] = (hi - lo) * acc.bufs[0].elem / acc.unit
		}
		for _, o := range acc.offs {
			p.subst[o] = lo
		}
		for _, z := range acc.zeros {
			p.subst[z] = 0
		}
	}
}

// describe is "dest[0], dest[1..3]": the kept elements, by old index.
func (k *bufKept) describe() string {
	var parts []string
	for _, s := range k.spans {
		if s[1]-s[0] == 1 {
			parts = append(parts, fmt.Sprintf("%s[%d]", k.name, s[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%s[%d..%d]", k.name, s[0], s[1]-1))
		}
	}
	if k.block > 0 {
		return strings.Join(parts, ", ") + fmt.Sprintf(" of each block of %d", k.block)
	}
	return strings.Join(parts, ", ")
}

// Hooks of the translation.

// bufCells is the number of cells kept of the array d, if it is shrunk.
func (t *translator) bufCells(d *cc.Declarator) (int64, bool) {
	if t.buf == nil {
		return 0, false
	}
	k, ok := t.buf.kept[d]
	if !ok {
		return 0, false
	}
	return int64(len(k.old)), true
}

// bufSubst is the rewritten constant of a node of the C program (a loop
// bound, a count, an index, a value stored), if any.
func (t *translator) bufSubst(e cc.ExpressionNode) (int64, bool) {
	if t.buf == nil || e == nil {
		return 0, false
	}
	v, ok := t.buf.subst[e]
	return v, ok
}

// bufEntity records the .pgas name of a shrunk buffer's object.
func (t *translator) bufEntity(d *cc.Declarator, e *entity) {
	if t.buf == nil {
		return
	}
	if k, ok := t.buf.kept[d]; ok {
		if t.buf.elems == nil {
			t.buf.elems = map[string][]int64{}
		}
		t.buf.elems[e.name] = k.old
	}
}

// bufZeroInit stores the initial value of a shrunk private buffer: 0 in
// every kept cell (the law replaces the values stored by 0).
func (t *translator) bufZeroInit(e *entity, init *cc.Initializer) {
	old := t.atDecl(e, init)
	for i := 0; i < e.length; i++ {
		t.emit("mem[%s] <- 0", elemAddr(e.name, fmt.Sprint(i)))
	}
	t.cur = old
}

// assumeCollapse is the assumption ID of a translation with shrunk
// buffers; assumeFullSize of one for no N that keeps them whole.
const (
	assumeCollapse = "buffer-collapse"
	assumeFullSize = "buffer-full-size"
)

// bufAssumptions says what the plan did.
func (t *translator) bufAssumptions() []pgas.Assumption {
	if t.buf == nil {
		return nil
	}
	out := t.buf.dead.assumptions() // tailcheck.go
	if len(t.buf.order) > 0 {
		var parts []string
		for _, k := range t.buf.order {
			parts = append(parts, fmt.Sprintf("%s: %d elements checked as %d (%s)", k.name, k.size, len(k.old), k.describe()))
		}
		out = append(out, pgas.Assumption{ID: assumeCollapse, Text: "buffer " + strings.Join(parts, "; buffer ") +
			fmt.Sprintf(": the collapse law (docs/deviations.md, entry 15) gives the same verdict for %d PEs; every value stored in them is replaced by 0", t.opt.N)})
	}
	if len(t.buf.perN) > 0 {
		out = append(out, pgas.Assumption{ID: assumeFullSize, Text: "buffer " + strings.Join(t.buf.perN, ", ") +
			" checked at full size: the collapse law (docs/deviations.md, entry 15) shrinks them for one N (-n N)"})
	}
	return out
}

// BuffersPerN reports whether p, translated for no particular N, has
// buffers that a translation for one N would check at a smaller size:
// decide and cycles with a range then translate it once per N
// (cmd/pgasrob/pern.go).
func BuffersPerN(p *pgas.Program) bool {
	for _, a := range p.Assumptions {
		if a.ID == assumeFullSize {
			return true
		}
	}
	return false
}

// oldElem is the C index of element i of the .pgas array name.
func (r *Result) oldElem(name string, i int) int {
	if old, ok := r.Elems[name]; ok && i >= 0 && i < len(old) {
		return int(old[i])
	}
	return i
}

// elemSuffix is the C index shown for element suffix of array base.
func (r *Result) elemSuffix(base, suffix string) string {
	var i int
	if _, err := fmt.Sscan(suffix, &i); err != nil || r.Elems == nil {
		return suffix
	}
	return fmt.Sprint(r.oldElem(base, i))
}

// planFor runs the analysis and the plan; a fault of the analysis leaves
// every buffer at its size (the translation then reports what it reports
// today).
func planFor(ast *cc.AST, n int, deadLaw bool) (p *bufPlan) {
	defer func() {
		if recover() != nil {
			p = nil
		}
	}()
	var dead *deadPlan
	if deadLaw {
		dead = analyseDead(ast)
	}
	p = planBuffers(analyseBuffersWith(ast, dead), n)
	p.dead = dead
	return p
}

// warnings are one line per shrunk buffer, at its declaration: what the
// verdict is about.
func (p *bufPlan) warnings() []pgas.Diag {
	out := p.dead.warnings() // tailcheck.go
	for _, k := range p.order {
		out = append(out, pgas.Diag{Pos: k.pos, Msg: fmt.Sprintf("buffer %s: %d elements checked as %d for N = %d, %s (collapse law, docs/deviations.md entry 15; the values stored in it are taken as 0)", k.name, k.size, len(k.old), p.n, k.describe())})
	}
	return out
}

// bufOnly keeps the assumptions of the plan.
func bufOnly(as []pgas.Assumption) []pgas.Assumption {
	var out []pgas.Assumption
	for _, a := range as {
		if a.ID == assumeCollapse || a.ID == assumeFullSize || a.ID == assumeDeadChecks {
			out = append(out, a)
		}
	}
	return out
}

// bufConst is the constant of e, rewritten if the plan rewrites it.
func (t *translator) bufConst(e cc.ExpressionNode) (int64, bool) {
	if v, ok := t.bufSubst(e); ok {
		return v, true
	}
	return constValue(e)
}
