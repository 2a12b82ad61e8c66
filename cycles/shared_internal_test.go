package cycles

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// At every accepting state of a shared search, the loop of search's
// OnAccept (acceptingType from 0, then from the type after each answer)
// meets exactly the types whose own product accepts the state they
// stand for, in increasing order, also when element numbers run against
// the type order. (Two distinct cycle types accept together only when
// they have the same ranks in another order, which the examples never
// show, so the test carries every type twice.)
func TestAcceptingTypesAll(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.pgas")
	states, multi := 0, 0
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 3; n++ {
			s, m := checkAcceptingTypes(t, p, n)
			states, multi = states+s, multi+m
		}
	}
	if states == 0 || multi == 0 {
		t.Fatalf("%d accepting states, %d with several types: the test shows nothing", states, multi)
	}
	t.Logf("%d accepting states, %d with several types", states, multi)
}

func checkAcceptingTypes(t *testing.T, p *pgas.Program, n int) (states, multi int) {
	y, err := normalform.New(p, n)
	if err != nil {
		t.Fatal(err)
	}
	// Every type twice, the second copy in reverse order: copies accept
	// together, and their element numbers do not follow the type order.
	types := CycleTypes(n)
	rev := slices.Clone(types)
	slices.Reverse(rev)
	types = append(types, rev...)
	mt := newMoveTable(y, 1<<26)
	sys := newShared(y, types, mt.moves, newReducer(p, y.Future().Words))
	// Number the initial elements last type first, so that element
	// numbers run against the type order from the start.
	for k := len(types) - 1; k >= 0; k-- {
		tr := sys.prods[k].newTracker()
		sys.internElem(k, &tr)
	}
	automata.Search(sys, automata.Options{Budget: automata.Budget{MaxStates: 20_000}, OnAccept: func(path []automata.State) bool {
		last := path[len(path)-1]
		var got, want []int
		for k := sys.acceptingType(last, 0); k >= 0; k = sys.acceptingType(last, k+1) {
			got = append(got, k)
		}
		for k := range types {
			if ts := sys.typedState(last, k); ts != nil && sys.prods[k].Accepting(ts) {
				want = append(want, k)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s N = %d: accepting types %v, their products accept %v", p.File, n, got, want)
		}
		states++
		if len(got) > 1 {
			multi++
		}
		return false
	}})
	return states, multi
}

// The memo tables and the table of Y states are caches: flushing them
// every few entries changes neither the states nor the transitions nor the accepting states found.
func TestMemoFlushChangesNothing(t *testing.T) {
	for _, f := range []string{"1to1", "1to1-fixed", "waitq", "mp-put"} {
		p, err := pgas.Load("../examples/" + f + ".pgas")
		if err != nil {
			t.Fatal(err)
		}
		y, err := normalform.New(p, 3)
		if err != nil {
			t.Fatal(err)
		}
		var got [2][3]int64
		flushes, yFlushes := 0, 0
		for i, memoCap := range []int{1 << 22, 40} {
			mt := newMoveTable(y, 1<<26)
			sys := newShared(y, CycleTypes(3), mt.moves, newReducer(p, y.Future().Words))
			sys.setMemoCap(memoCap)
			if memoCap < 1<<10 {
				sys.yCap = 1 << 12 // and the table of Y states every few states
			}
			hits := int64(0)
			r := automata.Search(sys, automata.Options{OnAccept: func([]automata.State) bool { hits++; return false }})
			got[i] = [3]int64{r.Stats.States, r.Stats.Transitions, hits}
			flushes += int(sys.v.t.memoFlushes())
			yFlushes += sys.yFlushes
		}
		if got[0] != got[1] {
			t.Errorf("%s: states, transitions, accepting states %v with a large memo, %v with one flushed every 40 entries", f, got[0], got[1])
		}
		if flushes == 0 || yFlushes == 0 {
			t.Errorf("%s: %d flushes of the memo tables, %d of the Y table", f, flushes, yFlushes)
		}
	}
}

// newShared is newSharedCtx without a context, for the tests.
func newShared(y *normalform.Y, types []CycleType, moves func(automata.State) []normalform.Move, reduce *reducer) *sharedSystem {
	return newSharedCtx(context.Background(), y, types, moves, reduce)
}

// memoFlushes is how often the memo tables of t were flushed for room.
func (t *tables) memoFlushes() int64 {
	return t.memo.flushes.Load() + t.pruned.flushes.Load() + t.stuckPruned.flushes.Load() + t.marks.flushes.Load() + t.succ.flushes.Load()
}
