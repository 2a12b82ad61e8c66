package repair

import (
	"sort"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

// constraint lists the candidates (not in cur) that cut an order op ->po b
// of the violation's cycle, where op is an asynchronous remote operation
// (a read, a write, an OpenSHMEM send or recv).
func (r *repairer) constraint(cur []int, v *cycles.Result) ([]int, error) {
	set := r.pick(cur)
	ed, err := r.a.apply(r.src, set)
	if err != nil {
		return nil, err
	}
	p, err := pgas.Compile(r.file, ed.src)
	if err != nil {
		return nil, err
	}
	inCur := map[int]bool{}
	for _, k := range cur {
		inCur[k] = true
	}
	index := map[string]int{}
	for k, c := range r.cands {
		index[c.key()] = k
	}
	var out []int
	seen := map[int]bool{}
	add := func(c Candidate) {
		if k, ok := index[c.key()]; ok && !inCur[k] && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	w := v.Witness
	for _, e := range w.HB {
		if e.Rel == pgas.RelPO {
			r.cutsFor(p.Trans[w.Computation[e.From].Trans], p.Trans[w.Computation[e.To].Trans], ed, add)
		}
	}
	if len(out) == 0 && p.HasCtx() {
		r.classCuts(p, ed, w, add)
	}
	sort.Ints(out)
	return out, nil
}

// cutsFor adds the candidates that cut an order ta ->po tb of the edited
// program, when ta is an asynchronous operation of the input.
func (r *repairer) cutsFor(ta, tb pgas.Trans, ed *edited, add func(Candidate)) {
	switch ta.Cmd.Op {
	case pgas.OpRead, pgas.OpWrite, pgas.OpSend, pgas.OpRecv:
	default:
		return
	}
	opPos, ins, ok := ed.origin(strip(ta.Pos))
	if !ok || ins {
		return
	}
	o, ok := r.a.opAt(opPos)
	if !ok {
		return // get or put: already waits
	}
	bPos, _, ok := ed.origin(strip(tb.Pos))
	if !ok {
		return
	}
	for _, c := range o.fixes() {
		add(c)
	}
	for _, i := range r.a.between(o, bPos) {
		for _, c := range o.cutsBefore(r.a.stmts[i].pos) {
			add(c)
		}
	}
}

// classCuts reads the orders of a cycle with no po edge out of a delayed
// operation: the cycle can leave the operation's ↔-class by a conflict of
// its early pop (a blocking put's source read) and come back by its late
// one, so that the order op ->po b it relies on, b a later statement of
// the same rank on the cycle, is no edge of it. Every two classes of one
// rank on the cycle, the first issued before the second, stand for such an
// order. Used for programs with contexts only, when the po edges give
// nothing: queue programs keep the repairs they had.
func (r *repairer) classCuts(p *pgas.Program, ed *edited, w *cycles.Witness, add func(Candidate)) {
	h := pgas.HappensBefore(w.Computation)
	type class struct{ rank, seq, ev int }
	var cs []class
	seen := map[int]bool{}
	for _, e := range w.HB {
		for _, i := range []int{e.From, e.To} {
			ev := w.Computation[i]
			if seen[h.Class[i]] || ev.Kind == pgas.KBar {
				continue
			}
			seen[h.Class[i]] = true
			cs = append(cs, class{rank: ev.Rank, seq: h.ID(i).Seq, ev: i})
		}
	}
	for _, a := range cs {
		for _, b := range cs {
			if a.rank == b.rank && a.seq >= 0 && a.seq < b.seq {
				r.cutsFor(p.Trans[w.Computation[a.ev].Trans], p.Trans[w.Computation[b.ev].Trans], ed, add)
			}
		}
	}
}
