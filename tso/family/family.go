package family

import (
	"fmt"
	"strings"
)

// thread accumulates one thread block; lines are "from to instruction".
type thread struct {
	b strings.Builder
}

func (t *thread) tr(from, to, instr string, args ...any) {
	fmt.Fprintf(&t.b, "transition %s %s %s\n", from, to, fmt.Sprintf(instr, args...))
}

// program joins thread blocks, with the memory size the cells need.
func program(comment string, cells int, names []string, bodies []*thread) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(comment), "\n") {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	if cells > 10 {
		// The reference tool takes no memory_size line (it has no bound);
		// ours defaults to its ten addresses and needs one beyond them.
		fmt.Fprintf(&b, "memory_size %d\n", cells)
	}
	for i, t := range bodies {
		fmt.Fprintf(&b, "\nthread %s\ninitial q0\n%send\n", names[i], t.b.String())
	}
	return b.String()
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

// FlagRing is the held-out family of issue 27: n threads in a ring
// (n >= 2); thread i stores 1 to its own flag (cell i), reads its
// neighbour's flag (cell i+1 mod n) and branches on the value: if the
// flag is down it stores i+1 to cell n, which every thread writes, and
// then (either way) lowers its flag and starts again. Not robust: thread
// i's flag store can wait in its buffer while it reads its neighbour's
// flag, the store-buffering cycle of two neighbours.
func FlagRing(n int) string {
	bodies := make([]*thread, n)
	for i := range bodies {
		t := &thread{}
		t.tr("q0", "q1", "write 1 %d", i)
		t.tr("q1", "q2", "read r %d", (i+1)%n)
		t.tr("q2", "q3", "check == r 0")
		t.tr("q2", "q4", "check != r 0")
		t.tr("q3", "q4", "write %d %d", i+1, n)
		t.tr("q4", "q0", "write 0 %d", i)
		bodies[i] = t
	}
	return program(fmt.Sprintf("flag ring, %d threads (issue 27): not robust", n), n+1, names("t", n), bodies)
}

// Dijkstra is Dijkstra's mutual exclusion for n processes (CACM 1965),
// each process looping through its entry protocol, critical section and
// exit. Cells: b[i] at i (1: process i wants in; the paper's "b[i] =
// false"), c[i] at n+i (1: process i is in the second phase; the paper's
// "c[i] = false"), k at 2n. Not robust under TSO without fences.
//
//	L0: b[i] := false
//	L1: if k != i then c[i] := true; if b[k] then k := i; goto L1
//	    else c[i] := false; for j != i: if not c[j] goto L1
//	    critical section; c[i] := true; b[i] := true; goto L0
func Dijkstra(n int) string {
	bodies := make([]*thread, n)
	for i := range bodies {
		t := &thread{}
		t.tr("q0", "q1", "write 1 %d", i)
		t.tr("q1", "q2", "read k %d", 2*n)
		t.tr("q2", "q3", "check != k %d", i)
		t.tr("q2", "c0", "check == k %d", i)
		// k is not ours: leave phase two, take k if its owner is idle.
		t.tr("q3", "q4", "write 0 %d", n+i)
		t.tr("q4", "q5", "read w k")
		t.tr("q5", "q6", "check == w 0")
		t.tr("q5", "q1", "check != w 0")
		t.tr("q6", "q1", "write %d %d", i, 2*n)
		// k is ours: enter phase two and check nobody else is there.
		t.tr("c0", "d0", "write 1 %d", n+i)
		step := 0
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			from, to := fmt.Sprintf("d%d", step), fmt.Sprintf("d%d", step+1)
			t.tr(from, "e"+from, "read c %d", n+j)
			t.tr("e"+from, "q1", "check != c 0")
			t.tr("e"+from, to, "check == c 0")
			step++
		}
		t.tr(fmt.Sprintf("d%d", step), "cs", "noop")
		t.tr("cs", "x0", "write 0 %d", n+i)
		t.tr("x0", "q0", "write 0 %d", i)
		bodies[i] = t
	}
	return program(fmt.Sprintf("Dijkstra's mutual exclusion, %d processes: not robust", n), 2*n+1, names("p", n), bodies)
}

// Burns is Burns and Lynch's one-bit mutual exclusion for n processes
// (flag[i] at cell i):
//
//	L: flag[i] := 0
//	   for j < i: if flag[j] goto L
//	   flag[i] := 1
//	   for j < i: if flag[j] goto L
//	   for j > i: await not flag[j]
//	   critical section; flag[i] := 0; goto L
//
// Not robust under TSO without fences.
func Burns(n int) string {
	bodies := make([]*thread, n)
	for i := range bodies {
		t := &thread{}
		t.tr("q0", "a0", "write 0 %d", i)
		for j := 0; j < i; j++ {
			t.tr(fmt.Sprintf("a%d", j), fmt.Sprintf("ar%d", j), "read f %d", j)
			t.tr(fmt.Sprintf("ar%d", j), "q0", "check != f 0")
			t.tr(fmt.Sprintf("ar%d", j), fmt.Sprintf("a%d", j+1), "check == f 0")
		}
		t.tr(fmt.Sprintf("a%d", i), "b0", "write 1 %d", i)
		for j := 0; j < i; j++ {
			t.tr(fmt.Sprintf("b%d", j), fmt.Sprintf("br%d", j), "read f %d", j)
			t.tr(fmt.Sprintf("br%d", j), "q0", "check != f 0")
			t.tr(fmt.Sprintf("br%d", j), fmt.Sprintf("b%d", j+1), "check == f 0")
		}
		t.tr(fmt.Sprintf("b%d", i), fmt.Sprintf("w%d", i+1), "noop")
		for j := i + 1; j < n; j++ {
			t.tr(fmt.Sprintf("w%d", j), fmt.Sprintf("wr%d", j), "read f %d", j)
			t.tr(fmt.Sprintf("wr%d", j), fmt.Sprintf("w%d", j), "check != f 0")
			t.tr(fmt.Sprintf("wr%d", j), fmt.Sprintf("w%d", j+1), "check == f 0")
		}
		t.tr(fmt.Sprintf("w%d", n), "cs", "noop")
		t.tr("cs", "q0", "write 0 %d", i)
		bodies[i] = t
	}
	return program(fmt.Sprintf("Burns' mutual exclusion, %d processes: not robust", n), n, names("p", n), bodies)
}

// Peterson is Peterson's filter lock for n processes: level[i] at cell
// i, victim[l] at n+l for the levels l = 1..n-1 (cell n+l-1).
//
//	for l in 1..n-1: level[i] := l; victim[l] := i
//	    await (for all k != i: level[k] < l) or victim[l] != i
//	critical section; level[i] := 0
//
// The await is a spin that re-reads every level and the victim.
func Peterson(n int) string {
	bodies := make([]*thread, n)
	for i := range bodies {
		t := &thread{}
		for l := 1; l < n; l++ {
			at := fmt.Sprintf("l%d", l)
			if l == 1 {
				at = "q0"
			}
			t.tr(at, fmt.Sprintf("v%d", l), "write %d %d", l, i)
			t.tr(fmt.Sprintf("v%d", l), fmt.Sprintf("s%d_0", l), "write %d %d", i+1, n+l-1)
			// spin: the victim first, then every other level
			next := fmt.Sprintf("l%d", l+1)
			if l == n-1 {
				next = "cs"
			}
			t.tr(fmt.Sprintf("s%d_0", l), fmt.Sprintf("s%d_v", l), "read v %d", n+l-1)
			t.tr(fmt.Sprintf("s%d_v", l), next, "check != v %d", i+1)
			t.tr(fmt.Sprintf("s%d_v", l), fmt.Sprintf("s%d_1", l), "check == v %d", i+1)
			step := 1
			for k := 0; k < n; k++ {
				if k == i {
					continue
				}
				from, to := fmt.Sprintf("s%d_%d", l, step), fmt.Sprintf("s%d_%d", l, step+1)
				t.tr(from, from+"r", "read x %d", k)
				t.tr(from+"r", fmt.Sprintf("s%d_0", l), "check >= x %d", l)
				t.tr(from+"r", to, "check < x %d", l)
				step++
			}
			t.tr(fmt.Sprintf("s%d_%d", l, step), next, "noop")
		}
		t.tr("cs", "q0", "write 0 %d", i)
		bodies[i] = t
	}
	return program(fmt.Sprintf("Peterson's filter lock, %d processes: not robust", n), 2*n-1, names("p", n), bodies)
}

// WorkSteal is the THE work-stealing queue of Cilk-5 (Frigo, Leiserson
// and Randall, PLDI 1998) with one owner and n-1 thieves (n >= 2). Cells:
// H (head) at 0, T (tail) at 1, the items from 2 on. The owner pushes
// two items and then takes until the queue is empty; a thief steals
// under the lock, again and again. The owner's take decrements T and
// then reads H with no fence in between, which is the store-load pair
// the protocol needs a fence for: not robust.
//
//	push:  t := T; item[t] := v; T := t+1
//	take:  t := T-1; T := t; h := H
//	       if h > t: T := t+1; lock; h := H; t := T-1
//	                 if h > t: unlock; empty; else T := t; x := item[t]; unlock
//	       else x := item[t]
//	steal: lock; h := H; H := h+1; t := T
//	       if h+1 > t: H := h; unlock; fail; else x := item[h]; unlock
func WorkSteal(n int) string {
	own := &thread{}
	own.tr("q0", "p0", "read t 1")
	own.tr("p0", "p1", "write 7 + t 2")
	own.tr("p1", "p2", "write + t 1 1")
	own.tr("p2", "p3", "read t 1")
	own.tr("p3", "p4", "write 8 + t 2")
	own.tr("p4", "k0", "write + t 1 1")
	own.tr("k0", "k1", "read t 1")
	own.tr("k1", "k2", "local t - t 1")
	own.tr("k2", "k3", "write t 1")
	own.tr("k3", "k4", "read h 0")
	own.tr("k4", "k5", "check <= h t")
	own.tr("k5", "k0", "read x + t 2")
	own.tr("k4", "c0", "check > h t")
	own.tr("c0", "c1", "write + t 1 1")
	own.tr("c1", "c2", "lock")
	own.tr("c2", "c3", "read h 0")
	own.tr("c3", "c4", "read t 1")
	own.tr("c4", "c5", "local t - t 1")
	own.tr("c5", "done", "check > h t")
	own.tr("done", "fin", "unlock")
	own.tr("c5", "c6", "check <= h t")
	own.tr("c6", "c7", "write t 1")
	own.tr("c7", "c8", "read x + t 2")
	own.tr("c8", "k0", "unlock")
	bodies := []*thread{own}
	for i := 1; i < n; i++ {
		t := &thread{}
		t.tr("q0", "s0", "lock")
		t.tr("s0", "s1", "read h 0")
		t.tr("s1", "s2", "write + h 1 0")
		t.tr("s2", "s3", "read t 1")
		t.tr("s3", "f0", "check > + h 1 t")
		t.tr("f0", "f1", "write h 0")
		t.tr("f1", "q0", "unlock")
		t.tr("s3", "g0", "check <= + h 1 t")
		t.tr("g0", "g1", "read x + h 2")
		t.tr("g1", "q0", "unlock")
		bodies = append(bodies, t)
	}
	nm := append([]string{"owner"}, names("thief", n-1)...)
	return program(fmt.Sprintf("THE work-stealing queue, 1 owner and %d thieves: not robust", n-1), 4, nm, bodies)
}
