package pgas_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
)

// Unit tests of the OpenSHMEM rules of X(P,N) (docs/shmem-calculus.md,
// "The semantics X(P,N)"), one rule at a time, on programs run by rank 1
// with N = 2. Addresses x = 0, y = 1, one = 2; contexts c and d.

func ctxBuilder() *progbuild.Builder {
	b := progbuild.New("ctx", 3, []string{"x", "y", "one"}, []string{"r"}, []string{"q", "c", "d"})
	b.Contexts("c", "d")
	return b
}

// run applies moves from the initial state, failing the test on any error.
func run(t *testing.T, m *pgas.Machine, moves ...pgas.Move) (*pgas.XState, []pgas.Event) {
	t.Helper()
	s := m.Initial()
	var all []pgas.Event
	for _, mv := range moves {
		next, evs, err := m.Apply(s, mv)
		if err != nil {
			t.Fatalf("%v: %v\nin state\n%v", mv, err, s)
		}
		s, all = next, append(all, evs...)
	}
	return s, all
}

func cmd(t int) pgas.Move { return pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: t} }
func popa(q, item int) pgas.Move {
	return pgas.Move{Kind: pgas.MovePopa, Rank: 1, Queue: q, Item: item}
}
func popb(q, item int) pgas.Move {
	return pgas.Move{Kind: pgas.MovePopb, Rank: 1, Queue: q, Item: item}
}

// enabled reports whether mv is among the moves of rank 1 Steps lists.
func enabled(m *pgas.Machine, s *pgas.XState, mv pgas.Move) bool {
	moves, _ := m.Moves(s)
	return slices.ContainsFunc(moves, func(o pgas.Move) bool {
		return o.Kind == mv.Kind && o.Rank == mv.Rank && o.Trans == mv.Trans && o.Queue == mv.Queue && o.Item == mv.Item
	})
}

// Fence epochs: after p(1 -> x@1); fence; p(1 -> y@1); p(1 -> y@2) on c,
// the third item (to rank 1, later epoch) waits for the first, the
// fourth (to rank 2) does not; an atomic on c to rank 1 waits too, one to
// rank 2 does not, and one on context d waits for nothing.
func TestCtxFenceEpochs(t *testing.T) {
	b := ctxBuilder()
	ts := b.Seq(b.PutVal("1", "1", "x", "c"), b.Fence("c"), b.PutVal("1", "1", "y", "c"), b.PutVal("1", "2", "y", "c"))
	at1 := b.Edge("l4", "a1", b.Atomic("r", pgas.AmoFetch, "1", "y", "", "", "c"))
	at2 := b.Edge("l4", "a2", b.Atomic("r", pgas.AmoFetch, "2", "y", "", "", "c"))
	atd := b.Edge("l4", "a3", b.Atomic("r", pgas.AmoFetch, "1", "y", "", "", "d"))
	m := pgas.NewMachine(b.Build(), 2)
	s, evs := run(t, m, cmd(ts[0]), cmd(ts[1]), cmd(ts[2]), cmd(ts[3]))
	if evs[1].Kind != pgas.KFence || s.Epoch(1, 1) != 1 || len(s.Items(1, 1)) != 3 {
		t.Fatalf("events %v, state\n%v", evs, s)
	}
	for _, c := range []struct {
		mv   pgas.Move
		want bool
	}{{popb(1, 0), true}, {popb(1, 2), false}, {popb(1, 3), true}, {cmd(at1), false}, {cmd(at2), true}, {cmd(atd), true}} {
		if enabled(m, s, c.mv) != c.want {
			t.Errorf("%v enabled %v, want %v", c.mv, !c.want, c.want)
		}
	}
	if enabled(m, s, popa(1, 0)) {
		t.Errorf("an immediate send has a popa")
	}
	s2, _, err := m.Apply(s, popb(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !enabled(m, s2, popb(1, 2)) || !enabled(m, s2, cmd(at1)) {
		t.Errorf("delivering the first epoch does not release the second")
	}
}

// Quiet is enabled only when its context holds no item (popa and popb
// both done); items of another context do not matter.
func TestCtxQuiet(t *testing.T) {
	b := ctxBuilder()
	ts := b.Seq(b.PutNbi("one", "2", "x", "c"), b.PutVal("1", "2", "y", "d"), b.Quiet("c"))
	m := pgas.NewMachine(b.Build(), 2)
	for i, moves := range [][]pgas.Move{
		{cmd(ts[0]), cmd(ts[1])},
		{cmd(ts[0]), cmd(ts[1]), popa(1, 0)},
		{cmd(ts[0]), cmd(ts[1]), popa(1, 0), popb(1, 0)},
	} {
		s, _ := run(t, m, moves...)
		if got := enabled(m, s, cmd(ts[2])); got != (i == 2) {
			t.Errorf("after %v: quiet enabled %v", moves, got)
		}
		if s.Final() {
			t.Errorf("a state with an item of d pending is final")
		}
	}
	_, evs := run(t, m, cmd(ts[0]), cmd(ts[1]), popa(1, 0), popb(1, 0), cmd(ts[2]))
	if k := evs[len(evs)-1].Kind; k != pgas.KQuiet {
		t.Errorf("quiet's event is %v", k)
	}
}

// Atomics: a compare-and-swap that succeeds writes (KAmo) and returns the
// old value; one that fails only reads (KAFetch); a guarded one (a lock)
// is not enabled while its guard fails with the old value.
func TestCtxAtomicGuard(t *testing.T) {
	b := ctxBuilder()
	lock := b.Edge("start", "l", b.AtomicWhen("r", pgas.AmoCSwap, "1", "x", "1", "0", "c", "r 0 =="))
	try := b.Edge("start", "t", b.Atomic("r", pgas.AmoCSwap, "1", "x", "2", "0", "c"))
	add := b.Edge("start", "a", b.Atomic("r", pgas.AmoAdd, "1", "x", "2", "", "c"))
	m := pgas.NewMachine(b.Build(), 2)
	x := pgas.Cell{Rank: 1, Addr: 0}
	s, evs := run(t, m, cmd(lock))
	if evs[0].Kind != pgas.KAmo || evs[0].Cell != x || s.Mem(x) != 1 || s.Reg(1, 0) != 0 {
		t.Fatalf("lock: %v\n%v", evs, s)
	}
	rank2 := func(tr int) pgas.Move { return pgas.Move{Kind: pgas.MoveCmd, Rank: 2, Trans: tr} }
	if enabled(m, s, rank2(lock)) {
		t.Errorf("the lock is taken twice")
	}
	s2, evs, err := m.Apply(s, rank2(try))
	if err != nil || evs[0].Kind != pgas.KAFetch || s2.Mem(x) != 1 || s2.Reg(2, 0) != 1 {
		t.Errorf("failed cswap: %v %v\n%v", err, evs, s2)
	}
	s3, evs, err := m.Apply(s, rank2(add))
	if err != nil || evs[0].Kind != pgas.KAmo || s3.Mem(x) != 0 || s3.Reg(2, 0) != 1 {
		t.Errorf("fetch_add 1 + 2 mod 3: %v %v\n%v", err, evs, s3)
	}
}

// After: the signal's popb waits for the popb of the data put before it,
// whatever became of the data's popa; the signal adds (AmoAdd).
func TestCtxAfter(t *testing.T) {
	b := ctxBuilder()
	ts := b.Seq(b.Store("one", "2"), b.PutNbi("one", "2", "x", "c"), b.Signal("1", "2", "y", "c", true))
	m := pgas.NewMachine(b.Build(), 2)
	prefix := []pgas.Move{cmd(ts[0]), cmd(ts[1]), cmd(ts[2])}
	s, _ := run(t, m, prefix...)
	if enabled(m, s, popb(1, 2)) {
		t.Errorf("signal deliverable before its data")
	}
	s, _ = run(t, m, append(prefix, popa(1, 1))...)
	if enabled(m, s, popb(1, 2)) {
		t.Errorf("signal deliverable before its data's popb")
	}
	s, evs := run(t, m, append(prefix, popa(1, 1), popb(1, 1), popb(1, 2))...)
	if !s.Final() || s.Mem(pgas.Cell{Rank: 2, Addr: 0}) != 2 || s.Mem(pgas.Cell{Rank: 2, Addr: 1}) != 1 {
		t.Errorf("after delivery: %v\n%v", evs, s)
	}
	if e := evs[len(evs)-1]; e.Kind != pgas.KPopb || e.Item != 2 || e.Cell != (pgas.Cell{Rank: 2, Addr: 1}) {
		t.Errorf("signal popb %+v", e)
	}
}

// TestCtxAfterChain: put-with-signal of two data elements, the second a
// Chain send on another context. Rank 1 runs one := 2; put one -> x@2 on
// c (item 1); put one -> one@2 on d with Chain (item 2); signal 1 -> y@2
// on c (item 3). The signal waits for both data sends, whichever is
// delivered first. Without Chain it waits for item 2 only (the contrast
// shows the test can tell the two apart).
func TestCtxAfterChain(t *testing.T) {
	for _, chain := range []bool{true, false} {
		b := ctxBuilder()
		second := b.PutNbi("one", "2", "one", "d")
		if chain {
			second = progbuild.Chained(second)
		}
		ts := b.Seq(b.Store("one", "2"), b.PutNbi("one", "2", "x", "c"), second, b.Signal("1", "2", "y", "c", false))
		m := pgas.NewMachine(b.Build(), 2)
		issue := []pgas.Move{cmd(ts[0]), cmd(ts[1]), cmd(ts[2]), cmd(ts[3])}
		first := append(slices.Clone(issue), popa(1, 1), popb(1, 1))
		if s, _ := run(t, m, first...); enabled(m, s, popb(1, 3)) {
			t.Errorf("chain %v: signal deliverable with the second data send pending", chain)
		}
		secondOnly := append(slices.Clone(issue), popa(2, 2), popb(2, 2))
		if s, _ := run(t, m, secondOnly...); enabled(m, s, popb(1, 3)) != !chain {
			t.Errorf("chain %v: signal deliverable with only the second data send delivered: %v", chain, !chain)
		}
		both := append(secondOnly, popa(1, 1), popb(1, 1))
		s, _ := run(t, m, both...)
		if !enabled(m, s, popb(1, 3)) {
			t.Errorf("chain %v: signal not deliverable after all its data", chain)
		}
		if s, _ = run(t, m, append(both, popb(1, 3))...); !s.Final() || s.Mem(pgas.Cell{Rank: 2, Addr: 1}) != 1 {
			t.Errorf("chain %v: after delivery\n%v", chain, s)
		}
	}
}

// A blocking put reads its source in the step that issues it: two
// events, and no popa move afterwards. A get's popa reads the remote cell
// and its popb writes the local one.
func TestCtxBlockingAndGet(t *testing.T) {
	b := ctxBuilder()
	ts := b.Seq(b.Store("one", "1"), b.Put("one", "2", "x", "c"), b.Store("one", "0"), b.GetNbi("y", "2", "x", "c"))
	m := pgas.NewMachine(b.Build(), 2)
	s, evs := run(t, m, cmd(ts[0]), cmd(ts[1]))
	one := pgas.Cell{Rank: 1, Addr: 2}
	if len(evs) != 3 || evs[1].Kind != pgas.KWrite || evs[2] != (pgas.Event{Kind: pgas.KPopa, Rank: 1, HasCell: true, Cell: one, Trans: ts[1], Queue: 1, Item: 1}) {
		t.Fatalf("blocking put events %+v", evs)
	}
	if enabled(m, s, popa(1, 1)) || !enabled(m, s, popb(1, 1)) {
		t.Errorf("blocking put: popa offered again, or popb not offered")
	}
	s, evs = run(t, m, cmd(ts[0]), cmd(ts[1]), cmd(ts[2]), cmd(ts[3]), popb(1, 1), popa(1, 3), popb(1, 3))
	if !s.Final() || s.Mem(pgas.Cell{Rank: 1, Addr: 1}) != 1 {
		t.Errorf("the get did not copy x@2 = 1 (the value read before one := 0) into y@1: %v\n%v", evs, s)
	}
	if _, err := pgas.Replay(m.Program(), 2, evs); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// Out-of-order delivery: the second put's pops come first. Replay
// accepts the computation, and happens-before joins each pop with the
// issue its Item names, not with the first pending one.
func TestCtxUnorderedHB(t *testing.T) {
	b := ctxBuilder()
	ts := b.Seq(b.PutNbi("one", "2", "x", "c"), b.PutNbi("one", "2", "y", "c"))
	m := pgas.NewMachine(b.Build(), 2)
	_, evs := run(t, m, cmd(ts[0]), cmd(ts[1]), popa(1, 1), popb(1, 1), popa(1, 0), popb(1, 0))
	if _, err := pgas.Replay(m.Program(), 2, evs); err != nil {
		t.Fatalf("replay: %v", err)
	}
	h := pgas.HappensBefore(evs)
	for i, want := range []int{0, 1, 1, 1, 0, 0} {
		if h.Class[i] != h.Class[want] {
			t.Errorf("event %d (%v) is in the class of %d, want %d's", i, evs[i], h.Class[i], want)
		}
	}
	if h.Violating() {
		t.Errorf("two independent puts form a cycle")
	}
}

// Keys leave out issue indices and encode epochs by their order, so that
// a loop that issues the same item after more steps closes in a memo.
func TestCtxKeyForgetsIssue(t *testing.T) {
	b := ctxBuilder()
	again := b.Edge("start", "start", b.Assign("r", "0"))
	fence := b.Edge("start", "start", b.Fence("c"))
	put := b.Edge("start", "s", b.PutVal("1", "2", "x", "c"))
	m := pgas.NewMachine(b.Build(), 2)
	a, _ := run(t, m, cmd(put))
	c, _ := run(t, m, cmd(again), cmd(fence), cmd(put))
	if a.Items(1, 1)[0].Issue == c.Items(1, 1)[0].Issue || c.Epoch(1, 1) != 1 {
		t.Fatalf("the two items should differ in issue index and epoch:\n%v\n%v", a, c)
	}
	if a.Key() != c.Key() {
		t.Errorf("keys differ:\n%v\n%v", a, c)
	}
	d, _ := run(t, m, cmd(put), popb(1, 0))
	if d.Key() == a.Key() {
		t.Errorf("a delivered item leaves the key unchanged")
	}
}

// Keys must say everything the future of a state depends on (the oracle
// memoises on them): two reachable states with equal keys must have the
// same steps, with the same events up to the issue indices of items, and
// successors with equal keys again. Checked one step deep on every
// reachable state of random context programs, which by induction is the
// whole future.
func TestCtxKeyBisimulation(t *testing.T) {
	keyBisimulation(t, 23, progbuild.RandomCtx)
}

// TestCtxKeyBisimulationChain is the same with put-with-signal of several
// data sends: the key's chains (Item.Head) must keep what After waits for.
func TestCtxKeyBisimulationChain(t *testing.T) {
	keyBisimulation(t, 29, progbuild.RandomCtxChain)
}

func keyBisimulation(t *testing.T, seed uint64, gen func(*rand.Rand, int, bool, bool) *pgas.Program) {
	rng := progbuild.NewRand(seed)
	merged := 0
	for i := 0; i < 150; i++ {
		p := gen(rng, 3+rng.IntN(3), i%2 == 0, false)
		m := pgas.NewMachine(p, 1+rng.IntN(2))
		sig := map[string]string{}
		seen := map[*pgas.XState]bool{}
		frontier := []*pgas.XState{m.Initial()}
		for depth := 0; depth < 9 && len(frontier) > 0; depth++ {
			var next []*pgas.XState
			for _, s := range frontier {
				k, g := s.Key(), stepSignature(m, s)
				if old, ok := sig[k]; ok {
					merged++
					if old != g {
						t.Fatalf("program %d: equal keys, different futures:\n%v\n%s\n---\n%s\n%v", i, s, old, g, p)
					}
					continue
				}
				sig[k] = g
				steps, _ := m.Steps(s)
				for _, st := range steps {
					if !seen[st.Next] {
						seen[st.Next] = true
						next = append(next, st.Next)
					}
				}
			}
			frontier = next
		}
	}
	if merged == 0 {
		t.Errorf("no two states shared a key: the test checks nothing")
	}
	t.Logf("%d states merged with an earlier one of the same key", merged)
}

// stepSignature prints the steps of s with items named by their position
// in their context instead of their issue index.
func stepSignature(m *pgas.Machine, s *pgas.XState) string {
	pos := func(r, q, iss int) int {
		return slices.IndexFunc(s.Items(r, q), func(it pgas.Item) bool { return it.Issue == iss })
	}
	steps, errs := m.Steps(s)
	var out []string
	for _, st := range steps {
		mv := st.Move
		if mv.Kind == pgas.MovePopa || mv.Kind == pgas.MovePopb {
			mv.Item = pos(mv.Rank, mv.Queue, mv.Item)
		}
		line := fmt.Sprintf("%v %v ->", mv, mv.Bar)
		for _, e := range st.Events {
			if e.Kind.IsPop() {
				e.Item = pos(e.Rank, e.Queue, e.Item)
			}
			line += fmt.Sprintf(" %+v", e)
		}
		out = append(out, line+" key "+fmt.Sprintf("%x", st.Next.Key()))
	}
	for _, e := range errs {
		out = append(out, fmt.Sprintf("error rank %d trans %d", e.Rank, e.Trans))
	}
	return strings.Join(out, "\n")
}

// Keys keep the order of epochs: a fence between two puts to one rank
// orders their delivery, so it must show in the key.
func TestCtxKeyKeepsEpochOrder(t *testing.T) {
	b := ctxBuilder()
	put := b.Edge("start", "start", b.PutVal("1", "2", "x", "c"))
	fence := b.Edge("start", "start", b.Fence("c"))
	m := pgas.NewMachine(b.Build(), 2)
	a, _ := run(t, m, cmd(put), cmd(put))
	c, _ := run(t, m, cmd(put), cmd(fence), cmd(put))
	d, _ := run(t, m, cmd(fence), cmd(put), cmd(put))
	e, _ := run(t, m, cmd(put), cmd(put), cmd(fence))
	if a.Key() == c.Key() || c.Key() == e.Key() {
		t.Errorf("a fence between the puts does not change the key")
	}
	if a.Key() != d.Key() {
		t.Errorf("a fence before both puts changes the key")
	}
}

// Keys keep chains. Rank 1 loops over p1 (a put on c), p2 (a Chain put on
// d) and a signal s on c. In state A (p1, its delivery, p1 p2 s) p2
// belongs to the second p1's chain; in B (p1, its delivery, p2, p1, s) p2
// joined the delivered p1's chain
// and the pending p1 starts a new one. Both hold the same items in the
// same places, but after p1 is delivered the signal waits for p2 in A
// only, so their keys must differ.
func TestCtxKeyKeepsChains(t *testing.T) {
	b := ctxBuilder()
	p1 := b.Edge("start", "start", b.PutVal("1", "2", "x", "c"))
	p2 := b.Edge("start", "start", progbuild.Chained(b.PutVal("1", "2", "one", "d")))
	sig := b.Edge("start", "start", b.Signal("1", "2", "y", "c", false))
	m := pgas.NewMachine(b.Build(), 2)
	a, _ := run(t, m, cmd(p1), popb(1, 0), cmd(p1), cmd(p2), cmd(sig))
	bs, _ := run(t, m, cmd(p1), popb(1, 0), cmd(p2), cmd(p1), cmd(sig))
	if a.Key() == bs.Key() {
		t.Errorf("states whose signals wait for different sends share a key")
	}
	a, _ = run(t, m, cmd(p1), popb(1, 0), cmd(p1), cmd(p2), cmd(sig), popb(1, 1))
	bs, _ = run(t, m, cmd(p1), popb(1, 0), cmd(p2), cmd(p1), cmd(sig), popb(1, 2))
	if enabled(m, a, popb(1, 3)) || !enabled(m, bs, popb(1, 3)) {
		t.Errorf("the signal waits for p2 in B or not in A")
	}
}

// Bitwise atomics: with values 4, x := 1 (a store); or 2 delivered by
// its popb (x = 3); fetch_xor 1 returns 3 and writes 2; fetch_and 1
// returns 2 and writes 0; and with values 3 an or reaching 3 is a wrap
// (a run-time error finding, the result taken modulo values).
func TestCtxBitwise(t *testing.T) {
	b := progbuild.New("bits", 4, []string{"x", "y", "one"}, []string{"r"}, []string{"q", "c", "d"})
	b.Contexts("c", "d")
	st := b.Edge("start", "s1", b.Store("x", "1"))
	or := b.AmoAdd("2", "1", "x", "c")
	or.Amo = pgas.AmoOr
	orT := b.Edge("s1", "s2", or)
	xorT := b.Edge("s2", "s3", b.Atomic("r", pgas.AmoXor, "1", "x", "1", "", "c"))
	andT := b.Edge("s3", "s4", b.Atomic("r", pgas.AmoAnd, "1", "x", "1", "", "d"))
	m := pgas.NewMachine(b.Build(), 2)
	x := pgas.Cell{Rank: 1, Addr: 0}
	s, _ := run(t, m, cmd(st), cmd(orT))
	if !enabled(m, s, cmd(xorT)) {
		t.Errorf("the fetching atomic on c waits for the or of the same epoch: only a fence orders them")
	}
	s, evs := run(t, m, cmd(st), cmd(orT), popb(1, 1))
	if s.Mem(x) != 3 || evs[len(evs)-1].Kind != pgas.KPopb {
		t.Fatalf("or 2 into 1: x = %d, events %v", s.Mem(x), evs)
	}
	s, evs = run(t, m, cmd(st), cmd(orT), popb(1, 1), cmd(xorT))
	if s.Reg(1, 0) != 3 || s.Mem(x) != 2 || evs[len(evs)-1].Kind != pgas.KAmo {
		t.Fatalf("fetch_xor 1 on 3: r = %d, x = %d, %v", s.Reg(1, 0), s.Mem(x), evs)
	}
	s, _ = run(t, m, cmd(st), cmd(orT), popb(1, 1), cmd(xorT), cmd(andT))
	if s.Reg(1, 0) != 2 || s.Mem(x) != 0 {
		t.Fatalf("fetch_and 1 on 2: r = %d, x = %d", s.Reg(1, 0), s.Mem(x))
	}
	b3 := progbuild.New("bits3", 3, []string{"x", "y", "one"}, []string{"r"}, []string{"q", "c", "d"})
	b3.Contexts("c", "d")
	st3 := b3.Edge("start", "s1", b3.Store("x", "1"))
	or3 := b3.Edge("s1", "s2", b3.Atomic("r", pgas.AmoOr, "1", "x", "2", "", "c"))
	m3 := pgas.NewMachine(b3.Build(), 2)
	s, _ = run(t, m3, cmd(st3))
	steps, err := m3.Steps(s)
	if err != nil {
		t.Fatal(err)
	}
	wrapped := false
	for _, st := range steps {
		if st.Move.Trans == or3 && st.Wrap != nil {
			wrapped = st.Wrap.Val == 3 && st.Next.Mem(x) == 0
		}
	}
	if !wrapped {
		t.Errorf("1 | 2 with values 3 is not reported as a wrap to 0: %v", steps)
	}
}
