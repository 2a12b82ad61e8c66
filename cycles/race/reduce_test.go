package race_test

import (
	"testing"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/pgas"
)

// The reduction follows a rank with only register steps alone, except on
// a cycle of such steps. Here rank 1 issues a put to x on rank 2 and then
// spins for ever on a register; rank 2 loads x. The computation "rank 1
// issues the put, rank 2 loads x, the put is delivered" has a race (a
// plain load and an RMA write nothing orders). Were rank 1's spin loop
// followed alone, the search would go round it and never let rank 2 or
// the queue move: RACE-FREE, wrongly. (The oracle cannot run this program:
// its computations are unbounded.)
func TestRaceReductionSpin(t *testing.T) {
	src := `values 2
address x
register r, s
context c
if rank == 1 {
 putval(1, 2, x, c)
 while r == 0 {
  r <- 0
 }
}
if rank == 2 {
 s <- mem[x]
}
`
	p, err := pgas.Compile("spin.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for n := 2; n <= 3; n++ {
		if res := race.Decide(p, n, race.Options{MaxStates: 100_000}); res.Verdict != race.Race {
			t.Errorf("N = %d: %v (%s), want RACE", n, res.Verdict, res.Reason)
		}
	}
}
