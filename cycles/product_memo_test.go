package cycles

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// TestMoveMemoChangesNothing: the memo of move outcomes (product_memo.go)
// changes the cost of a per-type search, not its result. On every example
// at N = 2 and 3, for every cycle type, the search with the memo visits as
// many states over as many transitions as the search that enumerates
// every move's markings afresh, reaches the same outcome and returns the
// same witness; and the memo is used (it replays moves). The random
// programs are in TestMoveMemoRandom.
func TestMoveMemoChangesNothing(t *testing.T) {
	moveMemoOver(t, examplePrograms(t), 10)
}

// moveMemoOver compares, for every cycle type of progs at N = 2 and 3,
// the search of the product with the memo to the one without, and fails
// on the first difference, or when fewer than 100 cycle types (and
// minNonEmpty with a witness) were compared or the memo never replayed a
// move.
func moveMemoOver(t *testing.T, progs []*pgas.Program, minNonEmpty int) {
	t.Helper()
	compareTypes(t, progs, minNonEmpty, "moves replayed", 1, func(tc typeCase) (int64, string) {
		run := func(noMemo bool) (automata.Result, *product) {
			prod := tc.product()
			prod.noMemo = noMemo
			return automata.Search(prod, tc.opt), prod
		}
		a, prod := run(false)
		b, _ := run(true)
		if d := sameSearch(a, b); d != "" {
			return 0, fmt.Sprintf("%s: memo vs enumeration: %s", tc, d)
		}
		tc.outcome(a)
		if prod.memo == nil {
			return 0, ""
		}
		return prod.memo.hits, ""
	}, nil)
}

// typeCase is one cycle type of one program at one N, for a test that
// searches it in two ways and compares.
type typeCase struct {
	p        *pgas.Program
	n        int
	y        *normalform.Y
	mt       *moveTable // shared by the searches of the program at n
	c        CycleType
	opt      automata.Options // depth-first for every fifth type, a state bound
	nonEmpty *int
}

func (tc typeCase) String() string { return fmt.Sprintf("%s N=%d %v", tc.p.File, tc.n, tc.c) }

// product is the type's product with the reduction and the move table.
func (tc typeCase) product() *product {
	prod := newProduct(tc.y, tc.c, tc.mt.moves)
	prod.reduce = newReducer(tc.p, prod.future.Words)
	prod.table = tc.mt
	return prod
}

// outcome counts a search's result towards the non-empty outcomes seen.
func (tc typeCase) outcome(r automata.Result) {
	if r.Outcome == automata.NonEmpty {
		*tc.nonEmpty++
	}
}

// compareTypes runs cmp on every cycle type of every program of progs at
// N = 2 and 3 and fails on its first difference. cmp returns how often
// the mechanism under test was used (what names the count) and the
// difference; perTable, if set, adds a count per move table once its
// types are done. The test also fails when fewer than 100 types, fewer
// than minNonEmpty non-empty outcomes or fewer than minUsed uses were
// seen: it would then show little.
func compareTypes(t *testing.T, progs []*pgas.Program, minNonEmpty int, what string, minUsed int64,
	cmp func(typeCase) (int64, string), perTable func(*moveTable) int64) {
	t.Helper()
	types, nonEmpty := 0, 0
	var used int64
	for _, p := range progs {
		first := types // depth-first every fifth type of each program
		for n := 2; n <= 3; n++ {
			y, err := normalform.New(p, n)
			if err != nil {
				t.Fatal(err)
			}
			mt := newMoveTable(y, 1<<26)
			for _, c := range CycleTypes(n) {
				tc := typeCase{p: p, n: n, y: y, mt: mt, c: c, nonEmpty: &nonEmpty}
				tc.opt.Budget = automata.Budget{MaxStates: 100_000}
				if (types-first)%5 == 4 {
					tc.opt.Strategy = automata.DepthFirst
				}
				u, d := cmp(tc)
				if d != "" {
					t.Fatal(d)
				}
				used += u
				types++
			}
			if perTable != nil {
				used += perTable(mt)
			}
		}
	}
	if types < 100 || nonEmpty < minNonEmpty || used < minUsed {
		t.Fatalf("%d cycle types compared, %d non-empty, %d %s", types, nonEmpty, used, what)
	}
	t.Logf("%d cycle types, %d non-empty, %d %s", types, nonEmpty, used, what)
}

// TestMoveMemoParallel: forks of a memoising product (the parallel
// frontier) each keep their own memo and find what one product finds.
func TestMoveMemoParallel(t *testing.T) {
	p, y, mt := ring4(t)
	c := CycleTypes(4)[len(CycleTypes(4))-1]
	defer func(n int) { automata.ParallelAfter = n }(automata.ParallelAfter)
	automata.ParallelAfter = 10
	var res []automata.Result
	for _, opt := range []automata.Options{{}, {Workers: 3}} {
		prod := newProduct(y, c, mt.moves)
		prod.reduce = newReducer(p, prod.future.Words)
		prod.table = mt
		res = append(res, automata.Search(prod, opt))
	}
	if d := sameSearch(res[0], res[1]); d != "" || res[0].Stats.States < 1000 {
		t.Fatalf("parallel vs sequential: %s (%d states)", d, res[0].Stats.States)
	}
}

// TestMoveMemoCap: a memo capped far below what the search would fill
// (searchType sets aside part of the budget for it) starts afresh again
// and again and changes nothing: the robust ring at N = 4, every cycle
// type, a cap of 1 byte against no memo.
func TestMoveMemoCap(t *testing.T) {
	p, y, mt := ring4(t)
	resets := 0
	for _, c := range CycleTypes(4) {
		run := func(memoCap int64, noMemo bool) (automata.Result, *product) {
			prod := newProduct(y, c, mt.moves)
			prod.reduce = newReducer(p, prod.future.Words)
			prod.table, prod.noMemo, prod.memoCap = mt, noMemo, memoCap
			return automata.Search(prod, automata.Options{Budget: automata.Budget{MaxStates: 100_000}}), prod
		}
		a, prod := run(1, false)
		b, _ := run(0, true)
		if d := sameSearch(a, b); d != "" {
			t.Fatalf("type %v: memo capped at 1 byte against none: %s", c, d)
		}
		resets += prod.memoResets
	}
	if resets == 0 {
		t.Fatal("no memo was ever started afresh: the test shows nothing")
	}
	t.Logf("%d memos started afresh", resets)
}

// ring4 is the robust ring, its Y at N = 4 and a move table for it.
func ring4(t *testing.T) (*pgas.Program, *normalform.Y, *moveTable) {
	t.Helper()
	p, err := pgas.Load("../examples/1to1-fixed.pgas")
	if err != nil {
		t.Fatal(err)
	}
	y, err := normalform.New(p, 4)
	if err != nil {
		t.Fatal(err)
	}
	return p, y, newMoveTable(y, 1<<26)
}

// TestMoveMemoRandom is TestMoveMemoChangesNothing on random programs of
// the generator, at N = 2 and 3: the memo of move outcomes changes no
// search of any cycle type (states, transitions, outcome, witness).
func TestMoveMemoRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	moveMemoOver(t, randomPrograms(t, r, 16, mixedConfig), 5)
}
