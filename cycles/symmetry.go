package cycles

import (
	"github.com/pgasrob/pgasrob/pgas"
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
// registers are not analysed, and then no symmetry is used. (c) A barrier
// over part of the ranks needs π to map its set onto itself, as for a
// constant rank: π then maps a barrier over the set to a barrier over the
// same set, and its bar events keep their Event.Item. The order of the bar
// events inside one barrier changes under renaming; happens-before and the
// tracker treat a barrier as a whole, so that order is immaterial.
//
// rankSymmetry finds the group; symGroup (symmetry_group.go) finds each
// type's representative in it without listing the orbit.

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
		if c.Op == pgas.OpBarrier && !respectsSet(p, c, n, perm) {
			return false
		}
		for _, e := range []*pgas.Expr{c.Addr, c.Val, c.Val2, c.Guard, c.Local, c.Remote, c.Queue, c.Rank} {
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

func identity(n int) []int {
	g := make([]int, n+1)
	for r := range g {
		g[r] = r
	}
	return g
}

// classGens are the swap of the two smallest ranks of m and the cycle
// through m, which generate the symmetric group of m.
func classGens(n int, m []int) [][]int {
	swap, cyc := identity(n), identity(n)
	swap[m[0]], swap[m[1]] = m[1], m[0]
	for k, x := range m {
		cyc[x] = m[(k+1)%len(m)]
	}
	return [][]int{swap, cyc}
}

// rankSymmetry finds a group of rank permutations the program is invariant
// under. Candidates: the rotation r ↦ r mod N + 1 (returned as a
// permutation, nil if the program does not respect it), and every
// transposition of two ranks. The transpositions the program respects
// link ranks into classes (ranks the code treats alike, for example every
// rank but a constant 1), and generate the full symmetric group of each
// class; the classes of two ranks or more are returned, each in
// increasing order. Each class's generators (classGens) are checked with
// respects as well: invariance is kept by composition, so the whole group
// is sound. The rotation maps classes onto classes (it conjugates a
// respected transposition into a respected one), which symGroup relies on.
func rankSymmetry(p *pgas.Program, n int) (rot []int, classes [][]int) {
	if n < 2 {
		return nil, nil
	}
	r0 := identity(n)
	for r := 1; r <= n; r++ {
		r0[r] = r%n + 1
	}
	if respects(p, n, r0) {
		rot = r0
	}
	// Classes of ranks linked by respected transpositions (union-find).
	class := identity(n)
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
			t := identity(n)
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
		gens := classGens(n, m)
		if !respects(p, n, gens[0]) || !respects(p, n, gens[1]) {
			// Cannot happen (both are products of respected
			// transpositions); if it did, the classes would not be a
			// group the program respects: use none of them.
			return rot, nil
		}
		classes = append(classes, m)
	}
	return rot, classes
}

// respectsSet reports whether perm maps the set of barrier c onto itself.
func respectsSet(p *pgas.Program, c *pgas.Cmd, n int, perm []int) bool {
	if c.Set == nil {
		return true
	}
	set, err := p.BarrierSet(c, n)
	if err != nil {
		return false
	}
	var img pgas.RankMask
	for _, r := range set.Ranks() {
		img |= 1 << uint(perm[r]-1)
	}
	return img == set
}
