package cfront_test

import (
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
)

// The C of issue 33 (C11 generics, switch, bitwise operators, structs,
// nested and compound assignments, the C library): each file of
// testdata/clang states its verdicts for N = 2 and 3 with the argument
// why; the oracle and decide must both agree with it.
func TestCLangOracle(t *testing.T) {
	oracleVerdicts(t, cFiles(t, "testdata/clang/*.c", 2), []int{2, 3})
}

func TestCLangDecide(t *testing.T) {
	for _, l := range cFiles(t, "testdata/clang/*.c", 2) {
		for _, n := range []int{2, 3} {
			r, err := cycles.Decide(l.prog, n, cycles.Options{Jobs: 2, Timeout: 2 * time.Minute})
			if err != nil {
				t.Errorf("%s N=%d: %v", l.file, n, err)
				continue
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
