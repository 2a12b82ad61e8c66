package cfront_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// The routines on several ivars (testdata/waitmany: each file argues its
// verdicts in its comment): the oracle and decide agree with the files.
func TestWaitManyLitmus(t *testing.T) {
	files := cFiles(t, "testdata/waitmany/*.c", 2)
	oracleVerdicts(t, files, []int{2, 3})
	for _, l := range files {
		for _, n := range []int{2, 3} {
			r, err := decideWidened(l.prog, n, cycles.Options{Jobs: 2, Timeout: time.Minute})
			if err != nil {
				t.Fatalf("%s N=%d: %v", l.file, n, err)
			}
			if r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust || (r.Verdict == cycles.Robust) != l.expect[n] {
				t.Errorf("%s N=%d: decide says %v (%s), the file says %s", l.file, n, r.Verdict, r.Reason, verdict(l.expect[n]))
			}
		}
	}
}

// probeProgram is a two-PE program: PE 0 runs pe0, PE 1 runs pe1, whose
// PROBE marks a place; reaching it divides by probe, which is 0 there (a
// division by zero, which the oracle reports as a run-time error). So the
// oracle tells whether the place is reachable in X.
func probeProgram(globals, pe0, pe1 string) string {
	return "#include <shmem.h>\n" + globals + "\nlong probe;\nint main(void) {\n" +
		"  int me = shmem_my_pe();\n  if (me == 0) {\n" + pe0 + "\n  } else if (me == 1) {\n" +
		strings.ReplaceAll(pe1, "PROBE", "probe = 1 / probe") + "\n  }\n  return 0;\n}\n"
}

// probed tells a reached probe (a division by zero), or SIZE_MAX used as
// a value (the guard of sizemax.go), from any other run-time error: a
// value leaving the inferred domain, which only says the domain is too
// small (decide would widen it), and fails the test.
func probed(t *testing.T, name string, re *pgas.RangeError) bool {
	switch {
	case re == nil:
		return false
	case re.What == "division" || cfront.IsSizeMaxGuard(re.Val):
		return true
	}
	t.Errorf("%s: run-time error %v is neither the probe nor SIZE_MAX", name, re)
	return false
}

// Each case states, by hand, whether its PROBE is reachable: the values a
// routine can return and store, as docs/shmem.md describes them.
func TestWaitManyValues(t *testing.T) {
	for _, c := range []struct {
		name, globals, pe0, pe1 string
		reachable               bool
	}{
		// test_any returns only satisfied indices: f[0] is never 1.
		{"any never unsatisfied", "long f[2];", "shmem_long_atomic_set(&f[1], 1, 1);",
			"size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n if (i == 0) PROBE;", false},
		{"any satisfied", "long f[2];", "shmem_long_atomic_set(&f[1], 1, 1);",
			"size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n if (i == 1) PROBE;", true},
		{"any none before delivery", "long f[2];", "shmem_long_atomic_set(&f[1], 1, 1);",
			"if (shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1) == SIZE_MAX) PROBE;", true},
		// both satisfied from the start: either index may be returned
		{"any chooses 0", "long f[2] = {1, 1};", "",
			"size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n if (i == 0) PROBE;", true},
		{"any chooses 1", "long f[2] = {1, 1};", "",
			"size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n if (i == 1) PROBE;", true},
		{"any never none when satisfied", "long f[2] = {1, 1};", "",
			"size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n if (i == SIZE_MAX) PROBE;", false},
		// a status excludes: f[1] is excluded, so only SIZE_MAX or 0
		{"status excludes", "long f[2] = {1, 1};", "",
			"int st[2]; st[0] = 1; st[1] = 0;\n size_t i = shmem_long_test_any(f, 2, st, SHMEM_CMP_EQ, 1);\n if (i != 1) PROBE;", false},
		{"all excluded: SIZE_MAX", "long f[2] = {1, 1};", "",
			"int st[2]; st[0] = 1; st[1] = 1;\n size_t i = shmem_long_test_any(f, 2, st, SHMEM_CMP_EQ, 1);\n if (i == SIZE_MAX) PROBE;", true},
		// SIZE_MAX used as a value is a run-time error (the guard)
		{"SIZE_MAX used as a value", "long f[2];", "",
			"size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n long x[3];\n x[0] = i;", true},
		// test_all: 1 exactly when every selected cell satisfies
		{"all false", "long f[2];", "shmem_long_atomic_set(&f[1], 1, 1);",
			"if (shmem_long_test_all(f, 2, NULL, SHMEM_CMP_EQ, 1)) PROBE;", false},
		{"all true", "long f[2] = {1, 1};", "",
			"if (!shmem_long_test_all(f, 2, NULL, SHMEM_CMP_EQ, 1)) PROBE;", false},
		{"all with status", "long f[2] = {1, 0};", "",
			"int st[2]; st[0] = 0; st[1] = 1;\n if (!shmem_long_test_all(f, 2, st, SHMEM_CMP_EQ, 1)) PROBE;", false},
		// test_some counts every satisfied cell, indices in any order
		{"some counts all", "long f[2] = {1, 1};", "",
			"size_t idx[2];\n size_t k = shmem_long_test_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);\n if (k != 2) PROBE;", false},
		{"some order 1,0", "long f[2] = {1, 1};", "",
			"size_t idx[2];\n size_t k = shmem_long_test_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);\n if (idx[0] == 1) PROBE;", true},
		{"some order 0,1", "long f[2] = {1, 1};", "",
			"size_t idx[2];\n size_t k = shmem_long_test_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);\n if (idx[0] == 0) PROBE;", true},
		// wait_until_some returns at least one satisfied index
		{"wait some at least one", "long f[2];", "shmem_long_atomic_set(&f[1], 1, 1);",
			"size_t idx[2];\n size_t k = shmem_long_wait_until_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);\n if (k == 0) PROBE;", false},
		{"wait some only satisfied", "long f[2];", "shmem_long_atomic_set(&f[1], 1, 1);",
			"size_t idx[2];\n size_t k = shmem_long_wait_until_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);\n if (idx[0] != 1) PROBE;", false},
		{"wait some returns", "long f[2];", "shmem_long_atomic_set(&f[1], 1, 1);",
			"size_t idx[2];\n size_t k = shmem_long_wait_until_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);\n if (k == 1) PROBE;", true},
		// vector forms: per-element values
		{"vector", "long f[2];", "shmem_long_atomic_set(&f[0], 2, 1);",
			"long w[2]; w[0] = 2; w[1] = 3;\n size_t i = shmem_long_wait_until_any_vector(f, 2, NULL, SHMEM_CMP_EQ, w);\n if (i != 0) PROBE;", false},
		{"vector all", "long f[2];", "shmem_long_atomic_set(&f[0], 2, 1);\n shmem_long_atomic_set(&f[1], 3, 1);",
			"long w[2]; w[0] = 2; w[1] = 3;\n shmem_long_wait_until_all_vector(f, 2, NULL, SHMEM_CMP_EQ, w);\n PROBE;", true},
		{"wait any status none selected", "long f[2];", "",
			"int st[2]; st[0] = 1; st[1] = 1;\n size_t i = shmem_long_wait_until_any(f, 2, st, SHMEM_CMP_EQ, 1);\n if (i == SIZE_MAX) PROBE;", true},
	} {
		src := probeProgram(c.globals, c.pe0, c.pe1)
		p, err := cfront.Compile("probe.c", []byte(src), cfront.Options{})
		if err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, src)
			continue
		}
		r := exploreWidened(p, 2, oracle.Bounds{MaxQueue: 8, MaxNodes: 1_000_000, Timeout: time.Minute})
		if r.Err != nil || r.RangeErr == nil && !r.Complete {
			t.Errorf("%s: oracle: %v (complete %v)", c.name, r.Err, r.Complete)
			continue
		}
		if got := probed(t, c.name, r.RangeErr); got != c.reachable {
			t.Errorf("%s: probe reachable %v, want %v (%v)", c.name, got, c.reachable, r.RangeErr)
		}
	}
}

// Arguments outside the subset are refused by name.
func TestWaitManyRefused(t *testing.T) {
	for _, c := range []struct{ globals, body, want string }{
		{"long f[4];", "shmem_long_test_all(f, 4, NULL, SHMEM_CMP_EQ, 1);", "at most 3"},
		{"long f[2]; int st[2];", "shmem_long_test_all(f, 2, st, SHMEM_CMP_EQ, 1);", "status argument"},
		{"long f[2]; size_t idx[2];", "shmem_long_test_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);", "indices argument"},
		{"long f[2];", "long g[2]; shmem_long_test_all(g, 2, NULL, SHMEM_CMP_EQ, 1);", "not symmetric"},
		{"long f[2];", "size_t i = 0; if (i == SIZE_MAX) return 1;", "comparison with SIZE_MAX"},
		{"long f[2];", "size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1); i = 0;", "assigned again"},
		{"long f[2];", "if (shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1) < SIZE_MAX) return 1;", "SIZE_MAX is outside"},
	} {
		src := fmt.Sprintf("#include <shmem.h>\n%s\nint main(void) {\n %s\n return 0;\n}\n", c.globals, c.body)
		_, err := cfront.Compile("bad.c", []byte(src), cfront.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.c:") {
			t.Errorf("%q: got %v, want an error naming %q", c.body, err, c.want)
		}
	}
}
