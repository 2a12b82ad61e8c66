package cycles

import (
	"fmt"
	"testing"

	"pgasrob/automata"
	"pgasrob/normalform"
	"pgasrob/pgas"
)

// MoveMemoOver is moveMemoOver for the external tests.
var MoveMemoOver = moveMemoOver

// TestMoveMemoChangesNothing: the memo of move outcomes (perstatememo.go)
// changes the cost of a per-type search, not its result. On every example
// at N = 2 and 3, for every cycle type, the search with the memo visits as
// many states over as many transitions as the search that enumerates
// every move's markings afresh, reaches the same outcome and returns the
// same witness; and the memo is used (it replays moves). The random
// programs are in TestMoveMemoRandom (an external test: the generator
// imports this package).
func TestMoveMemoChangesNothing(t *testing.T) {
	moveMemoOver(t, examplePrograms(t), 10)
}

// moveMemoOver runs moveMemoAgrees on every program up to N = 3 and
// fails on the first difference, or when fewer than 100 cycle types (and
// minNonEmpty with a witness) were compared or the memo never replayed a
// move.
func moveMemoOver(t *testing.T, progs []*pgas.Program, minNonEmpty int) {
	t.Helper()
	types, nonEmpty := 0, 0
	var hits int64
	for _, p := range progs {
		ty, ne, h, err := moveMemoAgrees(p, 3)
		if err != "" {
			t.Fatal(err)
		}
		types, nonEmpty, hits = types+ty, nonEmpty+ne, hits+h
	}
	if types < 100 || nonEmpty < minNonEmpty || hits == 0 {
		t.Fatalf("%d cycle types compared, %d non-empty, %d moves replayed", types, nonEmpty, hits)
	}
	t.Logf("%d cycle types, %d non-empty, %d moves replayed", types, nonEmpty, hits)
}

// moveMemoAgrees compares, for every cycle type at N = 2..maxN, the
// search of p's product with the memo to the one without: it returns the
// types compared, those with a witness, the moves replayed, and the first
// difference.
func moveMemoAgrees(p *pgas.Program, maxN int) (types, nonEmpty int, hits int64, diff string) {
	for n := 2; n <= maxN; n++ {
		y, err := normalform.New(p, n)
		if err != nil {
			return types, nonEmpty, hits, err.Error()
		}
		mt := newMoveTable(y, 1<<26)
		for _, c := range CycleTypes(n) {
			run := func(noMemo bool, opt automata.Options) (automata.Result, *product) {
				prod := newProduct(y, c, mt.moves)
				prod.reduce = newReducer(p, prod.future.Words)
				prod.table, prod.noMemo = mt, noMemo
				opt.Budget = automata.Budget{MaxStates: 100_000}
				return automata.Search(prod, opt), prod
			}
			opt := automata.Options{}
			if types%5 == 4 {
				opt.Strategy = automata.DepthFirst
			}
			a, prod := run(false, opt)
			b, _ := run(true, opt)
			if d := sameSearch(a, b); d != "" {
				return types, nonEmpty, hits, fmt.Sprintf("%s N=%d %v: memo vs enumeration: %s", p.File, n, c, d)
			}
			if prod.memo != nil {
				hits += prod.memo.hits
			}
			if a.Outcome == automata.NonEmpty {
				nonEmpty++
			}
			types++
		}
	}
	return types, nonEmpty, hits, ""
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
