package cycles

import (
	"context"
	"slices"
	"sync"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// Symmetry inside a cycle type. Across cycle types, a renaming of ranks
// that leaves the program unchanged settles a type by another of its orbit
// (symmetry.go). Inside the search of one type c, a renaming π that
// leaves the program unchanged and maps c onto itself maps the product
// for c onto itself, as it maps computations: if it fixes the ranks of c,
// the pairs and marks the tracker follows stay; if it turns c (π(c[i]) =
// c[i+k]), pair i becomes pair i+k. Otherwise only the per-rank blocks of
// a state and the cells the tracker names move. So the search need only
// keep one state per orbit of such renamings: each state is replaced by a
// canonical member of its orbit before it is stored, and a state of the
// product is reachable and accepting exactly when its canonical form is.
//
// The renamings used are the permutations, within each class of ranks the
// code treats alike (rankSymmetry: the full symmetric group of each class
// is in the program's group), of the class members outside c, and the
// turns of c that the program respects (turnsOf). The canonical form is
// the least, over the state and its turns, of their forms with the free
// members of each class sorted by a signature that holds everything of a
// state about one rank: its block of Y, its μ, which pairs name a cell of
// it and its written-cell bits. Two members with equal signatures can be
// swapped without changing the state, so sorting gives one state per
// orbit of the free renamings.
//
// With the partial-order reduction, the ample rank is chosen at the
// canonical state, and the reduction's argument (reduce.go) goes through
// on the quotient: it transforms a concrete accepting path from the
// canonical state, and a renaming maps the rest of that path to one from
// the next canonical state with the same length and the same progress of
// the ranks on the acyclic part of their code taken together.
//
// A violation found this way is a path of canonical states, not a
// computation: realPath follows it in the product, choosing at each step
// the successor with the next canonical form, and that path gives the
// witness (certified as every witness is). Should that fail, the type is
// searched again without the symmetry (witnessSearch).

// typeSym canonicalises the states of one type's product.
type typeSym struct {
	prod    *product
	classes [][]int            // the renamed ranks, per class (at least two each)
	fields  [][]automata.Field // fields[r]: rank r's block of Y
	addrs   int
	perm    []int
	sig     [][]uint64 // per rank: scratch for its signature
	order   []int
	bits    [normalform.Heads + 1][]uint64
	moved   [normalform.Heads + 1][]uint64
	// turns: renamings that map the cycle type onto itself by turning it
	// (perm[c[i]] = c[i+k]); they move pair i to pair i+k.
	turns             []turn
	out, turned, best automata.State
	// turnMoves[j] is turns[j] compiled for Y and μ (symmetry_rename.go).
	turnMoves [][]bitMove
	ctx       *ctxSym // the context fields (symmetry_ctx.go), nil without them
}

type turn struct {
	perm []int
	k    int
}

// newTypeSym returns the canonicaliser of prod's states, or nil when no
// two ranks outside the cycle type are in one class and there is no turn.
func newTypeSym(prod *product, classes [][]int, turns []turn) *typeSym {
	var free [][]int
	for _, cl := range classes {
		var m []int
		for _, r := range cl {
			if !prod.eligible[r] {
				m = append(m, r)
			}
		}
		if len(m) >= 2 {
			free = append(free, m)
		}
	}
	if len(free) == 0 && len(turns) == 0 {
		return nil
	}
	n := prod.y.N
	ts := &typeSym{prod: prod, classes: free, addrs: len(prod.y.P.Addrs), turns: turns,
		perm: make([]int, n+1), sig: make([][]uint64, n+1), out: make(automata.State, prod.width),
		turned: make(automata.State, prod.width), best: make(automata.State, prod.width)}
	ts.fields = make([][]automata.Field, n+1)
	for r := 1; r <= n; r++ {
		ts.fields[r] = prod.y.RankFields(r)
	}
	for h := 2; h <= normalform.Heads; h++ {
		ts.bits[h] = make([]uint64, len(prod.tl.written[h]))
		ts.moved[h] = make([]uint64, len(prod.tl.written[h]))
	}
	ts.ctx = newCtxSym(ts)
	for _, tn := range turns {
		ts.turnMoves = append(ts.turnMoves, ts.compileRename(tn.perm))
	}
	return ts
}

// cellOf returns the cell a packed pair names, or -1.
func cellOf(v uint64) int {
	switch status(v & 7) {
	case stD, stA, stWatch:
		return int(v >> pairCellShift)
	}
	return -1
}

func (ts *typeSym) signature(s automata.State, r int) []uint64 {
	p := ts.prod
	sig := ts.sig[r][:0]
	for _, f := range ts.fields[r] {
		sig = append(sig, f.Get(s))
	}
	sig = append(sig, p.mu[r-1].Get(s))
	lo, hi := (r-1)*ts.addrs, r*ts.addrs
	for _, f := range p.tl.pair {
		if c := cellOf(f.Get(s)); c >= lo && c < hi {
			sig = append(sig, uint64(c-lo+1))
		} else {
			sig = append(sig, 0)
		}
	}
	for h := 2; h <= normalform.Heads; h++ {
		for c := lo; c < hi; c++ {
			w := p.tl.written[h][c/64].Get(s)
			sig = append(sig, w>>(c%64)&1)
		}
	}
	if ts.ctx != nil {
		sig = ts.ctx.signature(s, r, sig)
	}
	ts.sig[r] = sig
	return sig
}

// canon returns the canonical member of s's orbit (in a buffer reused by
// the next call), or s itself when s is canonical already: the least,
// over s and its turns, of their forms with the free ranks sorted. (The
// renamings of the free ranks form a normal subgroup of the group used;
// when the turns found meet every coset of it, canon is the same on a
// whole orbit. When they do not, an orbit may keep more than one state,
// which costs states, never soundness: a stored state is always a
// renaming of the state it stands for.)
func (ts *typeSym) canon(s automata.State) automata.State {
	best := ts.sortFree(s, ts.out)
	if len(ts.turns) == 0 {
		return best
	}
	copy(ts.best, best)
	for j := range ts.turns {
		t := ts.sortFree(ts.renameTurn(s, j, ts.turned), ts.out)
		if slices.Compare(t, ts.best) < 0 {
			copy(ts.best, t)
		}
	}
	return ts.best
}

// sortFree returns s with the free ranks of each class sorted by their
// signatures, written into dst unless s is sorted already.
func (ts *typeSym) sortFree(s, dst automata.State) automata.State {
	moved := false
	for r := range ts.perm {
		ts.perm[r] = r
	}
	for _, cl := range ts.classes {
		for _, r := range cl {
			ts.signature(s, r)
		}
		ts.order = append(ts.order[:0], cl...)
		slices.SortStableFunc(ts.order, func(a, b int) int { return slices.Compare(ts.sig[a], ts.sig[b]) })
		for i, r := range ts.order {
			if ts.perm[r] = cl[i]; cl[i] != r {
				moved = true
			}
		}
	}
	if !moved {
		return s
	}
	return ts.rename(s, ts.perm, 0, dst)
}

// rename applies the renaming perm (perm[r] is the new name of rank r) to
// s, into out; it turns the cycle type by k (pair i becomes pair i+k).
func (ts *typeSym) rename(s automata.State, perm []int, k int, out automata.State) automata.State {
	p := ts.prod
	copy(out, s)
	for r := 1; r < len(perm); r++ {
		q := perm[r]
		if q == r {
			continue
		}
		for i, f := range ts.fields[r] {
			ts.fields[q][i].Set(out, f.Get(s))
		}
		p.mu[q-1].Set(out, p.mu[r-1].Get(s))
	}
	if ts.ctx != nil {
		ts.ctx.rename(s, out, perm)
	}
	return ts.renameTracker(s, perm, k, out)
}

// renameTurn is rename by turns[j], with Y and μ moved by the compiled
// renaming.
func (ts *typeSym) renameTurn(s automata.State, j int, out automata.State) automata.State {
	copy(out, s)
	applyMoves(s, out, ts.turnMoves[j])
	tn := &ts.turns[j]
	return ts.renameTracker(s, tn.perm, tn.k, out)
}

// renameTracker is the part of rename that moves the tracker's pairs and
// written-cell bits, into out, which holds the rest already.
func (ts *typeSym) renameTracker(s automata.State, perm []int, k int, out automata.State) automata.State {
	p := ts.prod
	a := ts.addrs
	pairs := p.tl.pair
	for i, f := range pairs {
		v := f.Get(s)
		if c := cellOf(v); c >= 0 {
			v = v&(1<<pairCellShift-1) | uint64((perm[c/a+1]-1)*a+c%a)<<pairCellShift
		}
		pairs[(i+k)%len(pairs)].Set(out, v)
	}
	for h := 2; h <= normalform.Heads; h++ {
		bits, moved := ts.bits[h], ts.moved[h]
		any := false
		for w, f := range p.tl.written[h] {
			bits[w] = f.Get(s)
			moved[w] = bits[w]
			any = any || bits[w] != 0
		}
		if !any {
			continue // nothing written: the common case
		}
		for r := 1; r < len(perm); r++ {
			if q := perm[r]; q != r {
				putBits(moved, (q-1)*a, a, getBits(bits, (r-1)*a, a))
			}
		}
		for w, f := range p.tl.written[h] {
			f.Set(out, moved[w])
		}
	}
	return out
}

// symProduct is a type's product searched up to the renamings of typeSym.
type symProduct struct {
	*product
	sym  *typeSym
	emit func(automata.Label, automata.State)
	f    func(automata.Label, automata.State)
}

func newSymProduct(prod *product, sym *typeSym) *symProduct {
	sp := &symProduct{product: prod, sym: sym}
	sp.f = sp.canonEmit
	return sp
}

func (sp *symProduct) Initial(emit func(automata.State)) {
	sp.product.Initial(func(s automata.State) { emit(sp.sym.canon(s)) })
}

func (sp *symProduct) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	sp.emit = emit
	sp.product.Successors(s, sp.f)
	sp.emit = nil
}

func (sp *symProduct) canonEmit(l automata.Label, t automata.State) {
	sp.emit(l, sp.sym.canon(t))
}

// Fork gives each worker of the parallel frontier its own product and
// scratch (automata.Forker).
func (sp *symProduct) Fork() automata.System {
	f := sp.product.Fork().(*product)
	return newSymProduct(f, newTypeSym(f, sp.sym.classes, sp.sym.turns))
}

// turnsOf returns renamings the program respects that turn c into
// itself, at most one per k = 1..len-1: π(c[i]) = c[i+k]. The candidates
// are the turn that fixes every other rank, and the powers of the
// rotation r ↦ r mod N + 1, which turn (1 3 5) at N = 6, say, while
// moving 2, 4 and 6. (Any renaming of the program's group that keeps c
// would do; these two kinds are the ones its generators give.)
func turnsOf(p *pgas.Program, n int, c CycleType) []turn {
	L := len(c)
	var cands [][]int
	id := func() []int {
		perm := make([]int, n+1)
		for r := range perm {
			perm[r] = r
		}
		return perm
	}
	for k := 1; k < L; k++ {
		perm := id()
		for i, r := range c {
			perm[r] = c[(i+k)%L]
		}
		cands = append(cands, perm)
	}
	for j := 1; j < n; j++ {
		perm := id()
		for r := 1; r <= n; r++ {
			perm[r] = (r-1+j)%n + 1
		}
		cands = append(cands, perm)
	}
	pos := make([]int, n+1)
	for r := range pos {
		pos[r] = -1
	}
	for i, r := range c {
		pos[r] = i
	}
	have := make([]bool, L)
	var out []turn
	for _, perm := range cands {
		k := pos[perm[c[0]]]
		if k <= 0 || have[k] {
			continue
		}
		ok := true
		for i, r := range c {
			ok = ok && perm[r] == c[(i+k)%L]
		}
		if ok && respects(p, n, perm) {
			have[k] = true
			out = append(out, turn{perm: perm, k: k})
		}
	}
	return out
}

// realPath turns a path of canonical states from the initial state into
// a path of the product full (without the reduction): from each state it
// takes a successor whose canonical form is the next state of the path.
// A renaming that maps the canonical state onto the real one maps the
// canonical state's successor onto a successor of the real one, with the
// same canonical form when canon is the same on a whole orbit; when no
// successor fits (the turns found do not make up the whole group kept by
// the type, and canon is not exact then), it reports false.
func (ts *typeSym) realPath(full *product, path []automata.Step) ([]automata.Step, bool) {
	var cur automata.State
	full.Initial(func(s automata.State) { cur = slices.Clone(s) })
	if !slices.Equal(ts.canon(cur), path[0].State) {
		return nil, false
	}
	out := []automata.Step{{State: cur}}
	for k := 1; k < len(path); k++ {
		want := path[k].State
		var next automata.Step
		found := false
		full.Successors(cur, func(l automata.Label, t automata.State) {
			if !found && slices.Equal(ts.canon(t), want) {
				next, found = automata.Step{Label: l, State: slices.Clone(t)}, true
			}
		})
		if !found {
			return nil, false
		}
		out = append(out, next)
		cur = next.State
	}
	return out, full.Accepting(cur)
}

// witnessSearch searches type c again without the symmetry inside it,
// after the search up to symmetry (whose result is found) met an
// accepting state: that path is one of canonical states, and the
// search without it gives a computation to certify.
func witnessSearch(p *pgas.Program, y *normalform.Y, c CycleType, cache *moveTable, opt Options, ctx context.Context, maxBytes int64, progress func(automata.Stats), found TypeResult) TypeResult {
	opt.NoSymmetry = true
	tr := searchType(p, y, c, cache, opt, ctx, maxBytes, progress, nil)
	tr.Stats.Add(found.Stats)
	switch tr.Outcome {
	case automata.Unknown:
		tr.Reason = "a violation was found up to a renaming of ranks, but the search for its witness stopped: " + tr.Reason
	case automata.Empty:
		// The two searches contradict each other: report no verdict.
		tr.Outcome = automata.Unknown
		tr.Reason = "internal error: the search up to a renaming of ranks found a violation that the search without it does not"
	}
	return tr
}

// classesOf is the classes of rankSymmetry, remembered per program and N.
func classesOf(p *pgas.Program, n int) [][]int {
	key := classKey{p, n}
	if v, ok := classCache.Load(key); ok {
		return v.([][]int)
	}
	_, cl := rankSymmetry(p, n)
	classCache.Store(key, cl)
	return cl
}

type classKey struct {
	p *pgas.Program
	n int
}

var classCache sync.Map

// getBits returns the n <= 64 bits of a starting at bit off.
func getBits(a []uint64, off, n int) uint64 {
	var v uint64
	for i := 0; i < n; {
		w, b := (off+i)/64, (off+i)%64
		k := min(n-i, 64-b)
		v |= (a[w] >> b & (1<<k - 1)) << i
		i += k
	}
	return v
}

// putBits stores the n <= 64 bits of v into a from bit off.
func putBits(a []uint64, off, n int, v uint64) {
	for i := 0; i < n; {
		w, b := (off+i)/64, (off+i)%64
		k := min(n-i, 64-b)
		mask := uint64(1<<k-1) << b
		a[w] = a[w]&^mask | (v>>i)<<b&mask
		i += k
	}
}
