package cfront_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// Barriers and syncs over part of the PEs (testdata/subbar: each file
// argues its verdicts in its comment). Their sets depend on N, so each
// file is translated once per N; the oracle and decide agree with the
// file at N = 2..4 (decide at N = 4 not with -short).
func TestSubsetBarrierLitmus(t *testing.T) {
	files, err := filepath.Glob("testdata/subbar/*.c")
	if err != nil || len(files) < 4 {
		t.Fatalf("testdata/subbar: %v %v", files, err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		expect := map[int]bool{}
		for _, m := range expectRE.FindAllSubmatch(regexp.MustCompile(`expect:[^\n]*`).Find(src), -1) {
			n, _ := strconv.Atoi(string(m[1]))
			expect[n] = string(m[2]) == "ROBUST"
		}
		if len(expect) != 3 {
			t.Fatalf("%s: the expect line must give verdicts for N = 2, 3, 4", f)
		}
		for n := 2; n <= 4; n++ {
			p, err := cfront.Compile(f, src, cfront.Options{N: n})
			if err != nil {
				t.Fatalf("%s N=%d: %v", f, n, err)
			}
			r := exploreWidened(p, n, oracle.Bounds{MaxQueue: 8, MaxNodes: 5_000_000, Timeout: time.Minute})
			switch {
			case r.Err != nil || r.RangeErr != nil:
				t.Errorf("%s N=%d: oracle: %v %v", f, n, r.Err, r.RangeErr)
			case r.Violation == nil && !r.Complete:
				t.Errorf("%s N=%d: the oracle was cut short (%s)", f, n, r.Truncated)
			case (r.Violation == nil) != expect[n]:
				t.Errorf("%s N=%d: oracle says %s, the file says %s", f, n, verdict(r.Violation == nil), verdict(expect[n]))
			}
			if testing.Short() && n == 4 {
				continue
			}
			d, err := decideWidened(p, n, cycles.Options{Jobs: 2, Timeout: time.Minute})
			if err != nil {
				t.Fatalf("%s N=%d: %v", f, n, err)
			}
			if d.Verdict != cycles.Robust && d.Verdict != cycles.NotRobust || (d.Verdict == cycles.Robust) != expect[n] {
				t.Errorf("%s N=%d: decide says %v (%s), the file says %s", f, n, d.Verdict, d.Reason, verdict(expect[n]))
			}
		}
	}
}

// What the calls become: the set of an active set (PE_start,
// logPE_stride, PE_size) or of a strided team, in ranks (PE + 1), after
// a quiet for shmem_barrier only; every PE is the plain barrier; a set
// that names a PE beyond the last is the run-time error of an undefined
// call, since it may be unreachable: a barrier over no rank (at N = 1, a
// register set beyond every domain).
func TestSubsetBarrierTranslation(t *testing.T) {
	for _, c := range []struct {
		body    string
		n       int
		want    []string
		notWant []string
	}{
		{"shmem_barrier(0, 1, (shmem_n_pes() + 1) / 2, ps);", 4, []string{"quiet ctx_default", "barrier {1, 3}"}, nil},
		{"shmem_barrier(1, 0, 2, ps);", 3, []string{"quiet ctx_default", "barrier {2, 3}"}, nil},
		{"shmem_sync(0, 0, 2, ps);", 4, []string{"barrier {1, 2}"}, []string{"quiet"}},
		{"shmem_sync(0, 0, shmem_n_pes(), ps);", 4, []string{"barrier\n"}, []string{"barrier {"}},
		{"shmem_sync(0, 0, 2, ps);", 2, []string{"barrier\n"}, []string{"barrier {"}},
		{"shmem_sync(1, 1, 2, ps);", 3, []string{"barrier {2..1}"}, nil},
		{"shmem_sync(0, 0, 2, ps);", 1, []string{"rank - rank + "}, []string{"barrier {"}},
		{"shmem_team_t tm; shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, 2, NULL, 0, &tm); shmem_team_sync(tm);", 4, []string{"barrier {2, 4}"}, nil},
		{"shmem_team_t tm; shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, 2, NULL, 0, &tm); shmem_sync(tm);", 4, []string{"barrier {2, 4}"}, []string{"quiet"}},
		{"shmem_team_t tm; shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, 2, NULL, 0, &tm); shmem_sync(tm);", 3, []string{"barrier {2..1}"}, nil},
	} {
		r, err := cfront.Translate("t.c", []byte(subWrap("long ps[1];", c.body)), cfront.Options{N: c.n})
		if err != nil {
			t.Errorf("%s (N=%d): %v", c.body, c.n, err)
			continue
		}
		src := string(r.Source)
		for _, w := range c.want {
			if !strings.Contains(src, w) {
				t.Errorf("%s (N=%d): no %q in\n%s", c.body, c.n, w, src)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(src, w) {
				t.Errorf("%s (N=%d): %q in\n%s", c.body, c.n, w, src)
			}
		}
	}
}

// A PE outside the set that calls the sync is the calculus's run-time
// error for a rank outside a barrier's set, found by the oracle and by
// decide, at the call; an active set that is not constant is refused by
// name; without one N the translation asks for it.
func TestSubsetBarrierErrors(t *testing.T) {
	p, err := cfront.Compile("t.c", []byte(subWrap("long ps[1];", "shmem_sync(0, 0, 1, ps);")), cfront.Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := oracle.Explore(p, 2, oracle.Bounds{MaxQueue: 4, MaxNodes: 100_000})
	if r.RangeErr == nil || r.RangeErr.What != "barrier" || r.RangeErr.Val != 2 || r.RangeErr.Pos.Line != 6 {
		t.Errorf("oracle: want rank 2 outside the barrier's set at line 6, got %v", r.RangeErr)
	}
	d, err := cycles.Decide(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
	if err != nil || d.Verdict != cycles.RunError || d.RunError == nil || !strings.Contains(d.RunError.Err.Error(), "a set without it") {
		t.Errorf("decide: want the run-time error, got %v %v", d, err)
	}
	for _, c := range []struct {
		body, want string
		opt        cfront.Options
	}{
		{"int k = shmem_my_pe(); shmem_sync(k, 0, 1, ps);", "the active set of shmem_sync", cfront.Options{N: 2}},
		{"shmem_barrier(0, 0, shmem_n_pes() / 2, ps);", "the translation is made for one N", cfront.Options{}},
		{"long d, s; shmem_broadcast64(&d, &s, 1, 0, 0, 0, 1, ps);", "a collective over part of the PEs", cfront.Options{N: 2}},
	} {
		_, err := cfront.Translate("t.c", []byte(subWrap("long ps[1];", c.body)), c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want …%s…", c.body, err, c.want)
		}
	}
}

// subWrap is wrap of the package's internal tests (main's body is line 6).
func subWrap(globals, main string) string {
	return "#include <shmem.h>\n#include <assert.h>\n#include <stdlib.h>\n" + globals + "\nint main(void) {\n" + main + "\n return 0;\n}\n"
}
