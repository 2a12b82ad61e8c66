package pgas_test

import (
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// TestRankSteps: in every reachable state of a program with local
// commands, RMA, atomics, a barrier and a run-time error (the division),
// RankSteps(s, r) is exactly Steps(s)'s commands of rank r, in order,
// with the same successors and the same errors.
func TestRankSteps(t *testing.T) {
	src := `values 3
address x, y
register a, b
context c
queue f
a <- rank - 1
if rank == 1 {
 putval(1, 2, x, c)
 b <- amo_fetch_add(1, 2, y, c)
 write(x, 2, y, f)
}
b <- mem[x] when b == 0
a <- 2 / a
barrier
`
	p, err := pgas.Compile("ranksteps.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := pgas.NewMachine(p, 2)
	seen := map[string]bool{}
	todo := []*pgas.XState{m.Initial()}
	errs := 0
	for len(todo) > 0 && len(seen) < 5000 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[s.Key()] {
			continue
		}
		seen[s.Key()] = true
		all, allErrs := m.Steps(s)
		for r := 1; r <= 2; r++ {
			var want []pgas.Step
			for _, st := range all {
				if st.Move.Kind == pgas.MoveCmd && st.Move.Rank == r {
					want = append(want, st)
				}
			}
			var wantErrs []*pgas.CmdError
			for _, e := range allErrs {
				if e.Rank == r {
					wantErrs = append(wantErrs, e)
				}
			}
			got, gotErrs := m.RankSteps(s, r)
			if len(got) != len(want) || len(gotErrs) != len(wantErrs) {
				t.Fatalf("rank %d in\n%v: %d steps, %d errors; want %d, %d", r, s, len(got), len(gotErrs), len(want), len(wantErrs))
			}
			for i := range got {
				if got[i].Move.String() != want[i].Move.String() || got[i].Next.Key() != want[i].Next.Key() || len(got[i].Events) != len(want[i].Events) {
					t.Fatalf("rank %d in\n%v: step %d is %v, want %v", r, s, i, got[i].Move, want[i].Move)
				}
			}
			for i := range gotErrs {
				if gotErrs[i].Error() != wantErrs[i].Error() {
					t.Fatalf("rank %d: error %v, want %v", r, gotErrs[i], wantErrs[i])
				}
			}
			errs += len(gotErrs)
		}
		for _, st := range all {
			todo = append(todo, st.Next)
		}
	}
	if len(seen) < 20 || errs == 0 {
		t.Fatalf("%d states, %d errors: the program does not exercise RankSteps", len(seen), errs)
	}
}
