// shmem_collect with an element count that differs from PE to PE
// (OpenSHMEM 1.6, shmem_collect: "nelems … can vary from PE to PE"; the
// destination receives every PE's block in PE order). When the count is
// an expression of shmem_my_pe(), shmem_n_pes() and constants, each PE's
// count is known once N is, so the translation is made for one N and the
// moves are those of a collect of fixed blocks, block j of count(j)
// elements at the sum of the counts of the PEs before j.

package cfront

import (
	"fmt"
	"regexp"

	"modernc.org/cc/v4"
)

var rankWord = regexp.MustCompile(`\brank\b`)

// collectCounts is, for a collect whose count depends on the calling PE,
// the number of cells of each PE's block, PE 0 first; ok is false for a
// count that is the same on every PE (count handles it) or that the
// translation cannot compute.
func (t *translator) collectCounts(e cc.ExpressionNode, size int64, obj *entity, name string) ([]int64, bool) {
	s, ok := t.rankExpr(e)
	if !ok || !rankWord.MatchString(s) {
		return nil, false
	}
	if t.opt.N == 0 {
		t.needN = true
		t.refuse(e, "the element count of %s depends on the PE and on the number of PEs: the translation is made for one N (on the command line, give one N, e.g. -n 3, not a range)", name)
	}
	if size == 0 {
		size = obj.elem
	}
	var cells []int64
	for j := 1; j <= t.opt.N; j++ {
		k, err := evalSize(rankWord.ReplaceAllString(s, fmt.Sprint(j)), t.opt.N)
		if err != nil || k < 0 || k > maxArray*8 || k*size%obj.elem != 0 {
			t.refuse(e, "element count of %s on PE %d: must be a whole number of elements of %s, from 0", name, j-1, t.cname(obj))
		}
		cells = append(cells, k*size/obj.elem)
	}
	return cells, true
}

// gatherVar is the moves of such a collect: each PE gets block j, of
// counts[j] cells from the start of PE j's source, into its dest after
// the blocks of the PEs before j. A block beyond a buffer is a run-time
// error at the call, as in gather.
func (t *translator) gatherVar(x cc.Node, dst, src addrTerm, counts []int64) {
	off := int64(0)
	for j, n := range counts {
		if off+n > t.room(x, dst) || n > t.room(x, src) {
			t.overflow()
			return
		}
		for e := int64(0); e < n; e++ {
			t.emit("getmem(%s, (rank - rank + %d), %s, %s)", dst.plus(fmt.Sprint(off+e)), j+1, src.plus(fmt.Sprint(e)), t.defctx)
		}
		off += n
	}
}
