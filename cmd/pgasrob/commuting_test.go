package main

import (
	"strings"
	"testing"
)

// TestCommutingDefaultCLI: robustness modulo commuting updates is the
// default of decide, cycles and repair; --strict-conflicts gives the
// paper's relation; --commuting-atomics is accepted without effect and is
// a usage error with --strict-conflicts. The verdicts are those argued in
// the files' headers (docs/deviations.md, entry 14): two unfenced adds to
// one counter are ROBUST modulo commuting updates and NOT ROBUST strictly,
// on a .pgas window from 0, a signed window, and a C int counter whose
// window is signed; adds of opposite signs stay in conflict.
func TestCommutingDefaultCLI(t *testing.T) {
	cases := []struct {
		file              string
		n                 string
		strict, commuting int
	}{
		{"../../examples/commuting/two-adds.pgas", "2", exitNotRobust, exitRobust},
		{"../../examples/commuting/signed-counter.pgas", "2", exitNotRobust, exitRobust},
		{"../../examples/commuting/mixed-signs.pgas", "2", exitNotRobust, exitNotRobust},
		{"../../examples/commuting/counter.c", "2..3", exitNotRobust, exitRobust},
	}
	for _, c := range cases {
		if code, out, errs := runCmd("decide", c.file, "-n", c.n); code != c.commuting {
			t.Errorf("decide %s: exit %d, want %d\n%s%s", c.file, code, c.commuting, out, errs)
		}
		if code, out, errs := runCmd("decide", c.file, "-n", c.n, "--commuting-atomics"); code != c.commuting {
			t.Errorf("decide %s --commuting-atomics: exit %d, want %d\n%s%s", c.file, code, c.commuting, out, errs)
		}
		if code, out, errs := runCmd("decide", c.file, "-n", c.n, "--strict-conflicts"); code != c.strict {
			t.Errorf("decide %s --strict-conflicts: exit %d, want %d\n%s%s", c.file, code, c.strict, out, errs)
		}
	}
	code, _, errs := runCmd("decide", "../../examples/commuting/two-adds.pgas", "-n", "2", "--strict-conflicts", "--commuting-atomics")
	if code != exitUsage || !strings.Contains(errs, "two conflict relations") {
		t.Errorf("both flags: exit %d, %s", code, errs)
	}
	// cycles lists the feasible cycle types under the relation asked for.
	code, out, errs := runCmd("cycles", "../../examples/commuting/two-adds.pgas", "-n", "2")
	if code != exitRobust || strings.Contains(out, " feasible ") {
		t.Errorf("cycles: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd("cycles", "../../examples/commuting/two-adds.pgas", "-n", "2", "--strict-conflicts")
	if code != exitNotRobust || !strings.Contains(out, "feasible") {
		t.Errorf("cycles --strict-conflicts: exit %d\n%s%s", code, out, errs)
	}
	// repair has nothing to insert by default, one fence strictly (exit 0
	// both: the program is robust, or repaired).
	code, out, errs = runCmd("repair", "../../examples/commuting/two-adds.pgas", "-n", "2")
	if code != exitRobust || strings.Contains(out, "REPAIRED") {
		t.Errorf("repair: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd("repair", "../../examples/commuting/two-adds.pgas", "-n", "2", "--strict-conflicts")
	if code != exitRobust || !strings.Contains(out, "REPAIRED at cost 1") || !strings.Contains(out, "fence c") {
		t.Errorf("repair --strict-conflicts: exit %d\n%s%s", code, out, errs)
	}
	// difftest compares under the relation asked for, on both sides.
	for _, args := range [][]string{{}, {"--strict-conflicts"}} {
		a := append([]string{"difftest", "--count", "20", "--atomics"}, args...)
		if code, out, errs := runCmd(a...); code != 0 || !strings.Contains(out, "0 disagree") {
			t.Errorf("%v: exit %d\n%s%s", a, code, out, errs)
		}
	}
}
