package race_test

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/cycles/race/oracle"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// A created context is not completed by shmem_barrier_all: the 1.6 text
// of shmem_barrier_all completes the updates "on the default context"
// only. Three public race tests labelled race-free (docs/criteria.md,
// "Public race tests") hinge on this reading, so it is pinned here with a
// program of our own, checked by Decide and the oracle.
const ctxProgram = `#include <shmem.h>
static int cell;
int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    shmem_ctx_t ctx;
    shmem_ctx_create(0, &ctx);
    if (me == 0) {
        shmem_ctx_int_atomic_add(ctx, &cell, 1, 1);
    }
    QUIET
    shmem_barrier_all();
    if (me == 1) {
        int seen = cell;
        shmem_int_p(&cell, seen, 1);
    }
    shmem_finalize();
    return 0;
}
`

func TestRaceCreatedContext(t *testing.T) {
	for _, tc := range []struct {
		quiet string
		want  race.Verdict
		why   string
	}{
		{"", race.Race, "the add on ctx may be delivered after the barrier, which completes the default context only: it races with PE 1's load of cell"},
		{"shmem_ctx_quiet(ctx);", race.RaceFree, "the quiet of ctx completes the add before the barrier, and the load and p come after it"},
		{"shmem_quiet();", race.Race, "shmem_quiet completes the default context, not ctx"},
	} {
		src := strings.Replace(ctxProgram, "QUIET", tc.quiet, 1)
		p, err := cfront.Compile("ctx.c", []byte(src), cfront.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 3; n++ {
			res := race.Decide(p, n, race.Options{})
			if res.Verdict != tc.want {
				t.Errorf("%q, N = %d: decide %v, want %v (%s)", tc.quiet, n, res.Verdict, tc.want, tc.why)
			}
			if w := res.Witness; w != nil {
				if err := oracle.Certify(p, n, w.Events, w.I, w.J); err != nil {
					t.Errorf("%q, N = %d: witness: %v", tc.quiet, n, err)
				}
			}
			if or := oracle.Races(p, n, oracle.Options{}); or.Verdict.String() != tc.want.String() {
				t.Errorf("%q, N = %d: oracle %v, want %v (%s)", tc.quiet, n, or.Verdict, tc.want, tc.why)
			}
		}
	}
}
