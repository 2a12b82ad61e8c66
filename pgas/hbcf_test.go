package pgas_test

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// walkCF is the conflict relation as HappensBefore computed it before
// issue 29: from each event with a cell, back over the events before it
// up to the last write to that cell.
func walkCF(events []pgas.Event) []pgas.HBEdge {
	var out []pgas.HBEdge
	for j, e2 := range events {
		if !e2.HasCell {
			continue
		}
		for i := j - 1; i >= 0; i-- {
			e1 := events[i]
			if !e1.HasCell || e1.Cell != e2.Cell {
				continue
			}
			if e1.Kind.IsWrite() || e2.Kind.IsWrite() {
				out = append(out, pgas.HBEdge{From: i, To: j, Rel: pgas.RelCF})
			}
			if e1.Kind.IsWrite() {
				break
			}
		}
	}
	return out
}

// TestCFPerCell: the per-cell conflict edges are the walk's, on random
// event sequences of every kind.
func TestCFPerCell(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	kinds := []pgas.Kind{pgas.KLoad, pgas.KStore, pgas.KPopa, pgas.KPopb, pgas.KRead, pgas.KWrite, pgas.KBar}
	edges := 0
	for n := 0; n < 2000; n++ {
		evs := make([]pgas.Event, r.Intn(20))
		for i := range evs {
			k := kinds[r.Intn(len(kinds))]
			e := pgas.Event{Kind: k, Rank: 1 + r.Intn(2), Queue: -1}
			if k != pgas.KBar && r.Intn(5) > 0 {
				e.HasCell, e.Cell = true, pgas.Cell{Rank: 1 + r.Intn(2), Addr: r.Intn(2)}
			}
			evs[i] = e
		}
		want := walkCF(evs)
		var got []pgas.HBEdge
		for _, e := range pgas.HappensBefore(evs).Edges {
			if e.Rel == pgas.RelCF {
				got = append(got, e)
			}
		}
		cmp := func(a, b pgas.HBEdge) int {
			if a.From != b.From {
				return a.From - b.From
			}
			return a.To - b.To
		}
		slices.SortFunc(want, cmp)
		if !slices.Equal(got, want) {
			t.Fatalf("%v:\ngot  %v\nwant %v", evs, got, want)
		}
		edges += len(want)
	}
	if edges == 0 {
		t.Fatal("no conflict edge compared")
	}
}
