package oracle

import (
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// joinFuture: rank 2 puts into x of rank 1 and y of rank 3 (non-blocking,
// both pending); rank 1 loads its x; rank 3 loads its y and then gets x
// of rank 1.
const joinFuture = `program joinFuture
values 2
address x, y, s, g
register v, w
context c
    if rank != 2 goto A
    mem[s] <- 1
    putmem_nbi(s, 1, x, c)
    putmem_nbi(s, 3, y, c)
    goto END
A:  if rank != 3 goto B
    w <- mem[y]
    getmem(g, 1, x, c)
    goto END
B:  v <- mem[x]
END:
`

// TestAmpleWithPopsFutures: in the state where rank 2's two puts have
// read their source (their popbs pending), rank 1 is at its load of x
// and rank 3 at its load of y, the popb into (1, x) may not join rank 1's
// load in an ample set. Hand argument: rank 3 can load y (once that popb
// lands) and issue its get, whose popa reads (1, x), before rank 1 moves
// and before that popb: a step outside the set that conflicts with it
// (C1). The popb into (3, y) may join rank 3's load: no other rank may
// touch (3, y) before rank 3 moves.
func TestAmpleWithPopsFutures(t *testing.T) {
	p, err := pgas.Compile("joinFuture.pgas", []byte(joinFuture))
	if err != nil {
		t.Fatal(err)
	}
	const n = 3
	m := pgas.NewMachine(p, n)
	x := m.Initial()
	// Rank 2 runs to its end and pops both sources; ranks 1 and 3 run to
	// their loads.
	advance := func(pick func(pgas.Step) bool) {
		for guard := 0; guard < 100; guard++ {
			steps, errs := m.Steps(x)
			if len(errs) > 0 {
				t.Fatalf("run-time error: %v", errs[0].Err)
			}
			found := false
			for _, st := range steps {
				if pick(st) {
					x, found = st.Next, true
					break
				}
			}
			if !found {
				return
			}
		}
		t.Fatal("no end")
	}
	advance(func(st pgas.Step) bool {
		return st.Move.Rank == 2 && (st.Move.Kind == pgas.MoveCmd || st.Move.Kind == pgas.MovePopa)
	})
	for _, r := range []int{1, 3} {
		advance(func(st pgas.Step) bool {
			return st.Move.Kind == pgas.MoveCmd && st.Move.Rank == r && p.Trans[st.Move.Trans].Cmd.Op != pgas.OpLoad
		})
	}
	steps, _ := m.Steps(x)
	items := x.Items(2, 0)
	if len(items) != 2 || !items[0].Read || !items[1].Read {
		t.Fatalf("rank 2's items: %+v", items)
	}
	amp := newReducer(p, n).ample(x, steps)
	joined3 := false
	for _, st := range amp {
		mv := st.Move
		if mv.Kind == pgas.MovePopb && mv.Rank == 2 && mv.Item == items[0].Issue {
			t.Fatalf("the popb into (1, x) joined an ample set although rank 3's get may read (1, x) first: %v", amp)
		}
		if mv.Kind == pgas.MovePopb && mv.Rank == 2 && mv.Item == items[1].Issue {
			joined3 = true
		}
	}
	if !joined3 {
		t.Fatalf("expected rank 3's load with the popb into (3, y) as the ample set, got %v", amp)
	}
}
