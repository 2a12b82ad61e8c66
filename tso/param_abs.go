package tso

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/petri"
)

// The forward exploration that finds the net. Its states abstract a
// marking by its global state and, per local state, the number of copies
// in it up to a cut-off, or absMany above it. It runs in up to three
// rounds, each coarser and cheaper per state than precise, the next one
// taking over when a round passes absLimit states:
//
//  1. cut-off 1, absMany meaning "any number, possibly none": a move out
//     of absMany leaves absMany, a move into a state with one copy makes
//     it absMany;
//  2. cut-off 2, absMany meaning "more than 2": a move out of absMany
//     leaves absMany or 2 (both explored), so a state that two copies
//     entered and left is empty again (bounded counters need this);
//  3. the join (joined below).
//
// All start with absMany copies in each template's initial state: an
// instance with fewer copies is covered, its extra copies staying idle.
// Every marking reachable in the net is covered by an abstract state
// reached here (the abstractions only forget counts), so every transition
// a run fires is found, and the abstract states also tell the backward
// search which markings no run can cover (pnet.reachable).
//
// These are the counter abstractions with a cut-off of the parameterized
// verification literature, used here only to find and prune the net; the
// verdict comes from the exact backward search on the net.

type absLocal struct {
	l int32
	c int8 // 1..cut-off, or absMany
}

const absMany = 100

func absKey(g int32, ls []absLocal) string {
	b := make([]byte, 4+5*len(ls))
	binary.LittleEndian.PutUint32(b, uint32(g))
	for i, x := range ls {
		binary.LittleEndian.PutUint32(b[4+5*i:], uint32(x.l))
		b[8+5*i] = byte(x.c)
	}
	return string(b)
}

// build explores the abstract states from the initial one (any number of
// copies of every template in its initial state) and leaves the net in
// n.net. It returns a reason when a budget ends it or the data leave the
// 32-bit domain. After absLimit abstract states it gives up on them and
// joins instead (joined), which ends after polynomially many steps.
func (n *pnet) build(ctx context.Context, maxStates, maxBytes int64) string {
	p, lay := n.p, &n.lay
	g0 := make([]int64, lay.size)
	for ti, th := range p.Threads {
		if off := lay.single[ti]; off >= 0 {
			g0[off] = int64(th.Init)
		}
	}
	n.global(g0)
	n.net.Initial = []int32{1}
	var start []absLocal
	for ti, th := range p.Threads {
		if th.Replicated {
			l := make([]int64, lRegs+len(th.Regs))
			l[lTmpl], l[lLabel] = int64(ti), int64(th.Init)
			li, _ := n.local(l)
			n.net.Initial = append(n.net.Initial, petri.Omega)
			start = append(start, absLocal{li, absMany})
		}
	}
	type abs struct {
		g  int32
		ls []absLocal
	}
	if n.joinOnly {
		return n.joined(ctx, start, maxStates, maxBytes)
	}
	seen := map[string]bool{absKey(0, start): true}
	queue := []abs{{0, start}}
	add := func(g int32, ls []absLocal) {
		if k := absKey(g, ls); !seen[k] {
			seen[k] = true
			queue = append(queue, abs{g, ls})
			n.bytes += int64(len(k))*2 + int64(len(ls))*8 + 80
		}
	}
	for steps := 0; len(queue) > 0; steps++ {
		if n.trouble != "" {
			return n.trouble
		}
		if len(seen) > absLimit {
			return errTooPrecise
		}
		if steps&15 == 0 {
			switch {
			case ctx.Err() != nil:
				return automata.StopReason(ctx)
			case maxStates > 0 && int64(len(seen)+len(n.kind)+len(n.net.Trans)) > maxStates:
				return fmt.Sprintf("state budget of %d reached while building the counter abstraction (%d abstract, %d global, %d local states, %d net transitions; data that grow with the number of copies make it infinite)",
					maxStates, len(seen), len(n.gs), len(n.ls), len(n.net.Trans))
			case n.bytes > maxBytes:
				return fmt.Sprintf("memory budget of %d MiB reached while building the counter abstraction", maxBytes>>20)
			}
		}
		s := queue[0]
		queue = queue[1:]
		n.reach[s.g] = append(n.reach[s.g], s.ls)
		for _, t := range n.singleMoves(s.g) {
			add(n.kind[n.net.Trans[t].Post[0].Place], s.ls)
		}
		for _, x := range s.ls {
			for _, t := range n.copyMoves(s.g, x.l) {
				gj, lj := n.postOf(t)
				add(gj, moveCopy(s.ls, x.l, lj, 0, n.cut))
				if n.cut > 1 && x.c == absMany && x.l != lj {
					add(gj, moveCopy(s.ls, x.l, lj, n.cut, n.cut))
				}
			}
		}
	}
	n.absStates = len(seen)
	return n.finish()
}

// errTooPrecise asks the caller to start again with joined.
const errTooPrecise = "too many abstract states"

// absLimit bounds the precise abstract states before the join takes over.
var absLimit = 100_000

func (n *pnet) finish() string {
	if n.trouble != "" {
		return n.trouble
	}
	n.net.Places = len(n.kind)
	for len(n.net.Initial) < n.net.Places {
		n.net.Initial = append(n.net.Initial, 0)
	}
	n.bounds()
	n.net.Reachable = n.reachable
	return ""
}

// postOf returns the global and local state a copy's transition leads to.
func (n *pnet) postOf(t int32) (g, l int32) {
	for _, pc := range n.net.Trans[t].Post {
		if k := n.kind[pc.Place]; k >= 0 {
			g = k
		} else {
			l = -1 - k
		}
	}
	return g, l
}

// moveCopy moves one copy from local state from to local state to; with
// down > 0, a count of absMany at from becomes down instead of staying.
func moveCopy(ls []absLocal, from, to int32, down, cut int8) []absLocal {
	if from == to {
		return ls
	}
	out := make([]absLocal, 0, len(ls)+1)
	for _, x := range ls {
		if x.l == from {
			switch {
			case x.c == 1:
				continue
			case x.c < absMany:
				x.c--
			case down > 0:
				x.c = down
			}
		}
		out = append(out, x)
	}
	i, ok := slices.BinarySearchFunc(out, to, func(x absLocal, l int32) int { return int(x.l - l) })
	if !ok {
		out = slices.Insert(out, i, absLocal{to, 1})
	} else if out[i].c >= cut {
		out[i].c = absMany
	} else {
		out[i].c++
	}
	return out
}

// reachable reports whether some abstract state covers m: the same global
// state, and per local state of m, absMany or at least m's count.
func (n *pnet) reachable(m petri.Marking) bool {
	g := int32(-1)
	for _, pc := range m {
		if k := n.kind[pc.Place]; k >= 0 {
			g = k
		}
	}
	if g < 0 {
		return true
	}
next:
	for _, ls := range n.reach[g] {
		for _, pc := range m {
			k := n.kind[pc.Place]
			if k >= 0 {
				continue
			}
			i, ok := slices.BinarySearchFunc(ls, -1-k, func(x absLocal, l int32) int { return int(x.l - l) })
			if !ok || ls[i].c < absMany && int32(ls[i].c) < pc.Count {
				continue next
			}
		}
		return true
	}
	return false
}

// joined is the coarser exploration: per global state one set of local
// states that may hold copies (any number) beside it, grown to a fixpoint.
// A move of a copy from l in S(g) to g', l' adds S(g) and l' to S(g'); a
// single thread's move from g to g' adds S(g) to S(g'). Each set only
// grows, so the loop ends after at most |globals|*|locals| growths. The
// sets are bit sets over local states, and S(g) is merged into each
// successor once per visit of g, not once per transition.
func (n *pnet) joined(ctx context.Context, start []absLocal, maxStates, maxBytes int64) string {
	var sets [][]uint64 // by global state
	set := func(g int32) []uint64 {
		for int(g) >= len(sets) {
			sets = append(sets, nil)
		}
		return sets[g]
	}
	inQueue := []bool{}
	queue := []int32{}
	push := func(g int32) {
		for int(g) >= len(inQueue) {
			inQueue = append(inQueue, false)
		}
		if !inQueue[g] {
			inQueue[g] = true
			queue = append(queue, g)
		}
	}
	// union adds src (and extra, when >= 0) to S(g) and queues g if it grew.
	union := func(g int32, src []uint64, extra int32) {
		dst := set(g)
		need := len(src)
		if extra >= 0 {
			need = max(need, int(extra)/64+1)
		}
		grew := false
		if len(dst) < need {
			dst = append(dst, make([]uint64, need-len(dst))...)
			n.bytes += int64(need) * 8
		}
		for i, w := range src {
			if dst[i]|w != dst[i] {
				dst[i] |= w
				grew = true
			}
		}
		if extra >= 0 && dst[extra/64]&(1<<(extra%64)) == 0 {
			dst[extra/64] |= 1 << (extra % 64)
			grew = true
		}
		sets[g] = dst
		if grew {
			push(g)
		}
	}
	for _, x := range start {
		union(0, nil, x.l)
	}
	push(0)
	targets := map[int32]bool{}
	for steps := 0; len(queue) > 0; steps++ {
		if n.trouble != "" {
			return n.trouble
		}
		if steps&15 == 0 {
			switch {
			case ctx.Err() != nil:
				return automata.StopReason(ctx)
			case maxStates > 0 && int64(len(n.kind)+len(n.net.Trans)) > maxStates:
				return fmt.Sprintf("state budget of %d reached while building the counter abstraction (%d global, %d local states, %d net transitions; data that grow with the number of copies make it infinite)",
					maxStates, len(n.gs), len(n.ls), len(n.net.Trans))
			case n.bytes > maxBytes:
				return fmt.Sprintf("memory budget of %d MiB reached while building the counter abstraction", maxBytes>>20)
			}
		}
		g := queue[0]
		queue = queue[1:]
		inQueue[g] = false
		cur := append([]uint64(nil), set(g)...)
		clear(targets)
		for _, t := range n.singleMoves(g) {
			targets[n.kind[n.net.Trans[t].Post[0].Place]] = true
		}
		for i, w := range cur {
			for ; w != 0; w &= w - 1 {
				l := int32(i*64 + bits.TrailingZeros64(w))
				for _, t := range n.copyMoves(g, l) {
					gj, lj := n.postOf(t)
					targets[gj] = true
					union(gj, nil, lj)
				}
			}
		}
		for gj := range targets {
			union(gj, cur, -1)
		}
	}
	for g, s := range sets {
		var ls []absLocal
		for i, w := range s {
			for ; w != 0; w &= w - 1 {
				ls = append(ls, absLocal{int32(i*64 + bits.TrailingZeros64(w)), absMany})
			}
		}
		n.reach[int32(g)] = [][]absLocal{ls}
		n.absStates++
	}
	return n.finish()
}
