package pgas_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
)

// oneToOne is program 1to1 of Figure 1: every rank copies its x to y of its
// right neighbour, waits at the barrier and then asserts on y (a load
// followed by an assume).
func oneToOne() (*pgas.Program, []int) {
	b := progbuild.New("1to1", 2, []string{"x", "y"}, []string{"r"}, []string{"q"})
	ts := b.Seq(
		b.Write("x", "rank N % 1 +", "y", "q"), // t0
		progbuild.Barrier(),                    // t1
		b.Load("r", "y"),                       // t2
		b.Assume("r 1 =="),                     // t3
	)
	return b.Build(), ts
}

// Events of 1to1 by name; rank 1 unless the name ends in 2.
func oneToOneEvents() map[string]pgas.Event {
	return map[string]pgas.Event{
		"write1": {Kind: pgas.KWrite, Rank: 1, Trans: 0, Queue: 0},
		"write2": {Kind: pgas.KWrite, Rank: 2, Trans: 0, Queue: 0},
		"popa1":  {Kind: pgas.KPopa, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: 0}, Trans: 0, Queue: 0},
		"popa2":  {Kind: pgas.KPopa, Rank: 2, HasCell: true, Cell: pgas.Cell{Rank: 2, Addr: 0}, Trans: 0, Queue: 0},
		"popb1":  {Kind: pgas.KPopb, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 2, Addr: 1}, Trans: 0, Queue: 0},
		"popb2":  {Kind: pgas.KPopb, Rank: 2, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: 1}, Trans: 0, Queue: 0},
		"bar1":   {Kind: pgas.KBar, Rank: 1, Trans: 1, Queue: -1},
		"bar2":   {Kind: pgas.KBar, Rank: 2, Trans: 1, Queue: -1},
		"load1":  {Kind: pgas.KLoad, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: 1}, Trans: 2, Queue: -1},
		"load2":  {Kind: pgas.KLoad, Rank: 2, HasCell: true, Cell: pgas.Cell{Rank: 2, Addr: 1}, Trans: 2, Queue: -1},
	}
}

func events(names string) []pgas.Event {
	m := oneToOneEvents()
	var evs []pgas.Event
	for _, n := range strings.Fields(names) {
		e, ok := m[n]
		if !ok {
			panic("unknown event " + n)
		}
		evs = append(evs, e)
	}
	return evs
}

func mustApply(t *testing.T, m *pgas.Machine, s *pgas.XState, mv pgas.Move) (*pgas.XState, []pgas.Event) {
	t.Helper()
	next, evs, err := m.Apply(s, mv)
	if err != nil {
		t.Fatalf("Apply(%v): %v\nin state\n%v", mv, err, s)
	}
	return next, evs
}

// TestRemoteRules follows one write and one read through fa and fb (rules
// (write), (read), (popa), (popb)) and checks every intermediate state.
func TestRemoteRules(t *testing.T) {
	b := progbuild.New("copy", 4, []string{"x", "y", "z"}, []string{"r"}, []string{"q"})
	b.Seq(
		b.Store("x", "rank 1 +"),               // x := rank+1
		b.Write("x", "rank N % 1 +", "y", "q"), // copy own x to y of the right neighbour
		b.Read("z", "rank N % 1 +", "x", "q"),  // copy x of the right neighbour to own z
	)
	p := b.Build()
	m := pgas.NewMachine(p, 2)
	s := m.Initial()
	s, _ = mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 0})
	if got := s.Mem(pgas.Cell{Rank: 1, Addr: 0}); got != 2 {
		t.Fatalf("after store, m(1,x) = %d, want 2", got)
	}
	s, evs := mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 1})
	if want := (pgas.Event{Kind: pgas.KWrite, Rank: 1, Trans: 1, Queue: 0}); evs[0] != want {
		t.Fatalf("write event %+v, want %+v", evs[0], want)
	}
	// (write) appends (src (1,x), dst (2,y)).
	if fa := s.FA(1, 0); len(fa) != 1 || fa[0].Src != (pgas.Cell{Rank: 1, Addr: 0}) || fa[0].Dst != (pgas.Cell{Rank: 2, Addr: 1}) {
		t.Fatalf("fa(1,q) = %v", fa)
	}
	// (read) appends (src (2,x), dst (1,z)) behind it.
	s, _ = mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 2})
	if fa := s.FA(1, 0); len(fa) != 2 || fa[1].Src != (pgas.Cell{Rank: 2, Addr: 0}) || fa[1].Dst != (pgas.Cell{Rank: 1, Addr: 2}) {
		t.Fatalf("fa(1,q) = %v", fa)
	}
	// Only the head can be popped: one popa move, no popb yet.
	moves, _ := m.Moves(s)
	var pops []pgas.Move
	for _, mv := range moves {
		if mv.Kind == pgas.MovePopa || mv.Kind == pgas.MovePopb {
			pops = append(pops, mv)
		}
	}
	if len(pops) != 1 || pops[0].Kind != pgas.MovePopa {
		t.Fatalf("pop moves %v, want one popa", pops)
	}
	// (popa) reads m(1,x) = 2 now; a later store to x must not change the
	// value in flight.
	s, evs = mustApply(t, m, s, pops[0])
	if want := (pgas.Event{Kind: pgas.KPopa, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: 0}, Trans: 1, Queue: 0}); evs[0] != want {
		t.Fatalf("popa event %+v, want %+v", evs[0], want)
	}
	if fb := s.FB(1, 0); len(fb) != 1 || fb[0].Val != 2 || fb[0].Dst != (pgas.Cell{Rank: 2, Addr: 1}) {
		t.Fatalf("fb(1,q) = %v", fb)
	}
	if got := s.Mem(pgas.Cell{Rank: 2, Addr: 1}); got != 0 {
		t.Fatalf("m(2,y) = %d before popb, want 0", got)
	}
	s, evs = mustApply(t, m, s, pgas.Move{Kind: pgas.MovePopb, Rank: 1, Queue: 0})
	if want := (pgas.Event{Kind: pgas.KPopb, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 2, Addr: 1}, Trans: 1, Queue: 0}); evs[0] != want {
		t.Fatalf("popb event %+v, want %+v", evs[0], want)
	}
	if got := s.Mem(pgas.Cell{Rank: 2, Addr: 1}); got != 2 {
		t.Fatalf("m(2,y) = %d after popb, want 2", got)
	}
	// The read: rank 2 stores x = 3 first, then the popa of rank 1's read
	// fetches it and the popb lands it in (1,z).
	s, _ = mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: 2, Trans: 0})
	s, evs = mustApply(t, m, s, pgas.Move{Kind: pgas.MovePopa, Rank: 1, Queue: 0})
	if evs[0].Cell != (pgas.Cell{Rank: 2, Addr: 0}) || evs[0].Trans != 2 {
		t.Fatalf("popa of the read: %+v", evs[0])
	}
	s, evs = mustApply(t, m, s, pgas.Move{Kind: pgas.MovePopb, Rank: 1, Queue: 0})
	if evs[0].Cell != (pgas.Cell{Rank: 1, Addr: 2}) || s.Mem(pgas.Cell{Rank: 1, Addr: 2}) != 3 {
		t.Fatalf("popb of the read: %+v, m(1,z) = %d", evs[0], s.Mem(pgas.Cell{Rank: 1, Addr: 2}))
	}
	if !s.Final() {
		t.Fatalf("queues not empty:\n%v", s)
	}
}

// TestLocalRules checks (load), (store), (assign) and (assume).
func TestLocalRules(t *testing.T) {
	b := progbuild.New("local", 5, []string{"a", "b"}, []string{"r", "s"}, []string{"q"})
	b.Seq(
		b.Assign("r", "rank 2 +"), // r := rank+2
		b.Store("b", "r"),         // mem[b] := r; the cell is (rank, b), not (rank, r)
		b.Load("s", "b"),          // s := mem[b]
		b.Assume("s 3 =="),        // only rank 1 gets past
	)
	p := b.Build()
	m := pgas.NewMachine(p, 2)
	for _, r := range []int{1, 2} {
		s := m.Initial()
		var evs []pgas.Event
		for tr := 0; tr < 3; tr++ {
			var e []pgas.Event
			s, e = mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: r, Trans: tr})
			evs = append(evs, e...)
		}
		want := []pgas.Event{
			{Kind: pgas.KAssign, Rank: r, Trans: 0, Queue: -1},
			{Kind: pgas.KStore, Rank: r, HasCell: true, Cell: pgas.Cell{Rank: r, Addr: 1}, Trans: 1, Queue: -1},
			{Kind: pgas.KLoad, Rank: r, HasCell: true, Cell: pgas.Cell{Rank: r, Addr: 1}, Trans: 2, Queue: -1},
		}
		if !slices.Equal(evs, want) {
			t.Errorf("rank %d: events %v, want %v", r, evs, want)
		}
		if s.Reg(r, 0) != int64(r+2) || s.Reg(r, 1) != int64(r+2) || s.Mem(pgas.Cell{Rank: r, Addr: 1}) != int64(r+2) {
			t.Errorf("rank %d: r=%d s=%d b=%d, want all %d", r, s.Reg(r, 0), s.Reg(r, 1), s.Mem(pgas.Cell{Rank: r, Addr: 1}), r+2)
		}
		moves, errs := m.Moves(s)
		enabled := slices.ContainsFunc(moves, func(mv pgas.Move) bool { return mv.Kind == pgas.MoveCmd && mv.Rank == r && mv.Trans == 3 })
		if enabled != (r == 1) || len(errs) != 0 {
			t.Errorf("rank %d: assume(s == 3) enabled = %v (errs %v), want %v", r, enabled, errs, r == 1)
		}
		if _, _, err := m.Apply(s, pgas.Move{Kind: pgas.MoveCmd, Rank: r, Trans: 3}); (err == nil) != (r == 1) {
			t.Errorf("rank %d: Apply(assume) error %v", r, err)
		}
	}
}

// TestRangeErrors: a command whose evaluation leaves its domain is reported
// by Moves as an error, not listed as a move and not silently dropped.
func TestRangeErrors(t *testing.T) {
	tests := []struct {
		name string
		cmd  func(b *progbuild.Builder) pgas.Cmd
		what string
		val  int64
	}{
		{"store value", func(b *progbuild.Builder) pgas.Cmd { return b.Store("x", "2") }, "value", 2},
		{"assign value", func(b *progbuild.Builder) pgas.Cmd { return b.Assign("r", "1 neg") }, "value", -1},
		{"load address", func(b *progbuild.Builder) pgas.Cmd { return b.Load("r", "2") }, "address", 2},
		{"write rank", func(b *progbuild.Builder) pgas.Cmd { return b.Write("x", "N 1 +", "y", "q") }, "rank", 3},
		{"read rank 0", func(b *progbuild.Builder) pgas.Cmd { return b.Read("x", "0", "y", "q") }, "rank", 0},
		{"write remote", func(b *progbuild.Builder) pgas.Cmd { return b.Write("x", "1", "5", "q") }, "address", 5},
		{"read queue", func(b *progbuild.Builder) pgas.Cmd { return b.Read("x", "1", "y", "1") }, "queue", 1},
		{"assume division", func(b *progbuild.Builder) pgas.Cmd { return b.Assume("1 r /") }, "division", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progbuild.New("bad", 2, []string{"x", "y"}, []string{"r"}, []string{"q"})
			b.Seq(tc.cmd(b))
			m := pgas.NewMachine(b.Build(), 2)
			moves, errs := m.Moves(m.Initial())
			if len(moves) != 0 {
				t.Errorf("moves %v, want none", moves)
			}
			if len(errs) != 2 { // both ranks hit it
				t.Fatalf("errs %v, want one per rank", errs)
			}
			re := errs[0].Range()
			if re == nil || re.What != tc.what || (tc.what != "division" && re.Val != tc.val) {
				t.Fatalf("error %v, want %s %d", errs[0], tc.what, tc.val)
			}
			if errs[0].Rank != 1 || errs[0].Trans != 0 || !errors.As(errs[0], &re) {
				t.Fatalf("error %+v does not name rank 1, transition 0", errs[0])
			}
		})
	}
}

// TestBarrier: a barrier needs every rank at a barrier transition, and every
// combination of choices is one move producing bar events 1..N.
func TestBarrier(t *testing.T) {
	b := progbuild.New("bars", 2, []string{"x"}, []string{"r"}, []string{"q"})
	b.Edge("start", "a", b.Store("x", "1"))
	b.Edge("a", "b1", progbuild.Barrier())
	b.Edge("a", "b2", progbuild.Barrier())
	p := b.Build()
	m := pgas.NewMachine(p, 3)
	s := m.Initial()
	s, _ = mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 0})
	s, _ = mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: 2, Trans: 0})
	moves, _ := m.Moves(s)
	for _, mv := range moves {
		if mv.Kind == pgas.MoveBarrier {
			t.Fatalf("barrier enabled while rank 3 is not at it: %v", mv)
		}
	}
	if _, _, err := m.Apply(s, pgas.Move{Kind: pgas.MoveBarrier, Bar: []int{1, 1, 1}}); err == nil {
		t.Fatalf("Apply accepted a barrier rank 3 cannot take")
	}
	s, _ = mustApply(t, m, s, pgas.Move{Kind: pgas.MoveCmd, Rank: 3, Trans: 0})
	moves, _ = m.Moves(s)
	var bars [][]int
	for _, mv := range moves {
		if mv.Kind == pgas.MoveBarrier {
			bars = append(bars, mv.Bar)
		}
	}
	if len(bars) != 8 { // two choices for each of three ranks
		t.Fatalf("barrier moves %v, want 8", bars)
	}
	next, evs := mustApply(t, m, s, pgas.Move{Kind: pgas.MoveBarrier, Bar: []int{1, 2, 1}})
	for r := 1; r <= 3; r++ {
		if evs[r-1] != (pgas.Event{Kind: pgas.KBar, Rank: r, Trans: []int{1, 2, 1}[r-1], Queue: -1}) {
			t.Errorf("bar event %d: %+v", r, evs[r-1])
		}
	}
	if next.Control(1) != 2 || next.Control(2) != 3 || next.Control(3) != 2 {
		t.Errorf("control states %d %d %d after barrier", next.Control(1), next.Control(2), next.Control(3))
	}
	if _, _, err := m.Apply(s, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 1}); err == nil {
		t.Errorf("one rank alone took a barrier")
	}
}

// TestKey: the key identifies states, whatever the order that built them,
// and tells apart states that differ only in a queue.
func TestKey(t *testing.T) {
	p, _ := oneToOne()
	m := pgas.NewMachine(p, 2)
	s0 := m.Initial()
	a, _ := mustApply(t, m, s0, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 0})
	a, _ = mustApply(t, m, a, pgas.Move{Kind: pgas.MoveCmd, Rank: 2, Trans: 0})
	b, _ := mustApply(t, m, s0, pgas.Move{Kind: pgas.MoveCmd, Rank: 2, Trans: 0})
	b, _ = mustApply(t, m, b, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 0})
	if a.Key() != b.Key() {
		t.Errorf("same state, different keys:\n%v\n%v", a, b)
	}
	c, _ := mustApply(t, m, a, pgas.Move{Kind: pgas.MovePopa, Rank: 1, Queue: 0})
	if c.Key() == a.Key() {
		t.Errorf("popa did not change the key")
	}
	// The first state is untouched by the moves applied to it.
	if s0.Key() != m.Initial().Key() {
		t.Errorf("Apply modified its argument")
	}
}

// TestFootnote1: for the one-rank program q0 --read(0,1,0,0)--> q0, the
// computations of X that lie in a*b*c* (a = read, b = popa, c = popb) are
// exactly a^p b^p c^p. Enumerated up to length 3*maxP: a word of a*b*c*
// ends in a final state iff every request issued was popped twice.
func TestFootnote1(t *testing.T) {
	const maxP = 5
	b := progbuild.New("fn1", 1, []string{"a0"}, nil, []string{"q0"})
	b.Edge("start", "start", b.Read("0", "1", "0", "0"))
	p := b.Build()
	m := pgas.NewMachine(p, 1)
	letter := map[pgas.Kind]byte{pgas.KRead: 'a', pgas.KPopa: 'b', pgas.KPopb: 'c'}
	got := map[string]bool{}
	var walk func(s *pgas.XState, w string)
	walk = func(s *pgas.XState, w string) {
		if s.Final() {
			got[w] = true
		}
		if len(w) == 3*maxP {
			return
		}
		moves, errs := m.Moves(s)
		if len(errs) > 0 {
			t.Fatalf("errors %v", errs)
		}
		for _, mv := range moves {
			next, evs := mustApply(t, m, s, mv)
			w2 := w + string(letter[evs[0].Kind])
			// Stay inside a*b*c*: a letter may not follow a greater one.
			if len(w) > 0 && w2[len(w2)-1] < w[len(w)-1] {
				continue
			}
			walk(next, w2)
		}
	}
	walk(m.Initial(), "")
	want := map[string]bool{}
	for n := 0; n <= maxP; n++ {
		want[strings.Repeat("a", n)+strings.Repeat("b", n)+strings.Repeat("c", n)] = true
	}
	if len(got) != len(want) {
		t.Errorf("got %d words, want %d", len(got), len(want))
	}
	for w := range want {
		if !got[w] {
			t.Errorf("missing %q", w)
		}
	}
	for w := range got {
		if !want[w] {
			t.Errorf("unexpected %q", w)
		}
	}
}

// TestAwait: a guarded load (Cmd.Guard) is enabled only when the guard
// holds with the loaded value in the register; otherwise it is no move at
// all (a failed poll leaves no event), and a guard that divides by zero is
// a range error.
func TestAwait(t *testing.T) {
	b := progbuild.New("await", 3, []string{"h"}, []string{"t"}, []string{"q"})
	b.Seq(
		b.Await("t", "h", "t 1 =="),
		b.Store("h", "2"),
	)
	b.Edge("start", "bad", b.Await("t", "h", "1 t /"))
	p := b.Build()
	m := pgas.NewMachine(p, 1)
	s := m.Initial()
	moves, errs := m.Moves(s)
	if len(moves) != 0 || len(errs) != 1 || errs[0].Trans != 2 || errs[0].Range() == nil || errs[0].Range().What != "division" {
		t.Fatalf("h = 0: moves %v errs %v, want only the division error of the second await", moves, errs)
	}
	// Put 1 into h by hand through the machine: a program that stores it.
	b2 := progbuild.New("await2", 3, []string{"h"}, []string{"t"}, []string{"q"})
	b2.Seq(b2.Store("h", "1"), b2.Await("t", "h", "t 1 =="))
	p2 := b2.Build()
	m2 := pgas.NewMachine(p2, 1)
	s2, _ := mustApply(t, m2, m2.Initial(), pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 0})
	s2, evs := mustApply(t, m2, s2, pgas.Move{Kind: pgas.MoveCmd, Rank: 1, Trans: 1})
	if evs[0].Kind != pgas.KLoad || evs[0].Cell != (pgas.Cell{Rank: 1, Addr: 0}) || s2.Reg(1, 0) != 1 {
		t.Fatalf("await event %+v, t = %d", evs[0], s2.Reg(1, 0))
	}
}
