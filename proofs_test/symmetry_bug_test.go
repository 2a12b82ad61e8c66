package proofs_test

import (
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
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

// TestSymmetryPerType: with the richer symmetry (every transposition of
// ranks the program respects, cycles/symmetry.go), the verdict of each
// cycle type taken from its orbit's representative equals the verdict of
// its own search, type by type, at N = 3 and 4: on programs with a
// constant rank (whose other ranks are interchangeable, the case the
// richer symmetry adds) and on random programs.
func TestSymmetryPerType(t *testing.T) {
	srcs := []string{
		"values 2\naddress x, y\nqueue q\n  read(x, 1, y, q)\n  mem[y] <- 0\n",
		"values 2\naddress x, y\nregister r\nqueue q\n  mem[x] <- 1\n  write(x, 1, y, q)\n  barrier\n  r <- mem[y]\n",
		"values 2\naddress x, y\nqueue q\n  put(x, N, y, q)\n  barrier\n  assert mem[y] == 0\n",
		"values 2\naddress x, y\nqueue q\n  write(x, rank % N + 1, y, q)\n  read(y, 1, x, q)\n",
	}
	var progs []*pgas.Program
	for _, src := range srcs {
		p, err := pgas.Compile("sym.pgas", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	for seed := uint64(1); seed <= uint64(count(30)); seed++ {
		_, p, _ := program(t, 70000+seed, small)
		progs = append(progs, p)
	}
	for i, p := range progs {
		for _, n := range []int{3, 4} {
			if i >= len(srcs) && n == 4 {
				continue // random programs at N = 3 only, to keep the suite fast
			}
			opt := cycles.Options{MaxStates: 20_000, All: true}
			sym, err := cycles.Decide(p, n, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.NoSymmetry = true
			all, err := cycles.Decide(p, n, opt)
			if err != nil {
				t.Fatal(err)
			}
			if sym.Verdict == cycles.RunError || all.Verdict == cycles.RunError {
				continue
			}
			for k := range all.Types {
				a, s := all.Types[k], sym.Types[k]
				if a.Outcome == automata.Unknown || s.Outcome == automata.Unknown {
					continue
				}
				if a.Outcome != s.Outcome {
					t.Errorf("program %d, N = %d, cycle type %v: searched %v, by symmetry (from %v) %v", i, n, a.Cycle, a.Outcome, s.SymmetricTo, s.Outcome)
				}
			}
		}
	}
}
