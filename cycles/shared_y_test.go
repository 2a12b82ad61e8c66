package cycles

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// The ample rank the shared exploration reads from its table of Y states
// (computed once per Y state, then checked against the started cells) is
// the one the conditions of reduce.go give, evaluated here directly for
// every state and several sets of started cells, on the Y states of every
// example at N = 3; also when the table is emptied every few states.
func TestYTableAmple(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.pgas")
	rnd := rand.New(rand.NewPCG(3, 14))
	checked, reduced := 0, 0
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		y, err := normalform.New(p, 3)
		if err != nil {
			t.Fatal(err)
		}
		mt := newMoveTable(y, 1<<26)
		for _, yCap := range []int64{1 << 40, 1 << 12} {
			sh := newShared(y, CycleTypes(3), mt.moves, newReducer(p, y.Future().Words))
			sh.yCap = yCap
			for _, s := range yStates(y, 400) {
				fut := y.Future()
				for trial := 0; trial < 4; trial++ {
					var started []uint64
					if trial > 0 {
						started = make([]uint64, fut.Words)
						for c := 0; c < y.N*len(p.Addrs); c++ {
							if rnd.IntN(4*trial) == 0 {
								started[c/64] |= 1 << (c % 64)
							}
						}
					}
					full := make(automata.State, sh.width)
					copy(full, s)
					yi := sh.yState(full)
					got := sh.ytab.ample(yi, started)
					want := ampleByDefinition(y, s, started)
					if got != want {
						t.Fatalf("%s: ample %d from the table, %d by the definition", f, got, want)
					}
					checked++
					if got != 0 {
						reduced++
					}
				}
			}
			if yCap < 1<<20 && sh.yFlushes == 0 {
				t.Errorf("%s: the small table was never emptied", f)
			}
		}
	}
	t.Logf("%d checks, %d with an ample rank", checked, reduced)
	if reduced < checked/20 {
		t.Fatalf("only %d of %d checks chose an ample rank: the test means little", reduced, checked)
	}
}

// yStates lists up to max states of Y reachable from the initial one.
func yStates(y *normalform.Y, max int) []automata.State {
	s0 := make(automata.State, y.Words())
	y.Initial(s0)
	seen := map[string]bool{}
	queue := []automata.State{s0}
	var out []automata.State
	for len(queue) > 0 && len(out) < max {
		s := queue[0]
		queue = queue[1:]
		k := fmt.Sprint(s)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
		moves, _ := y.Moves(s)
		for _, mv := range moves {
			queue = append(queue, append(automata.State(nil), mv.Target[:y.Words()]...))
		}
	}
	return out
}

// ampleByDefinition is the first rank r that is not at a barrier nor on a
// cycle of the program, has a move, and whose moves' cells and the cells
// of its guarded transitions meet neither another rank's future cells nor
// a started cell; 0 if there is none. It is written from the conditions
// in reduce.go's comment, independently of reducer.
func ampleByDefinition(y *normalform.Y, s automata.State, started []uint64) int {
	p, fut := y.P, y.Future()
	cyc := onCycleByDefinition(p)
	moves, _ := y.Moves(s)
	cellOf := func(c pgas.Cell) int { return (c.Rank-1)*len(p.Addrs) + c.Addr }
	has := func(set []uint64, c int) bool { return set != nil && set[c/64]&(1<<(c%64)) != 0 }
rank:
	for r := 1; r <= y.N; r++ {
		q := y.Control(s, r)
		if cyc[q] {
			continue
		}
		for _, ti := range p.Out[q] {
			if p.Trans[ti].Cmd.Op == pgas.OpBarrier {
				continue rank
			}
		}
		var cells []int
		for _, mv := range moves {
			if mv.Rank != r {
				continue
			}
			for _, he := range mv.Events {
				if he.Event.HasCell {
					cells = append(cells, cellOf(he.Event.Cell))
				}
			}
			// A move past r's last store to a cell no popb writes touches
			// it (the popas of the cell may become settled).
			for c := 0; c < y.N*len(p.Addrs); c++ {
				if has(fut.Stores(r, q), c) && !has(fut.Stores(r, y.Control(mv.Target, r)), c) && !has(fut.PopbDst(), c) {
					cells = append(cells, c)
				}
			}
		}
		if !hasMove(moves, r) {
			continue
		}
		for _, ti := range p.Out[q] {
			if p.Trans[ti].Cmd.Guard == nil {
				continue
			}
			for c := 0; c < y.N*len(p.Addrs); c++ {
				if has(fut.TransCells(r, ti), c) {
					cells = append(cells, c)
				}
			}
		}
		for _, c := range cells {
			if has(started, c) {
				continue rank
			}
			for r2 := 1; r2 <= y.N; r2++ {
				if r2 != r && has(fut.Cells(r2, y.Control(s, r2)), c) {
					continue rank
				}
			}
		}
		return r
	}
	return 0
}

func hasMove(moves []normalform.Move, r int) bool {
	for _, mv := range moves {
		if mv.Rank == r {
			return true
		}
	}
	return false
}

// onCycleByDefinition: q can reach itself, by a fixpoint of reachability.
func onCycleByDefinition(p *pgas.Program) []bool {
	n := len(p.Labels)
	reach := make([][]bool, n) // reach[a][b]: b is reachable from a in one or more steps
	for a := range reach {
		reach[a] = make([]bool, n)
		for _, ti := range p.Out[a] {
			reach[a][p.Trans[ti].To] = true
		}
	}
	for k := 0; k < n; k++ {
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				reach[a][b] = reach[a][b] || reach[a][k] && reach[k][b]
			}
		}
	}
	out := make([]bool, n)
	for q := range out {
		out[q] = reach[q][q]
	}
	return out
}
