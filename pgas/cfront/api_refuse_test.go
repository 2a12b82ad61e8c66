package cfront

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// What the API families cannot translate exactly, they refuse by name at
// the call (wrap's layout: main's body is line 6).
func TestAPIRefusals(t *testing.T) {
	for _, c := range []struct {
		globals, main string
		col           int
		want          string
	}{
		{"long d, s;", "shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &d, 1, 0);", 1, "overlapping source and destination"},
		{"long d, s; long ps[1];", "shmem_broadcast64(&d, &s, 1, 0, 0, 0, shmem_n_pes() - 1, ps);", 1, "active set that is not every PE"},
		{"long d, s;", "shmem_long_or_reduce(SHMEM_TEAM_WORLD, &d, &s, 1);", 1, "no bitwise operators"},
		{"long d, s;", "shmem_long_sum_inscan(SHMEM_TEAM_WORLD, &d, &s, 1);", 1, "scans are not in the subset"},
		{"long ps[1];", "shmem_barrier(0, 0, shmem_n_pes() / 2, ps);", 21, "the translation is made for one N"},
		{"long ps[1];", "shmem_barrier(1, 0, shmem_n_pes(), ps);", 21, "the translation is made for one N"},
		{"long ps[1];", "shmem_sync(0, 1, shmem_n_pes(), ps);", 18, "the translation is made for one N"},
		{"", "shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, 1, 0, 0, 0);", 59, "the new team of shmem_team_split_strided must be &team"},
		{"", "shmem_team_sync(SHMEM_TEAM_INVALID);", 17, "SHMEM_TEAM_INVALID"},
		{"", "shmem_team_t t; shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, 1, 0, 0, &t); shmem_team_sync(t);", 80, "the translation is made for one N"},
		{"", "shmem_team_t t = SHMEM_TEAM_WORLD; t = SHMEM_TEAM_SHARED;", 14, "shmem_team_t object t"},
		{"", "shmem_team_destroy(SHMEM_TEAM_WORLD);", 1, "shmem_team_destroy of a predefined team"},
		{"", "int tl; shmem_init_thread(SHMEM_THREAD_MULTIPLE, &tl);", 27, "threads are not modelled"},
		{"", "int tl; shmem_query_thread(&tl);", 9, "shmem_query_thread"},
		{"", "int p[1]; p[0] = 1; shmem_pe_quiet(p, 1);", 21, "shmem_pe_quiet: completing the operations to some PEs only"},
		{"long d[4], s[4];", "shmem_long_fcollect(SHMEM_TEAM_WORLD, d, d, 1);", 1, "overlapping source and destination"},
		{"long d[4]; long s;", "int v = 1; shmem_long_fcollect(SHMEM_TEAM_WORLD, d, &v, 1);", 53, "v is not symmetric"},
		{"long d[4], s[4];", "int n = 2; n = n + shmem_my_pe(); shmem_long_collect(SHMEM_TEAM_WORLD, d, s, n);", 78, "only a constant count"},
		{"long d[9], s[9];", "shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, s, 10);", 1, "reduction of 10 elements on a buffer with fewer"},
		{"long a[4], b[4];", "int k = 2; k = k + shmem_my_pe(); shmem_long_iput(a, b, k, 1, 2, 1);", 35, "strides of shmem_long_iput"},
		{"long a[10], b[10];", "shmem_long_iput(a, b, 2, 1, 5, 1); shmem_long_atomic_inc(&b[0], 0);", 1, "blocking shmem_long_iput of 5 elements from the symmetric object b, which the program also writes"},
		{"long a[4];", "long b[4]; shmem_long_iget(b, a, 4, 1, 2, 1);", 28, "access to element 4..4 of b"},
		{"", "for (int i = 0; i < 2; i++) { shmem_ctx_t c; shmem_ctx_create(0, &c); }", 43, "a shmem_ctx_t local inside a loop"},
		{"shmem_ctx_t cs[2];", "int k = 1; shmem_ctx_create(0, &cs[k]); shmem_ctx_fence(cs[2]);", 57, "context 2 of an array of 2"},
		{"shmem_ctx_t cs[2];", "shmem_ctx_t c = cs[0];", 17, "an initialised shmem_ctx_t"},
		{"long x;", "long f; shmem_long_atomic_fetch_add_nbi(&f, &x, 1, 1);", 9, "shmem_long_atomic_fetch_add_nbi is translated only when a quiet of its context follows it at once"},
	} {
		src := wrap(c.globals, c.main)
		_, err := Translate("t.c", []byte(src), Options{})
		var list pgas.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%s / %s: want an error, got %v", c.globals, c.main, err)
			continue
		}
		e := list[0]
		if e.Pos.Line != 6 || e.Pos.Col != c.col || !strings.Contains(e.Msg, c.want) {
			t.Errorf("%s / %s: got %d:%d: %s; want 6:%d: …%s…", c.globals, c.main, e.Pos.Line, e.Pos.Col, e.Msg, c.col, c.want)
		}
	}
}
