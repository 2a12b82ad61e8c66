package cfront_test

import (
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// Teams, barriers, collectives, strided transfers, signal routines and
// global exit (testdata/api: each file argues its verdicts in its
// comment): the oracle and decide agree with the files at N = 2 and 3
// (decide at N = 2 only with -short; the oracle always at both), each
// widening the inferred domain and choosing the procedure as the command
// does (the search and the oracle side by side).
func TestAPILitmus(t *testing.T) {
	files := cFiles(t, "testdata/api/*.c", 2)
	oracleVerdicts(t, files, []int{2, 3})
	ns := []int{2, 3}
	if testing.Short() {
		ns = ns[:1]
	}
	for _, l := range files {
		for _, n := range ns {
			r, err := decideWidened(l.prog, n, cycles.Options{Jobs: 2, Timeout: time.Minute, Exploration: cycles.Shared, Procedure: cycles.Auto})
			if err != nil {
				t.Fatalf("%s N=%d: %v", l.file, n, err)
			}
			if r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust || (r.Verdict == cycles.Robust) != l.expect[n] {
				t.Errorf("%s N=%d: decide says %v (%s), the file says %s", l.file, n, r.Verdict, r.Reason, verdict(l.expect[n]))
			}
		}
	}
}

// Each case states, by hand, whether its PROBE is reachable at N = 2
// (probeProgram: PE 0 runs pe0, PE 1 runs pe1): what the collectives
// deliver, and the choices of shmem_init_thread.
func TestAPIValues(t *testing.T) {
	for _, c := range []struct {
		name, globals, pe0, pe1 string
		reachable               bool
	}{
		// fcollect: PE 1's result holds PE 0's element at index 0 and
		// its own at index 1, whatever the timing.
		{"fcollect delivers", "long s; long d[2];", "s = 1;\n shmem_long_fcollect(SHMEM_TEAM_WORLD, d, &s, 1);",
			"s = 2;\n shmem_long_fcollect(SHMEM_TEAM_WORLD, d, &s, 1);\n if (d[0] != 1 || d[1] != 2) PROBE;", false},
		{"fcollect sanity", "long s; long d[2];", "s = 1;\n shmem_long_fcollect(SHMEM_TEAM_WORLD, d, &s, 1);",
			"s = 2;\n shmem_long_fcollect(SHMEM_TEAM_WORLD, d, &s, 1);\n if (d[0] == 1 && d[1] == 2) PROBE;", true},
		// alltoall: PE 1 receives block 1 of PE 0's source at index 0.
		{"alltoall delivers", "long s[2]; long d[2];", "s[1] = 3;\n shmem_long_alltoall(SHMEM_TEAM_WORLD, d, s, 1);",
			"s[0] = 2;\n shmem_long_alltoall(SHMEM_TEAM_WORLD, d, s, 1);\n if (d[0] != 3 || d[1] != 0) PROBE;", false},
		// alltoalls with strides 2 (dest) and 1 (source)
		{"alltoalls strides", "long s[2]; long d[4];", "s[1] = 3;\n shmem_long_alltoalls(SHMEM_TEAM_WORLD, d, s, 2, 1, 1);",
			"shmem_long_alltoalls(SHMEM_TEAM_WORLD, d, s, 2, 1, 1);\n if (d[0] != 3) PROBE;", false},
		// a reduction in place (source == dest): both PEs read 1 + 2
		{"sum in place", "long v;", "v = 1;\n shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &v, &v, 1);",
			"v = 2;\n shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &v, &v, 1);\n if (v != 3) PROBE;", false},
		// element by element, in place, two elements
		{"max in place of 2", "long v[2];", "v[0] = 1; v[1] = 2;\n shmem_long_max_reduce(SHMEM_TEAM_WORLD, v, v, 2);",
			"v[0] = 2; v[1] = 1;\n shmem_long_max_reduce(SHMEM_TEAM_WORLD, v, v, 2);\n if (v[0] != 2 || v[1] != 2) PROBE;", false},
		{"min", "long v; long m;", "v = 1;\n shmem_long_min_reduce(SHMEM_TEAM_WORLD, &m, &v, 1);",
			"v = 2;\n shmem_long_min_reduce(SHMEM_TEAM_WORLD, &m, &v, 1);\n if (m != 1) PROBE;", false},
		{"max to_all", "long v; long m; long w[1]; long ps[1];", "v = 1;\n shmem_long_max_to_all(&m, &v, 1, 0, 0, shmem_n_pes(), w, ps);",
			"v = 2;\n shmem_long_max_to_all(&m, &v, 1, 0, 0, shmem_n_pes(), w, ps);\n if (m != 2) PROBE;", false},
		{"prod", "long v; long m;", "v = 1;\n shmem_long_prod_reduce(SHMEM_TEAM_WORLD, &m, &v, 1);",
			"v = 3;\n shmem_long_prod_reduce(SHMEM_TEAM_WORLD, &m, &v, 1);\n if (m == 3) PROBE;", true},
		// the level shmem_init_thread provides is the library's choice
		{"provided multiple", "", "", "int tl;\n shmem_init_thread(SHMEM_THREAD_FUNNELED, &tl);\n if (tl == SHMEM_THREAD_MULTIPLE) PROBE;", true},
		{"provided single", "", "", "int tl;\n shmem_init_thread(SHMEM_THREAD_SINGLE, &tl);\n if (tl == SHMEM_THREAD_SINGLE) PROBE;", true},
		// after shmem_global_exit, the caller does nothing more
		{"exit stops the caller", "", "", "shmem_global_exit(1);\n PROBE;", false},
		// broadcast: PE 1 receives the root's source; the root waits for
		// nobody (PE 1 may see the flag the root sets after its broadcast
		// before PE 1 itself calls it); the active-set form leaves the
		// root's dest alone; two broadcasts into two dests back to back.
		{"bcast delivers", "long s, d;", "s = 3;\n shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);",
			"shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);\n if (d != 3) PROBE;", false},
		{"bcast root waits for nobody", "long s, d, f;", "shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);\n shmem_long_atomic_set(&f, 1, 1);",
			"if (f == 1) PROBE;\n shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);", true},
		{"bcast active set skips the root", "long s = 2, d; long ps[1];", "shmem_broadcast64(&d, &s, 1, 1, 0, 0, shmem_n_pes(), ps);\n if (d != 2) s = 0;",
			"shmem_broadcast64(&d, &s, 1, 1, 0, 0, shmem_n_pes(), ps);\n if (d != 0) PROBE;", false},
		{"bcast twice", "long s, t, d, e;", "s = 1; t = 2;\n shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);\n shmem_long_broadcast(SHMEM_TEAM_WORLD, &e, &t, 1, 0);",
			"shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);\n shmem_long_broadcast(SHMEM_TEAM_WORLD, &e, &t, 1, 0);\n if (d != 1 || e != 2) PROBE;", false},
		// fetch_nbi: the value is there after the quiet, and may not be
		// before it
		{"fetch_nbi after quiet", "long x = 1;", "", "long f = 0;\n shmem_long_atomic_fetch_nbi(&f, &x, 0);\n shmem_quiet();\n if (f != 1) PROBE;", false},
		{"team parameter", "static int size(shmem_team_t t) { return shmem_team_n_pes(t); }", "",
			"if (size(SHMEM_TEAM_WORLD) != 2) PROBE;", false},
		{"team alias", "", "", "shmem_team_t w = SHMEM_TEAM_WORLD;\n if (shmem_team_n_pes(w) == 2 && shmem_team_my_pe(w) == 1) PROBE;", true},
		{"translate_pe", "", "", "if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_WORLD) == 0) PROBE;", true},
	} {
		src := probeProgram(c.globals, c.pe0, c.pe1)
		p, err := cfront.Compile("probe.c", []byte(src), cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, src)
		}
		r := oracle.Explore(p, 2, oracle.Bounds{MaxQueue: 8, MaxNodes: 2_000_000, Timeout: time.Minute})
		if r.Err != nil || r.Violation == nil && r.RangeErr == nil && !r.Complete {
			t.Fatalf("%s: oracle: %v (%s)", c.name, r.Err, r.Truncated)
		}
		if r.Violation != nil && r.RangeErr == nil {
			// the search stops at a violation: it shows nothing about the probe
			t.Errorf("%s: the oracle stopped at a violation before deciding the probe", c.name)
			continue
		}
		if got := r.RangeErr != nil; got != c.reachable {
			t.Errorf("%s: probe reachable = %v, want %v (%v)", c.name, got, c.reachable, r.RangeErr)
		}
	}
}

// A collective whose buffer is too small for N overruns it in C: from
// that N on, it is a run-time error at the call.
func TestCollectiveOverflow(t *testing.T) {
	src := "#include <shmem.h>\nlong s = 1;\nlong d[2];\nint main(void) {\n shmem_long_fcollect(SHMEM_TEAM_WORLD, d, &s, 1);\n return 0;\n}\n"
	p, err := cfront.Compile("over.c", []byte(src), cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 3} {
		if err := pgas.CheckN(p, n); err != nil {
			t.Fatal(err)
		}
		r := oracle.Explore(p, n, oracle.Bounds{MaxQueue: 8, MaxNodes: 1_000_000, Timeout: time.Minute})
		if got := r.RangeErr != nil; got != (n == 3) {
			t.Errorf("N=%d: run-time error %v, want one only at N = 3", n, r.RangeErr)
		}
		if r.RangeErr != nil && r.RangeErr.Pos.Line != 5 {
			t.Errorf("N=%d: the error is at %v, not at the call (line 5)", n, r.RangeErr.Pos)
		}
	}
}
