package cycles

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// A rank the analysis calls stuck never moves again and no barrier is
// passed again: checked by exploring Y from every such state (the first
// 1,000 states of every example at N = 3, each explored up to 1,000
// states ahead, and completely where that suffices), independently of the
// analysis. The fenced ring must show stuck ranks (a write's popb after
// τ1 blocks its wait), and some explorations must be complete. (Dropping
// the barrier condition fails this test; dropping the check of the other
// ranks' remote commands does not: in the examples an await's shadow
// cell is written only by its own rank, so that check never decides.)
func TestStuckRanksNeverMove(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.pgas")
	withStuck, complete := map[string]int{}, 0
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		y, err := normalform.New(p, 3)
		if err != nil {
			t.Fatal(err)
		}
		ff := newFreeFuture(y)
		for _, s := range yStates(y, 1000) {
			moves, _ := y.Moves(s)
			stuck := ff.stuckRanks(y, s, moves)
			if stuck == 0 {
				continue
			}
			withStuck[filepath.Base(f)]++
			if moveAhead(t, y, s, stuck, 1000) {
				complete++
			}
		}
	}
	t.Logf("states with stuck ranks per example: %v; %d explored completely", withStuck, complete)
	if withStuck["1to1-fixed.pgas"] == 0 || complete == 0 {
		t.Fatalf("the test means little: %v, %d complete", withStuck, complete)
	}
}

// moveAhead explores Y from s up to max states and fails the test if a
// rank in stuck moves or a barrier is passed; it reports whether the
// exploration was complete.
func moveAhead(t *testing.T, y *normalform.Y, s automata.State, stuck uint64, max int) bool {
	t.Helper()
	seen := map[string]bool{fmt.Sprint(s): true}
	queue := []automata.State{s}
	for len(queue) > 0 {
		if len(seen) > max {
			return false
		}
		x := queue[0]
		queue = queue[1:]
		moves, _ := y.Moves(x)
		for _, mv := range moves {
			if mv.Rank == 0 || stuck&(1<<mv.Rank) != 0 {
				t.Fatalf("%s: stuck ranks %b, yet rank %d (0: barrier) moves later", y.P.File, stuck, mv.Rank)
			}
			next := append(automata.State(nil), mv.Target[:y.Words()]...)
			if k := fmt.Sprint(next); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return true
}
