package cycles

import (
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// TestStuckRanksNeverMoveShmem is TestStuckRanksNeverMove on programs
// with OpenSHMEM commands: the examples of examples/shmem-calculus, the
// two waits of testdata/stuck-*.pgas (a wait released by another rank's
// putval, and an atomic wait on another rank's cell released by its
// owner's store) and random programs, at N = 2 and 3. Each state with a
// stuck rank is explored ahead; the two hand-made waits must show states
// where a rank has no move yet is not stuck.
func TestStuckRanksNeverMoveShmem(t *testing.T) {
	files, _ := filepath.Glob("../examples/shmem-calculus/*.pgas")
	hand, _ := filepath.Glob("testdata/stuck-*.pgas")
	var progs []*pgas.Program
	for _, f := range append(files, hand...) {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	progs = append(progs, shmemSymPrograms(t, 60)...)
	withStuck, waiting := 0, map[string]int{}
	for _, p := range progs {
		for n := 2; n <= 3; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			y, err := normalform.New(p, n)
			if err != nil {
				continue
			}
			ff := newFreeFuture(y)
			for _, s := range yStates(y, 500) {
				moves, _ := y.Moves(s)
				stuck := ff.stuckRanks(y, s, moves)
				if stuck != 0 {
					withStuck++
					moveAhead(t, y, s, stuck, 1000)
				}
				for r := 1; r <= n; r++ {
					if stuck&(1<<r) == 0 && !hasMove(moves, r) && !hasMove(moves, 0) {
						waiting[filepath.Base(p.File)]++
					}
				}
			}
		}
	}
	t.Logf("%d states with stuck ranks; states with a waiting rank that is not stuck: %v", withStuck, waiting)
	if withStuck == 0 || waiting["stuck-send-wait.pgas"] == 0 || waiting["stuck-atomic-wait.pgas"] == 0 {
		t.Fatalf("the test means little: %d stuck, waiting %v", withStuck, waiting)
	}
}

// TestStuckWaitsShmem decides the two hand-made waits of testdata (NOT
// ROBUST for N = 2 and 3, argued in the files) with the shared
// exploration, whose pruning uses the stuck ranks.
func TestStuckWaitsShmem(t *testing.T) {
	hand, _ := filepath.Glob("testdata/stuck-*.pgas")
	if len(hand) != 2 {
		t.Fatalf("want 2 files, have %v", hand)
	}
	for _, f := range hand {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 3; n++ {
			d, err := Decide(p, n, Options{Exploration: Shared, Jobs: 1})
			if err != nil || d.Verdict != NotRobust {
				t.Errorf("%s N = %d: %v %v, want NOT ROBUST", f, n, d, err)
			}
		}
	}
}
