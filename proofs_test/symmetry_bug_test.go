package proofs_test

import (
	"testing"

	"pgasrob/cycles"
	"pgasrob/pgas"
)

// Regression test for a bug found by TestTheorem16 (fixed in
// cycles/symmetry.go): respects() skipped every expression that does not
// mention `rank`, including the rank argument of a remote command. A
// constant rank such as `N` or `1` is not invariant under renaming ranks,
// so the program was treated as symmetric and the cycle type holding the
// violation was never searched: Decide answered ROBUST.
//
// Hand analysis of the first program with N = 2: rank 2 (= N) does
// read(x, 2, y, q) on itself and then stores to its own y, so
// read -po-> store -cf-> popa (the popa reads (2,y) after the store) and
// popa <-> read: a cycle through two ↔-classes, a violation of cycle type
// (2). Rank 1's read targets rank 2 and is harmless. Cycle type (2) is in
// the orbit of (1) under the swap of ranks, which the program does not
// respect.
func TestSymmetryConstantRank(t *testing.T) {
	for _, src := range []string{
		"values 2\naddress x, y\nqueue q\n  read(x, N, y, q)\n  mem[y] <- 0\n",
		"values 2\naddress y\nqueue q\n  write(y, rank, y, q)\n  read(y, N, y, q)\n",
		"values 2\naddress x, y\nqueue q\n  read(x, 1, y, q)\n  mem[y] <- 0\n",
	} {
		p, err := pgas.Compile("bug.pgas", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		noSym, err := cycles.Decide(p, 2, cycles.Options{Jobs: 1, MaxStates: 100_000, NoSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		if noSym.Verdict != cycles.NotRobust {
			t.Fatalf("without symmetry: %v, want NOT ROBUST (hand analysis above)\n%s", noSym.Verdict, src)
		}
		sym, err := cycles.Decide(p, 2, cycles.Options{Jobs: 1, MaxStates: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		if sym.Verdict != cycles.NotRobust {
			t.Errorf("with rank symmetry: %v, want NOT ROBUST\n%s", sym.Verdict, src)
		}
	}
}
