package cycles

import (
	"slices"

	"github.com/pgasrob/pgasrob/pgas"
)

// symGroup is the group of rank renamings of rankSymmetry, used one cycle
// type at a time: H, the product of the symmetric groups of the classes,
// and, if the program respects the rotation ρ, every ρ^t·H (ρ permutes
// the classes, so H is normal and these cosets are the whole group
// generated). A type's orbit representative is its least image in the
// order of CycleTypes; every image has the type's length, so that is the
// lexicographically least canonical image.
//
// The least image is found without the orbit: the images of c under H·ρ^t
// read from a start s are the sequences u = ρ^t(c) rotated by s with each
// rank replaced injectively by a rank of its class, and the least of them
// gives the t-th occurrence of a class its t-th smallest rank (greedy).
// The least over all t and s starts with its smallest rank (else its
// canonical rotation, also a candidate, would be less), so it is
// canonical, and it is the representative. Cost: O(N·k²) per type of
// length k, and far less when c is not a representative (the comparison
// with c usually ends at the first rank).
type symGroup struct {
	n       int
	rot     bool
	cls     []int   // cls[r]: index of r's class in members, -1 if r is alone
	members [][]int // each class, in increasing order
	cnt     []int   // scratch: ranks of each class used so far
	u       []int   // scratch: ρ^t(c)
}

// newSymGroup is the group for p and n, or the trivial group when off.
func newSymGroup(p *pgas.Program, n int, off bool) *symGroup {
	g := &symGroup{n: n, cls: make([]int, n+1), u: make([]int, n)}
	for r := range g.cls {
		g.cls[r] = -1
	}
	if off {
		return g
	}
	rot, classes := rankSymmetry(p, n)
	g.rot = rot != nil
	g.members = classes
	for i, m := range classes {
		for _, r := range m {
			g.cls[r] = i
		}
	}
	g.cnt = make([]int, len(classes))
	return g
}

// trivial reports whether every type is its own representative.
func (g *symGroup) trivial() bool { return !g.rot && len(g.members) == 0 }

// keepPrefix is a test every prefix of a representative passes: each rank
// of a class is the smallest of its class not used before it (the least
// image is greedy). It lets the walk skip whole subtrees of types.
func (g *symGroup) keepPrefix(prefix []int) bool {
	if len(g.members) == 0 {
		return true
	}
	clear(g.cnt)
	for _, r := range prefix {
		if c := g.cls[r]; c >= 0 {
			if g.members[c][g.cnt[c]] != r {
				return false
			}
			g.cnt[c]++
		}
	}
	return true
}

// rotations is how many powers of ρ the group holds apart from H.
func (g *symGroup) rotations() int {
	if g.rot {
		return g.n
	}
	return 1
}

// image writes into out the greedy image of ρ^t(c) read from start s
// (the least image under H of that sequence).
func (g *symGroup) image(c CycleType, t, s int, out []int) {
	k := len(c)
	clear(g.cnt)
	for i := 0; i < k; i++ {
		x := (c[(s+i)%k]-1+t)%g.n + 1
		if cl := g.cls[x]; cl >= 0 {
			x = g.members[cl][g.cnt[cl]]
			g.cnt[cl]++
		}
		out[i] = x
	}
}

// isRep reports whether the canonical type c is the representative of its
// orbit: no image is less than c.
func (g *symGroup) isRep(c CycleType) bool {
	return g.trivial() || !g.lessImage(c, nil)
}

// canon returns the representative of c's orbit (a new slice).
func (g *symGroup) canon(c CycleType) CycleType {
	best := append(CycleType(nil), c...)
	if !g.trivial() {
		g.lessImage(c, best)
	}
	return best
}

// lessImage walks the images of c and reports whether one is less than
// best, copying each such image into best; with best nil it compares
// with c and stops at the first smaller image (isRep's early exit on the
// walk's hot path).
func (g *symGroup) lessImage(c, best CycleType) bool {
	ref := best
	if ref == nil {
		ref = c
	}
	u := g.u[:len(c)]
	found := false
	for t := 0; t < g.rotations(); t++ {
		for s := 0; s < len(c); s++ {
			g.image(c, t, s, u)
			if slices.Compare(u, ref) < 0 {
				if best == nil {
					return true
				}
				found = true
				copy(best, u)
			}
		}
	}
	return found
}
