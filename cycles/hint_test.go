package cycles

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

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

// hintOver compares, for every cycle type of progs at N = 2 and 3, with
// and without the symmetry inside the type, the hinted search to the one
// without hints (and their expansion orders), with every hint checked;
// it fails on the first difference, or when fewer than 100 types (and
// minNonEmpty with a witness) were compared or fewer than 100 hint slots
// were filled.
func hintOver(t *testing.T, progs []*pgas.Program, minNonEmpty int) {
	t.Helper()
	defer automata.SetHintCheck(automata.SetHintCheck(true))
	compareTypes(t, progs, minNonEmpty, "hint slots filled", 100, func(tc typeCase) (int64, string) {
		run := func(noHint, sym bool) (automata.Result, uint64) {
			prod := tc.product()
			prod.noHint = noHint
			var sys automata.PartHinter = prod
			if ts := newTypeSym(prod, classesOf(tc.p, tc.n), turnsOf(tc.p, tc.n, tc.c)); sym && ts != nil {
				sys = newSymProduct(prod, ts)
			}
			rec := &expansionOrder{PartHinter: sys}
			return automata.Search(rec, tc.opt), rec.seq
		}
		for _, sym := range []bool{false, true} {
			a, sa := run(false, sym)
			b, sb := run(true, sym)
			if d := sameSearch(a, b); d != "" || sa != sb {
				return 0, fmt.Sprintf("%s symmetry %v: hinted vs not: %s (expansion order same: %v)", tc, sym, d, sa == sb)
			}
			tc.outcome(a)
		}
		return 0, ""
	}, func(mt *moveTable) int64 { return int64(filledSlots(mt)) })
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

// TestHintRandom is TestHintChangesNothing on random programs of the
// generator, at N = 2 and 3.
func TestHintRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 7))
	hintOver(t, randomPrograms(t, r, 12, mixedConfig), 3)
}
