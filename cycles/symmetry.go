package cycles

import (
	"context"

	"pgasrob/pgas"
)

// Rank symmetry. Every rank runs the same code, so when the code treats
// ranks uniformly, renaming the ranks by a permutation π maps computations
// to computations, happens-before to happens-before, and the product for
// cycle type c onto the product for π(c). Then c and π(c) have the same
// verdict, and only one cycle type per orbit needs a search.
//
// The code treats ranks uniformly under π when (a) every rank argument of
// a remote command is register-free and commutes with π: e(π(r)) = π(e(r))
// for every rank r (as `rank` and `rank % N + 1` do under rotation, and a
// constant such as `1` or `N` does not), and (b) every other expression
// that reads `rank` is register-free and does not depend on the rank:
// e(π(r)) = e(r). Expressions that mix `rank` with
// registers are not analysed, and then no symmetry is used. The order of
// the bar events inside one barrier changes under renaming; happens-before
// and the tracker treat a barrier as a whole, so that order is immaterial.

func mentionsRank(e *pgas.Expr) bool {
	if e == nil {
		return false
	}
	for _, in := range e.Code {
		if in.Op == pgas.XRank {
			return true
		}
	}
	return false
}

// respects reports whether the program is invariant under the permutation
// perm of 1..n (perm[r] is the image of r; perm[0] unused).
func respects(p *pgas.Program, n int, perm []int) bool {
	eval := func(e *pgas.Expr, r int) (int64, bool) {
		v, err := e.Eval(pgas.Env{Rank: int64(r), N: int64(n)})
		return v, err == nil
	}
	for _, t := range p.Trans {
		c := &t.Cmd
		for _, e := range []*pgas.Expr{c.Addr, c.Val, c.Guard, c.Local, c.Remote, c.Queue, c.Rank} {
			// A rank argument must commute with the renaming even when it
			// does not read `rank`: a constant rank such as 1 or N names
			// one particular process.
			if e == nil || (e != c.Rank && !mentionsRank(e)) {
				continue
			}
			if len(e.Regs()) > 0 {
				return false
			}
			for r := 1; r <= n; r++ {
				a, ok1 := eval(e, r)
				b, ok2 := eval(e, perm[r])
				if !ok1 || !ok2 {
					return false
				}
				if e == c.Rank {
					if a < 1 || a > int64(n) || b != int64(perm[a]) {
						return false
					}
				} else if a != b {
					return false
				}
			}
		}
	}
	return true
}

// symmetries returns generators of a group of rank permutations the program
// is invariant under. Candidates: the rotation r ↦ r mod N + 1, and every
// transposition of two ranks. The transpositions the program respects
// link ranks into classes (ranks the code treats alike, for example every
// rank but a constant 1), and generate the full symmetric group of each
// class; each class is given by two generators, the swap of its two
// smallest ranks and the cycle through all of it, so that the orbit
// computation stays cheap. Every generator is checked with respects:
// invariance is kept by composition, so the whole group is sound.
func symmetries(p *pgas.Program, n int) [][]int {
	if n < 2 {
		return nil
	}
	id := func() []int {
		g := make([]int, n+1)
		for r := range g {
			g[r] = r
		}
		return g
	}
	var gens [][]int
	rot := id()
	for r := 1; r <= n; r++ {
		rot[r] = r%n + 1
	}
	if respects(p, n, rot) {
		gens = append(gens, rot)
	}
	// Classes of ranks linked by respected transpositions (union-find).
	class := id()
	var find func(r int) int
	find = func(r int) int {
		for class[r] != r {
			class[r] = class[class[r]]
			r = class[r]
		}
		return r
	}
	for i := 1; i <= n; i++ {
		for j := i + 1; j <= n; j++ {
			if find(i) == find(j) {
				continue
			}
			t := id()
			t[i], t[j] = j, i
			if respects(p, n, t) {
				class[find(j)] = find(i)
			}
		}
	}
	members := map[int][]int{}
	for r := 1; r <= n; r++ {
		members[find(r)] = append(members[find(r)], r)
	}
	for r := 1; r <= n; r++ {
		m := members[r]
		if len(m) < 2 {
			continue
		}
		swap, cyc := id(), id()
		swap[m[0]], swap[m[1]] = m[1], m[0]
		for k, x := range m {
			cyc[x] = m[(k+1)%len(m)]
		}
		for _, g := range [][]int{swap, cyc} {
			if respects(p, n, g) {
				gens = append(gens, g)
			}
		}
	}
	return gens
}

func (c CycleType) apply(perm []int) CycleType {
	d := make(CycleType, len(c))
	for i, r := range c {
		d[i] = perm[r]
	}
	m := 0
	for i := range d {
		if d[i] < d[m] {
			m = i
		}
	}
	return append(d[m:], d[:m]...)
}

// orbits maps every cycle type to the index of the first cycle type of its
// orbit under the generators (itself when no symmetry applies).
func orbits(ctx context.Context, types []CycleType, gens [][]int) []int {
	rep := make([]int, len(types))
	index := map[string]int{}
	for i, c := range types {
		index[c.String()] = i
		rep[i] = -1
	}
	for i := range types {
		if rep[i] >= 0 {
			continue
		}
		if i&1023 == 0 && ctx.Err() != nil {
			// Stopped: the rest stand for themselves (and are not searched).
			for j := i; j < len(types); j++ {
				if rep[j] < 0 {
					rep[j] = j
				}
			}
			break
		}
		queue := []int{i}
		rep[i] = i
		for len(queue) > 0 {
			c := types[queue[0]]
			queue = queue[1:]
			for _, g := range gens {
				j, ok := index[c.apply(g).String()]
				if ok && rep[j] < 0 {
					rep[j] = i
					queue = append(queue, j)
				}
			}
		}
	}
	return rep
}
