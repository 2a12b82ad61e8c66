package cycles

import (
	"math/bits"
	"slices"

	"github.com/pgasrob/pgasrob/automata"
)

// The turns of a type's symmetry (symmetry_type.go) are fixed renamings, applied
// to every successor the search emits: rank r's block of Y and its μ go to
// rank perm[r]'s. Done field by field, that was a tenth of the CPU of the
// per-type search on the ring at N = 6. A turn is therefore compiled once
// into moves of bit ranges, and fields that move together (rank r's and
// rank r+1's copies of one variable, which Y's layout puts side by side)
// become one move: a rotation of the ring moves each variable's N copies
// in two ranges instead of N fields.

// bitMove copies the bits s[sw] >> ss & mask to out[dw] at ds.
type bitMove struct {
	sw, dw int
	ss, ds uint
	mask   uint64
}

// compileRename lists the bit moves that rename carries out on the blocks
// of Y and the μ fields for perm, merged where adjacent.
func (ts *typeSym) compileRename(perm []int) []bitMove {
	p := ts.prod
	var mv []bitMove
	add := func(from, to automata.Field) {
		sw, ss, m := from.Place()
		dw, ds, _ := to.Place()
		mv = append(mv, bitMove{sw: sw, dw: dw, ss: ss, ds: ds, mask: m})
	}
	for r := 1; r < len(perm); r++ {
		q := perm[r]
		if q == r {
			continue
		}
		for i, f := range ts.fields[r] {
			add(f, ts.fields[q][i])
		}
		add(p.mu[r-1], p.mu[q-1])
	}
	if ts.ctx != nil {
		ts.ctx.moves(perm, add)
	}
	slices.SortFunc(mv, func(a, b bitMove) int {
		if a.sw != b.sw {
			return a.sw - b.sw
		}
		return int(a.ss) - int(b.ss)
	})
	var out []bitMove
	for _, m := range mv {
		if k := len(out) - 1; k >= 0 {
			last := &out[k]
			w := uint(bits.Len64(last.mask))
			if last.sw == m.sw && last.dw == m.dw && last.ss+w == m.ss && last.ds+w == m.ds {
				nw := w + uint(bits.Len64(m.mask))
				last.mask = ^uint64(0) >> (64 - nw)
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// applyMoves renames s's blocks of Y and μ into out (a copy of s) by a
// compiled renaming.
func applyMoves(s, out automata.State, mv []bitMove) {
	for _, m := range mv {
		out[m.dw] = out[m.dw]&^(m.mask<<m.ds) | (s[m.sw]>>m.ss&m.mask)<<m.ds
	}
}
