package cycles

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// examplePrograms compiles every program of examples/, the fixed inputs
// most tests of this package run beside their random ones.
func examplePrograms(tb testing.TB) []*pgas.Program {
	tb.Helper()
	files, _ := filepath.Glob("../examples/*.pgas")
	if len(files) < 10 {
		tb.Fatalf("only %d examples found in ../examples", len(files))
	}
	var progs []*pgas.Program
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			tb.Fatal(err)
		}
		progs = append(progs, p)
	}
	return progs
}

// TestProductCachesChangeNothing: the ample-set candidates kept in the
// move table (product.movesAmple), the memo of prune's waiting pairs
// (waits.go) and the collapsed visited set change the cost of a product
// search, not its result: on every example at N = 2 and 3, for every
// cycle type, the search with them visits as many states over as many
// transitions as the plain product (which checks and prunes afresh
// per state and stores states whole), reaches the same outcome and returns the same
// witness.
func TestProductCachesChangeNothing(t *testing.T) {
	types := 0
	for _, p := range examplePrograms(t) {
		for n := 2; n <= 3; n++ {
			y, err := normalform.New(p, n)
			if err != nil {
				t.Fatal(err)
			}
			mt := newMoveTable(y, 1<<26)
			for _, c := range CycleTypes(n) {
				run := func(plain bool) automata.Result {
					prod := newProduct(y, c, mt.moves)
					prod.reduce = newReducer(p, prod.future.Words)
					if prod.plain = plain; !plain {
						prod.table = mt
					}
					return automata.Search(prod, automata.Options{Budget: automata.Budget{MaxStates: 200_000}})
				}
				a, b := run(false), run(true)
				if d := sameSearch(a, b); d != "" {
					t.Fatalf("%s N=%d %v: cached vs plain product: %s", p.File, n, c, d)
				}
				types++
			}
		}
	}
	if types < 50 {
		t.Fatalf("only %d cycle types compared", types)
	}
}

func sameSearch(a, b automata.Result) string {
	switch {
	case a.Outcome != b.Outcome:
		return fmt.Sprintf("outcome %v vs %v", a.Outcome, b.Outcome)
	case a.Stats.States != b.Stats.States || a.Stats.Transitions != b.Stats.Transitions:
		return fmt.Sprintf("%d states %d transitions vs %d and %d", a.Stats.States, a.Stats.Transitions, b.Stats.States, b.Stats.Transitions)
	case !reflect.DeepEqual(a.Path, b.Path):
		return "different witnesses"
	}
	return ""
}

// TestCandidatesReference checks reducer.candidates, which gathers every
// rank's cells in one pass over the moves, against a rank-by-rank
// transcription of the conditions of reduce.go (candidatesRef below), on
// every state of Y reachable in the examples at N = 3.
func TestCandidatesReference(t *testing.T) {
	states := 0
	for _, p := range examplePrograms(t) {
		y, err := normalform.New(p, 3)
		if err != nil {
			t.Fatal(err)
		}
		fut := y.Future()
		rd := newReducer(p, fut.Words)
		seen := map[string]bool{}
		s := make(automata.State, y.Words())
		y.Initial(s)
		queue := []automata.State{s}
		for len(queue) > 0 && len(seen) < 3000 {
			s := queue[0]
			queue = queue[1:]
			if k := fmt.Sprint(s); seen[k] {
				continue
			} else {
				seen[k] = true
			}
			moves, _ := y.Moves(s)
			var got, want []string
			rd.candidates(y, fut, s, moves, func(r int, mine []uint64) bool {
				got = append(got, fmt.Sprint(r, mine))
				return true
			})
			candidatesRef(y, fut, rd, s, moves, func(r int, mine []uint64) {
				want = append(want, fmt.Sprint(r, mine))
			})
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s state %v: candidates %v, reference %v", p.File, s, got, want)
			}
			for i := range moves {
				queue = append(queue, moves[i].Target)
			}
			states++
		}
	}
	if states < 500 {
		t.Fatalf("only %d states checked", states)
	}
}

// candidatesRef lists the ranks that satisfy the conditions of reduce.go
// that read Y alone, with their cells, computing each rank on its own.
func candidatesRef(y *normalform.Y, fut *normalform.Future, rd *reducer, s automata.State, moves []normalform.Move, f func(r int, mine []uint64)) {
	addrs := len(y.P.Addrs)
	for r := 1; r <= y.N; r++ {
		q := y.Control(s, r)
		if rd.cyclic[q] || rd.barrier[q] {
			continue
		}
		mine := make([]uint64, fut.Words)
		any := false
		for i := range moves {
			if moves[i].Rank != r {
				continue
			}
			any = true
			for _, he := range moves[i].Events {
				if he.Event.HasCell {
					c := (he.Event.Cell.Rank-1)*addrs + he.Event.Cell.Addr
					mine[c/64] |= 1 << (c % 64)
				}
			}
			before, after := fut.Stores(r, q), fut.Stores(r, y.Control(moves[i].Target, r))
			for w := range mine {
				mine[w] |= before[w] &^ after[w] &^ fut.PopbDst()[w]
			}
		}
		if !any {
			continue
		}
		for _, ti := range y.P.Out[q] {
			if y.P.Trans[ti].Cmd.Guard != nil {
				for w, x := range fut.TransCells(r, ti) {
					mine[w] |= x
				}
			}
		}
		clash := false
		for r2 := 1; r2 <= y.N; r2++ {
			for w, x := range fut.Cells(r2, y.Control(s, r2)) {
				clash = clash || (r2 != r && x&mine[w] != 0)
			}
		}
		if !clash {
			f(r, mine)
		}
	}
}
