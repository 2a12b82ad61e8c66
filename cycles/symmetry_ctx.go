package cycles

import (
	"slices"

	"github.com/pgasrob/pgasrob/automata"
)

// Symmetry inside a cycle type with OpenSHMEM commands. Y's context
// fields lb(r,c,k) and cur(r,c,k) name two ranks, the issuer r and the
// target k (normalform.TargetFields), so a renaming π moves rank r's
// fields about k to π(r)'s about π(k), even when π fixes r. That is the
// renaming of Y's states that the renaming of computations induces: a
// send of r to k becomes a send of π(r) to π(k) (the program respects π:
// its rank argument commutes with it), so the highest part taken by r's
// sends to k is the highest part taken by π(r)'s sends to π(k). The
// per-rank context fields (delayed, last) are in the rank's block
// (normalform.RankFields) and move with it.

// ctxSym is what typeSym keeps for the context fields.
type ctxSym struct {
	tgt  [][][]automata.Field // tgt[r][k]: rank r's fields about target k
	free []int                // free[r]: index of r's free class, -1 if r is not renamed by sortFree
	tup  [][]uint64           // scratch: the tuples about the free ranks
}

func newCtxSym(ts *typeSym) *ctxSym {
	y, n := ts.prod.y, ts.prod.y.N
	if y.TargetFields(1, 1) == nil {
		return nil
	}
	cs := &ctxSym{tgt: make([][][]automata.Field, n+1), free: make([]int, n+1)}
	for r := 1; r <= n; r++ {
		cs.free[r] = -1
		cs.tgt[r] = make([][]automata.Field, n+1)
		for k := 1; k <= n; k++ {
			cs.tgt[r][k] = y.TargetFields(r, k)
		}
	}
	for i, cl := range ts.classes {
		for _, r := range cl {
			cs.free[r] = i
		}
	}
	return cs
}

// rename moves every rank's fields about every target by perm, from s
// into out.
func (cs *ctxSym) rename(s, out automata.State, perm []int) {
	for r := 1; r < len(perm); r++ {
		for k := 1; k < len(perm); k++ {
			if perm[r] == r && perm[k] == k {
				continue
			}
			dst := cs.tgt[perm[r]][perm[k]]
			for i, f := range cs.tgt[r][k] {
				dst[i].Set(out, f.Get(s))
			}
		}
	}
}

// moves lists the same renaming as bit moves (compileRename).
func (cs *ctxSym) moves(perm []int, add func(from, to automata.Field)) {
	for r := 1; r < len(perm); r++ {
		for k := 1; k < len(perm); k++ {
			if perm[r] == r && perm[k] == k {
				continue
			}
			dst := cs.tgt[perm[r]][perm[k]]
			for i, f := range cs.tgt[r][k] {
				add(f, dst[i])
			}
		}
	}
}

// signature appends to sig what s holds about rank r in the target
// fields: its fields about itself, its fields about and the fields about
// it of every rank sortFree does not rename (in rank order), and those of
// the renamed ranks as a sorted list of tuples (class, r's fields about k,
// k's fields about r), which does not depend on their names. Equal
// signatures are not always interchangeable ranks (two free ranks' fields
// about each other are not compared), so an orbit may keep more than one
// canonical state: that costs states, never soundness (canon always
// returns a renaming of its state).
func (cs *ctxSym) signature(s automata.State, r int, sig []uint64) []uint64 {
	for _, f := range cs.tgt[r][r] {
		sig = append(sig, f.Get(s))
	}
	tup := cs.tup[:0]
	for k := 1; k < len(cs.tgt); k++ {
		if k == r {
			continue
		}
		if cs.free[k] < 0 {
			for _, f := range cs.tgt[r][k] {
				sig = append(sig, f.Get(s))
			}
			for _, f := range cs.tgt[k][r] {
				sig = append(sig, f.Get(s))
			}
			continue
		}
		t := []uint64{uint64(cs.free[k])}
		for _, f := range cs.tgt[r][k] {
			t = append(t, f.Get(s))
		}
		for _, f := range cs.tgt[k][r] {
			t = append(t, f.Get(s))
		}
		tup = append(tup, t)
	}
	slices.SortFunc(tup, slices.Compare)
	for _, t := range tup {
		sig = append(sig, t...)
	}
	cs.tup = tup
	return sig
}
