package cycles

import (
	"fmt"
	"testing"

	"pgasrob/automata"
	"pgasrob/normalform"
	"pgasrob/pgas"
)

// HintOver is hintOver for the external tests.
var HintOver = hintOver

// TestHintChangesNothing: the hints of the move table (a successor's Y
// number carried over from its move, automata/hint.go, and the number of
// the state decoded for expansion) change the cost of a per-type search,
// not its result: on every example at N = 2 and 3, for every cycle type,
// with the symmetry inside the type and without, the hinted search
// expands the same states in the same order, over as many transitions,
// to the same outcome and witness as the search without hints, and every
// number read from a slot is checked against the table
// (automata.SetHintCheck). The random programs are in TestHintRandom.
func TestHintChangesNothing(t *testing.T) {
	hintOver(t, examplePrograms(t), 10)
}

func hintOver(t *testing.T, progs []*pgas.Program, minNonEmpty int) {
	t.Helper()
	defer automata.SetHintCheck(automata.SetHintCheck(true))
	types, nonEmpty, filled := 0, 0, 0
	for _, p := range progs {
		ty, ne, f, err := hintAgrees(p, 3)
		if err != "" {
			t.Fatal(err)
		}
		types, nonEmpty, filled = types+ty, nonEmpty+ne, filled+f
	}
	if types < 100 || nonEmpty < minNonEmpty || filled < 100 {
		t.Fatalf("%d cycle types compared, %d non-empty, %d hint slots filled", types, nonEmpty, filled)
	}
	t.Logf("%d cycle types, %d non-empty, %d hint slots filled", types, nonEmpty, filled)
}

// expansionOrder is a system that fingerprints the states it is asked to
// expand, in order: the order of a breadth-first search's arena.
type expansionOrder struct {
	automata.PartHinter
	seq uint64
}

func (e *expansionOrder) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	e.seq = e.seq*0x100000001B3 ^ hashWords(s)
	e.PartHinter.Successors(s, emit)
}

func hintAgrees(p *pgas.Program, maxN int) (types, nonEmpty, filled int, diff string) {
	for n := 2; n <= maxN; n++ {
		y, err := normalform.New(p, n)
		if err != nil {
			return types, nonEmpty, filled, err.Error()
		}
		mt := newMoveTable(y, 1<<26)
		for _, c := range CycleTypes(n) {
			run := func(noHint, sym bool, opt automata.Options) (automata.Result, uint64) {
				prod := newProduct(y, c, mt.moves)
				prod.reduce = newReducer(p, prod.future.Words)
				prod.table, prod.noHint = mt, noHint
				var sys automata.PartHinter = prod
				if ts := newTypeSym(prod, classesOf(p, n), turnsOf(p, n, c)); sym && ts != nil {
					sys = newSymProduct(prod, ts)
				}
				rec := &expansionOrder{PartHinter: sys}
				opt.Budget = automata.Budget{MaxStates: 100_000}
				return automata.Search(rec, opt), rec.seq
			}
			opt := automata.Options{}
			if types%5 == 4 {
				opt.Strategy = automata.DepthFirst
			}
			for _, sym := range []bool{false, true} {
				a, sa := run(false, sym, opt)
				b, sb := run(true, sym, opt)
				if d := sameSearch(a, b); d != "" || sa != sb {
					return types, nonEmpty, filled, fmt.Sprintf("%s N=%d %v symmetry %v: hinted vs not: %s (expansion order same: %v)", p.File, n, c, sym, d, sa == sb)
				}
				if a.Outcome == automata.NonEmpty {
					nonEmpty++
				}
			}
			types++
		}
		filled += filledSlots(mt)
	}
	return types, nonEmpty, filled, ""
}

// filledSlots counts the move table's hint slots that hold a number.
func filledSlots(mt *moveTable) int {
	k := 0
	// A number is an index in a shard, shifted, beside the shard: every
	// index is below Len.
	for n := uint32(0); n < uint32(mt.ys.Len())<<4; n++ {
		if v, ok := mt.ys.Value(n).(*tableEntry); ok {
			for i := range v.moves {
				if v.slot(i).Load() != 0 {
					k++
				}
			}
		}
	}
	return k
}
