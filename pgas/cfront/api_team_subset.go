// Barriers and syncs over part of the PEs (docs/shmem.md, "Teams and
// synchronisation"): shmem_barrier and shmem_sync on an active set
// (PE_start, logPE_stride, PE_size), and shmem_sync / shmem_team_sync on
// a team made by shmem_team_split_strided. Each becomes the calculus's
// barrier over the set of ranks of those PEs, "barrier {r1, r2, ...}",
// computed once N is known (a constant set; the calculus's set may use N
// only, and the translation is made for one N). A PE that calls it
// outside the set meets the calculus's run-time error for a rank outside
// a barrier's set: the specification lets only the set's PEs call it.
// shmem_barrier adds the quiet on the default context before it, as
// shmem_barrier_all does; the syncs are the barrier alone.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// knownN is the N of the translation, refusing (and asking for one
// translation per N) when Options.N left it open.
func (t *translator) knownN(x cc.Node, name string) (int, bool) {
	if t.opt.N == 0 {
		t.needN = true
		t.refuse(x, "%s over part of the PEs: its set depends on the number of PEs, and the translation is made for one N (on the command line, give one N, e.g. -n 3, not a range)", name)
		return 0, false
	}
	return t.opt.N, true
}

// everyPE reports whether the active set is written as every PE: PE_start
// 0, logPE_stride 0, PE_size shmem_n_pes() (or a local set to it).
func (t *translator) everyPE(start, stride, size cc.ExpressionNode) bool {
	s, ok1 := constValue(start)
	l, ok2 := constValue(stride)
	n := strings.ReplaceAll(t.index(size), " ", "")
	return ok1 && ok2 && s == 0 && l == 0 && (n == "N" || n == "(N)")
}

// activeSetBarrier emits the barrier of shmem_barrier or shmem_sync on an
// active set. The triplet must be constant once N is known. An active set
// the specification does not define for this N (PE_size below 1, a
// negative PE_start or logPE_stride, a member beyond the last PE) is a
// run-time error at the call, since the call may be unreachable at this N.
func (t *translator) activeSetBarrier(x cc.Node, name string, start, stride, size cc.ExpressionNode) {
	if t.everyPE(start, stride, size) {
		t.emit("barrier")
		return
	}
	var v [3]int64
	for i, e := range []cc.ExpressionNode{start, stride, size} {
		k, ok := t.nConst(e)
		if !ok {
			t.refuse(e, "the active set of %s: only PE_start, logPE_stride and PE_size that are constant once N is known are in the subset", name)
			return
		}
		v[i] = k
	}
	n, ok := t.knownN(x, name)
	if !ok {
		return
	}
	if v[0] < 0 || v[1] < 0 || v[1] > 30 || v[2] < 1 {
		t.undefinedSet(n)
		return
	}
	t.barrierOver(v[0], int64(1)<<v[1], v[2], n)
}

// barrierOver emits a barrier over the PEs start, start+stride, ...
// (size of them), or a run-time error when one is beyond the n PEs.
func (t *translator) barrierOver(start, stride, size int64, n int) {
	if start+stride*(size-1) >= int64(n) {
		t.undefinedSet(n)
		return
	}
	if start == 0 && stride == 1 && size == int64(n) {
		t.emit("barrier")
		return
	}
	ranks := make([]string, 0, size)
	for k := int64(0); k < size; k++ {
		ranks = append(ranks, fmt.Sprint(start+stride*k+1))
	}
	t.emit("barrier {%s}", strings.Join(ranks, ", "))
}

// undefinedSet is the run-time error of a call on a set the
// specification does not define: a barrier over no rank (the range 2..1,
// empty for N >= 2), which every PE that reaches it cannot take
// (pgas: "takes a barrier over no rank"). At N = 1 no range of ranks is
// empty, and a value beyond every domain makes the error instead.
func (t *translator) undefinedSet(n int) {
	if n >= 2 {
		t.emit("barrier {2..1}")
		return
	}
	t.overflow()
}

// stridedSync is shmem_team_sync(team) or shmem_sync(team) on a team made
// by shmem_team_split_strided: a barrier over its members. On
// SHMEM_TEAM_INVALID (the triplet names a PE beyond the last, at this N)
// the call is undefined: a run-time error there.
func (t *translator) stridedSync(x cc.Node, name string, s *stridedTeam) {
	n, ok := t.knownN(x, name)
	if !ok {
		return
	}
	if !s.valid {
		t.undefinedSet(n)
		return
	}
	t.barrierOver(s.start, s.stride, s.size, n)
}

// activeSetAll accepts the active set of a collective only when it is
// every PE. A collective over part of the PEs would need its data moves
// restricted to the set as well as its barriers; that is not translated.
func (t *translator) activeSetAll(x cc.Node, name string, start, stride, size cc.ExpressionNode) {
	if !t.everyPE(start, stride, size) {
		t.refuse(x, "%s on an active set that is not every PE: a collective over part of the PEs is not in the subset (only PE_start 0, logPE_stride 0 and PE_size shmem_n_pes(), or a local set to it; shmem_barrier and shmem_sync on an active set are)", name)
	}
}
