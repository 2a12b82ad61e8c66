package tso

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// randomTrace is a complete computation's trace in shape only: events of a
// few threads on a few cells, stores in a random store order, loads
// reading the initial value or some store of their cell.
func randomTrace(r *rand.Rand, n int) []prog.Event {
	threads, cells := 1+r.Intn(4), 1+r.Intn(3)
	evs := make([]prog.Event, n)
	var stores [][]int = make([][]int, cells)
	land := r.Perm(n)
	for i := range evs {
		e := prog.Event{Thread: r.Intn(threads), Cell: r.Intn(cells), Src: -1, Land: -1}
		if r.Intn(2) == 0 {
			e.Kind, e.Land = prog.EvStore, land[i]
			stores[e.Cell] = append(stores[e.Cell], i)
		} else if ss := stores[e.Cell]; len(ss) > 0 && r.Intn(4) > 0 {
			e.Src = ss[r.Intn(len(ss))]
		}
		evs[i] = e
	}
	return evs
}

// TestHBCycleIsFindCycle: the linear search gives FindCycle's cycle, edge
// for edge, from every start, on random traces.
func TestHBCycleIsFindCycle(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	cycles := 0
	for i := 0; i < 3000; i++ {
		evs := randomTrace(r, 1+r.Intn(14))
		edges := prog.HappensBefore(evs)
		for via := -1; via < len(evs); via++ {
			want := prog.FindCycle(len(evs), edges, via)
			got := hbCycle(evs, via)
			if !slices.Equal(got, want) {
				t.Fatalf("trace %+v via %d:\nhbCycle   %v\nFindCycle %v", evs, via, got, want)
			}
			if want != nil {
				cycles++
			}
		}
	}
	if cycles == 0 {
		t.Fatal("no trace had a cycle: the test compares nothing")
	}
}
