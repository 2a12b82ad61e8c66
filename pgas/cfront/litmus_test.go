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
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// expectRE reads the verdicts a litmus file states, per N, from its
// comment (argued by hand there): "expect: N=2 ROBUST, N=3 NOT ROBUST, …".
var expectRE = regexp.MustCompile(`N=(\d+) (NOT ROBUST|ROBUST)`)

type litmus struct {
	file   string
	prog   *pgas.Program
	expect map[int]bool // N -> robust
}

func litmusFiles(t *testing.T) []litmus {
	return cFiles(t, "../../examples/shmem/*.c", 3)
}

// cFiles compiles the C files matching pattern and reads their expected
// verdicts, of which each must state want.
func cFiles(t *testing.T, pattern string, want int) []litmus {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files %s: %v", pattern, err)
	}
	var out []litmus
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := cfront.Compile(f, src, cfront.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		l := litmus{file: f, prog: p, expect: map[int]bool{}}
		line := regexp.MustCompile(`expect:[^\n]*`).Find(src)
		for _, m := range expectRE.FindAllSubmatch(line, -1) {
			n, _ := strconv.Atoi(string(m[1]))
			l.expect[n] = string(m[2]) == "ROBUST"
		}
		if len(l.expect) != want {
			t.Fatalf("%s: the expect line must give %d verdicts: %q", f, want, line)
		}
		out = append(out, l)
	}
	return out
}

func verdict(robust bool) string {
	if robust {
		return "ROBUST"
	}
	return "NOT ROBUST"
}

// The brute-force oracle, a direct exploration of X(P,N), confirms every
// litmus file's stated verdict at N = 2, 3 and 4 (issue 26 asks for 2 and 3; 4 takes a second more).
func TestLitmusOracle(t *testing.T) {
	oracleVerdicts(t, litmusFiles(t), []int{2, 3, 4})
}

// The kernels' stated verdicts, by the oracle (N = 3 takes a few seconds).
func TestKernelsOracle(t *testing.T) {
	ns := []int{2, 3}
	if testing.Short() {
		ns = ns[:1]
	}
	oracleVerdicts(t, cFiles(t, "../../examples/shmem/kernels/*.c", 2), ns)
}

func oracleVerdicts(t *testing.T, files []litmus, ns []int) {
	for _, l := range files {
		for _, n := range ns {
			if err := pgas.CheckN(l.prog, n); err != nil {
				t.Errorf("%s N=%d: %v", l.file, n, err)
				continue
			}
			r := exploreWidened(l.prog, n, oracle.Bounds{MaxQueue: 8, MaxNodes: 5_000_000, Timeout: time.Minute})
			switch {
			case r.Err != nil:
				t.Errorf("%s N=%d: %v", l.file, n, r.Err)
			case r.RangeErr != nil:
				t.Errorf("%s N=%d: run-time error %v", l.file, n, r.RangeErr)
			case r.Violation == nil && !r.Complete:
				t.Errorf("%s N=%d: the oracle was cut short (%s) after %d states", l.file, n, r.Truncated, r.Explored)
			case (r.Violation == nil) != l.expect[n]:
				t.Errorf("%s N=%d: oracle says %s, the file says %s", l.file, n, verdict(r.Violation == nil), verdict(l.expect[n]))
			}
		}
	}
}

// decide (Theorem 16's procedure, with contexts: docs/shmem-calculus.md)
// gives every litmus file's stated verdict for N = 2..4.
func TestLitmusDecide(t *testing.T) {
	for _, l := range litmusFiles(t) {
		for _, n := range []int{2, 3, 4} {
			if testing.Short() && n == 4 {
				continue
			}
			r, err := decideWidened(l.prog, n, cycles.Options{Jobs: 2, Timeout: 2 * time.Minute})
			if err != nil {
				t.Errorf("%s N=%d: %v", l.file, n, err)
				continue
			}
			if r.Verdict == cycles.RunError && r.RunError != nil && strings.Contains(r.RunError.Err.Error(), "unknown command") {
				// The normal form of issue 25 (helper s3-y) is not
				// merged on this branch yet.
				t.Skipf("decide does not know the OpenSHMEM commands yet: %v", r.RunError.Err)
			}
			switch r.Verdict {
			case cycles.Robust, cycles.NotRobust:
				if got := r.Verdict == cycles.Robust; got != l.expect[n] {
					t.Errorf("%s N=%d: decide says %s, the file says %s", l.file, n, verdict(got), verdict(l.expect[n]))
				}
			default:
				t.Errorf("%s N=%d: no verdict: %v %s", l.file, n, r.Verdict, r.Reason)
			}
		}
	}
}
