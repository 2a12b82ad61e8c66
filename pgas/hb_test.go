package pgas_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
)

// tau1to1 is the computation of Example 1:
// write·write·popa·popa·bar·bar·load·popb·popb (bold = rank 2).
const tau1to1 = "write1 write2 popa2 popa1 bar1 bar2 load1 popb2 popb1"

// tau1to1NF is the normal-form computation of Example 9 (Figure 4), also
// the marked computation of Example 15 without its marks.
const tau1to1NF = "write1 popa1 write2 popa2 bar1 bar2 load1 popb1 popb2"

// TestExample1 checks the happens-before relation of τ_1to1 edge by edge.
// By hand, with indices 0..8 as in the sequence:
//   - po: write1(0) -> bar1(4) -> load1(6) for rank 1, write2(1) -> bar2(5).
//   - cf: load1(6) reads (1,y) before popb2(7) writes it, nothing between.
//     popa1/popa2 read x, which nobody writes; popb1 is the only access
//     to (2,y). No other cf edge.
//   - ↔: {write1, popa1, popb1}, {write2, popa2, popb2}, {bar1, bar2},
//     {load1}.
//
// The class graph has w1->bar, w2->bar, bar->load, load->w2, so it has the
// cycle of Figure 3 / Example 14: load1 -cf-> popb2 ↔ write2 -po-> bar2
// ↔ bar1 -po-> load1 (a1 = b1 = bar, c1 = d1 = load, a2 = popb, b2 = write,
// c2 = d2 = bar).
func TestExample1(t *testing.T) {
	p, _ := oneToOne()
	evs := events(tau1to1)
	if _, err := pgas.Replay(p, 2, evs); err != nil {
		t.Fatalf("τ_1to1 does not replay: %v", err)
	}
	h := pgas.HappensBefore(evs)
	wantEdges := []pgas.HBEdge{
		{From: 0, To: 4, Rel: pgas.RelPO},
		{From: 1, To: 5, Rel: pgas.RelPO},
		{From: 4, To: 6, Rel: pgas.RelPO},
		{From: 6, To: 7, Rel: pgas.RelCF},
	}
	if !slices.Equal(h.Edges, wantEdges) {
		t.Errorf("edges %v, want %v", h.Edges, wantEdges)
	}
	wantClasses := [][]int{{0, 3, 8}, {1, 2, 7}, {4, 5}, {6}}
	if !slices.EqualFunc(h.Classes(), wantClasses, slices.Equal) {
		t.Errorf("classes %v, want %v", h.Classes(), wantClasses)
	}
	if !h.Violating() {
		t.Fatalf("τ_1to1 not violating")
	}
	// The cycle starts at the lowest class on it, the class of write2.
	wantCycle := []pgas.HBEdge{
		{From: 1, To: 5, Rel: pgas.RelPO}, // write2 -po-> bar2
		{From: 5, To: 4, Rel: pgas.RelID}, // bar2 ↔ bar1
		{From: 4, To: 6, Rel: pgas.RelPO}, // bar1 -po-> load1
		{From: 6, To: 7, Rel: pgas.RelCF}, // load1 -cf-> popb2
		{From: 7, To: 1, Rel: pgas.RelID}, // popb2 ↔ write2
	}
	if got := h.Cycle(); !slices.Equal(got, wantCycle) {
		t.Errorf("cycle\n%s\nwant\n%s", h.FormatCycle(p, got), h.FormatCycle(p, wantCycle))
	}
}

// TestExample9: τ^nf_1to1 is a computation, is in normal form (checked by
// hand: popa1, popa2 follow their writes in the order of the writes;
// popb1, popb2 too) and has the same happens-before relation as τ_1to1
// (Lemma 8).
func TestExample9(t *testing.T) {
	p, _ := oneToOne()
	nf := events(tau1to1NF)
	if _, err := pgas.Replay(p, 2, nf); err != nil {
		t.Fatalf("τ^nf does not replay: %v", err)
	}
	hnf, h := pgas.HappensBefore(nf), pgas.HappensBefore(events(tau1to1))
	if !hnf.Equal(h) {
		t.Errorf("happens-before of τ^nf and τ_1to1 differ")
	}
	if !hnf.Violating() {
		t.Errorf("τ^nf not violating")
	}
	// Equal is not trivially true: the SC computation σ of Example 9 (with
	// the load appended) orders load1 after popb2, so its cf edge points
	// the other way.
	sigma := events("write1 popa1 popb1 write2 popa2 popb2 bar1 bar2 load1")
	if _, err := pgas.Replay(p, 2, sigma); err != nil {
		t.Fatalf("σ does not replay: %v", err)
	}
	hs := pgas.HappensBefore(sigma)
	if hs.Equal(h) {
		t.Errorf("σ·load has the happens-before of τ_1to1")
	}
	if hs.Violating() || hs.Cycle() != nil {
		t.Errorf("SC computation σ·load is violating: %v", hs.Cycle())
	}
}

// TestSameCellWrite: write(a, rank, a, q) reads and writes the same cell, so
// popa -cf-> popb inside one ↔-class. That edge is explained by ↔ and is
// not a violation.
func TestSameCellWrite(t *testing.T) {
	b := progbuild.New("self", 2, []string{"a"}, nil, []string{"q"})
	b.Seq(b.Write("a", "rank", "a", "q"))
	p := b.Build()
	evs := []pgas.Event{
		{Kind: pgas.KWrite, Rank: 1, Trans: 0, Queue: 0},
		{Kind: pgas.KPopa, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: 0}, Trans: 0, Queue: 0},
		{Kind: pgas.KPopb, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: 0}, Trans: 0, Queue: 0},
	}
	if _, err := pgas.Replay(p, 1, evs); err != nil {
		t.Fatal(err)
	}
	h := pgas.HappensBefore(evs)
	if want := []pgas.HBEdge{{From: 1, To: 2, Rel: pgas.RelCF}}; !slices.Equal(h.Edges, want) {
		t.Fatalf("edges %v, want %v", h.Edges, want)
	}
	if h.Violating() || h.Cycle() != nil {
		t.Errorf("popa -cf-> popb inside one class counted as a violation")
	}
}

// TestCF checks the conflict relation on a hand-made sequence over one
// cell: W1 R2 R3 W4 R5 (W = store, R = load, all on (1,a)), plus a load of
// another cell. By the definition: W1->R2, W1->R3 (no write between),
// W1->W4, R2->W4, R3->W4 (reads before the next write), W4->R5; not
// R2->R3 (two reads), not W1->R5 (W4 is between).
func TestCF(t *testing.T) {
	c := pgas.Cell{Rank: 1, Addr: 0}
	st := pgas.Event{Kind: pgas.KStore, Rank: 1, HasCell: true, Cell: c, Queue: -1}
	ld := pgas.Event{Kind: pgas.KLoad, Rank: 1, HasCell: true, Cell: c, Queue: -1}
	other := pgas.Event{Kind: pgas.KLoad, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: 1}, Queue: -1}
	h := pgas.HappensBefore([]pgas.Event{st, ld, ld, other, st, ld})
	var cf []pgas.HBEdge
	for _, e := range h.Edges {
		if e.Rel == pgas.RelCF {
			cf = append(cf, e)
		}
	}
	want := []pgas.HBEdge{{0, 1, pgas.RelCF}, {0, 2, pgas.RelCF}, {0, 4, pgas.RelCF}, {1, 4, pgas.RelCF}, {2, 4, pgas.RelCF}, {4, 5, pgas.RelCF}}
	if !slices.Equal(cf, want) {
		t.Errorf("cf %v, want %v", cf, want)
	}
}

// TestIdentityFIFO: with two requests in one queue and one in another, the
// k-th pops of a queue join the k-th request of that queue, whatever the
// interleaving with the other queue.
func TestIdentityFIFO(t *testing.T) {
	w := func(q, tr int) pgas.Event { return pgas.Event{Kind: pgas.KWrite, Rank: 1, Trans: tr, Queue: q} }
	pa := func(q, tr int) pgas.Event {
		return pgas.Event{Kind: pgas.KPopa, Rank: 1, HasCell: true, Cell: pgas.Cell{Rank: 1, Addr: tr}, Trans: tr, Queue: q}
	}
	evs := []pgas.Event{w(0, 0), w(1, 1), w(0, 2), pa(1, 1), pa(0, 0), pa(0, 2)}
	h := pgas.HappensBefore(evs)
	want := [][]int{{0, 4}, {1, 3}, {2, 5}}
	if !slices.EqualFunc(h.Classes(), want, slices.Equal) {
		t.Errorf("classes %v, want %v", h.Classes(), want)
	}
	if id := h.ID(5); id != (pgas.EventID{Rank: 1, Kind: pgas.KPopa, Seq: 2}) {
		t.Errorf("ID of the last popa %+v, want the one of the third write", id)
	}
}

// TestBarriersOnly: a program of barriers only is never violating: its
// classes are the barriers, and po only goes from the k-th to the k+1-th.
func TestBarriersOnly(t *testing.T) {
	b := progbuild.New("bars", 1, []string{"a"}, nil, []string{"q"})
	b.Edge("start", "start", progbuild.Barrier())
	b.Edge("start", "other", progbuild.Barrier())
	b.Edge("other", "start", progbuild.Barrier())
	p := b.Build()
	m := pgas.NewMachine(p, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 50; run++ {
		evs := randomRun(t, m, rng, 30, false)
		h := pgas.HappensBefore(evs)
		if h.Violating() || h.Cycle() != nil {
			t.Fatalf("barrier-only computation violating: %v", evs)
		}
		if len(h.Classes())*3 != len(evs) {
			t.Fatalf("%d classes for %d barrier events", len(h.Classes()), len(evs))
		}
	}
}

// randomRun executes up to steps random moves of m. With sc, every read or
// write is followed at once by its popa and popb, so every ↔-class is a
// contiguous block: the sequentially consistent computations of the model.
func randomRun(t *testing.T, m *pgas.Machine, rng *rand.Rand, steps int, sc bool) []pgas.Event {
	t.Helper()
	s := m.Initial()
	var evs []pgas.Event
	for len(evs) < steps {
		moves, _ := m.Moves(s)
		if sc {
			moves = slices.DeleteFunc(moves, func(mv pgas.Move) bool { return mv.Kind == pgas.MovePopa || mv.Kind == pgas.MovePopb })
		}
		if len(moves) == 0 {
			break
		}
		mv := moves[rng.IntN(len(moves))]
		next, e := mustApply(t, m, s, mv)
		s, evs = next, append(evs, e...)
		if sc && len(e) == 1 && (e[0].Kind == pgas.KRead || e[0].Kind == pgas.KWrite) {
			for _, k := range []pgas.MoveKind{pgas.MovePopa, pgas.MovePopb} {
				next, e = mustApply(t, m, s, pgas.Move{Kind: k, Rank: e[0].Rank, Queue: e[0].Queue})
				s, evs = next, append(evs, e...)
			}
		}
	}
	return evs
}

// TestSCNeverViolating: in a sequentially consistent computation every
// po/cf edge between two classes goes from an earlier block to a later one,
// so the class graph is acyclic. Checked on random programs and runs.
func TestSCNeverViolating(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		p := progbuild.Random(rng, 6, i%2 == 0, false)
		n := 1 + rng.IntN(3)
		m := pgas.NewMachine(p, n)
		evs := randomRun(t, m, rng, 40, true)
		if _, err := pgas.Replay(p, n, evs); err != nil {
			t.Fatalf("SC run does not replay: %v\n%v", err, p)
		}
		if h := pgas.HappensBefore(evs); h.Violating() {
			t.Fatalf("SC computation violating:\n%v\n%s", p, h.FormatCycle(p, h.Cycle()))
		}
	}
}

// TestCycleWellFormed: on random (relaxed) runs, Cycle is non-nil exactly
// when Violating says so, and what it returns is a closed walk of real
// edges through at least two classes.
func TestCycleWellFormed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	violating := 0
	for i := 0; i < 400; i++ {
		p := progbuild.Random(rng, 6, i%2 == 0, false)
		n := 2 + rng.IntN(2)
		evs := randomRun(t, pgas.NewMachine(p, n), rng, 40, false)
		h := pgas.HappensBefore(evs)
		cyc := h.Cycle()
		if (cyc != nil) != h.Violating() {
			t.Fatalf("Cycle %v but Violating %v", cyc, h.Violating())
		}
		if cyc == nil {
			continue
		}
		violating++
		checkCycle(t, h, cyc)
	}
	if violating == 0 {
		t.Errorf("no random run was violating; the test checks nothing")
	}
}

func checkCycle(t *testing.T, h *pgas.HB, cyc []pgas.HBEdge) {
	t.Helper()
	classes := map[int]bool{}
	for i, e := range cyc {
		if next := cyc[(i+1)%len(cyc)]; e.To != next.From {
			t.Fatalf("cycle is not a closed walk at step %d: %v", i, cyc)
		}
		switch e.Rel {
		case pgas.RelID:
			if h.Class[e.From] != h.Class[e.To] || e.From == e.To {
				t.Fatalf("↔ step %v joins different classes", e)
			}
		default:
			if !slices.Contains(h.Edges, e) {
				t.Fatalf("cycle edge %v is not an edge of hb", e)
			}
			if h.Class[e.From] == h.Class[e.To] {
				t.Fatalf("cycle edge %v stays inside a class", e)
			}
		}
		classes[h.Class[e.From]] = true
	}
	if len(classes) < 2 {
		t.Fatalf("cycle through one class: %v", cyc)
	}
}
