package cycles

import "math/bits"

// Streaming the cycle types. Their number, Σ_k C(N,k)·(k-1)!, grows like
// (N-1)!·e (1,112,083 at N = 10, 1.2·10^8 at N = 12), so a decision for a
// large N must not list them: it walks them in the order of CycleTypes
// (shortest first, lexicographic within one length) and decides for each
// type alone whether it represents its symmetry orbit (symGroup.isRep).
// Positions in that order are int64 ranks (typeRank): N ≤ pgas.MaxRanks =
// 16 keeps them below 4·10^12.

// arrangements is m!/(m-j)!, the sequences of j distinct items out of m.
func arrangements(m, j int) int64 {
	if j < 0 || j > m {
		return 0
	}
	a := int64(1)
	for i := 0; i < j; i++ {
		a *= int64(m - i)
	}
	return a
}

// typesOfLen is the number of cycle types of length k over ranks 1..n:
// the first rank is the smallest, the others are any arrangement of k-1
// of the larger ranks.
func typesOfLen(n, k int) int64 {
	var c int64
	for f := 1; f <= n; f++ {
		c += arrangements(n-f, k-1)
	}
	return c
}

// TypeCount is len(CycleTypes(n)), computed without the list.
func TypeCount(n int) int64 {
	var c int64
	for k := 1; k <= n; k++ {
		c += typesOfLen(n, k)
	}
	return c
}

// typeRank is the position of the canonical cycle type c over ranks 1..n
// in the order of CycleTypes(n), counted from 0.
func typeRank(c CycleType, n int) int64 {
	k := len(c)
	var pos int64
	for j := 1; j < k; j++ {
		pos += typesOfLen(n, j)
	}
	for f := 1; f < c[0]; f++ {
		pos += arrangements(n-f, k-1)
	}
	// Ranks above c[0] not used so far, as a bit set.
	var free uint64
	for r := c[0] + 1; r <= n; r++ {
		free |= 1 << r
	}
	for i := 1; i < k; i++ {
		below := bits.OnesCount64(free & (uint64(1)<<c[i] - 1))
		pos += int64(below) * arrangements(bits.OnesCount64(free)-1, k-1-i)
		free &^= 1 << c[i]
	}
	return pos
}

// typeWalk walks the canonical cycle types over ranks 1..n in the order of
// CycleTypes(n). keep, if set, is asked about every proper prefix and
// every whole type; a prefix it refuses is skipped with every type that
// extends it. visit gets each type kept (a slice reused by the walk: copy
// it to keep it) and its position; it returns false to end the walk.
// pos counts every type passed, visited or skipped.
type typeWalk struct {
	n     int
	keep  func(prefix []int) bool
	visit func(c CycleType, pos int64) bool
	pos   int64 // types passed so far
	cur   []int
	used  uint64
	k     int
}

// run walks all lengths; it reports whether the walk reached the end.
func (w *typeWalk) run() bool {
	w.cur = make([]int, 0, w.n)
	for w.k = 1; w.k <= w.n; w.k++ {
		if !w.rec() {
			return false
		}
	}
	return true
}

// rec extends w.cur up to length w.k.
func (w *typeWalk) rec() bool {
	if len(w.cur) == w.k {
		if w.keep != nil && !w.keep(w.cur) {
			w.pos++
			return true
		}
		ok := w.visit(w.cur, w.pos)
		w.pos++
		return ok
	}
	lo := 1
	if len(w.cur) > 0 {
		// The first rank is the smallest: one type per rotation class.
		lo = w.cur[0] + 1
	}
	for r := lo; r <= w.n; r++ {
		if w.used&(1<<r) != 0 {
			continue
		}
		w.cur = append(w.cur, r)
		if len(w.cur) < w.k && w.keep != nil && !w.keep(w.cur) {
			w.pos += w.below()
		} else {
			w.used |= 1 << r
			if !w.rec() {
				return false
			}
			w.used &^= 1 << r
		}
		w.cur = w.cur[:len(w.cur)-1]
	}
	return true
}

// below is the number of types of length w.k that extend w.cur.
func (w *typeWalk) below() int64 {
	free := w.n - w.cur[0] - (len(w.cur) - 1) // larger ranks not in cur
	return arrangements(free, w.k-len(w.cur))
}
