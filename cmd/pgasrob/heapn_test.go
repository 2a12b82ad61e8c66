package main

import (
	"strings"
	"testing"
)

// A C program whose memory depends on N (a heap block of one cell per PE)
// is translated per N: decided at each single N, and refused with a
// message asking for one N on a range.
func TestDecideHeapPerN(t *testing.T) {
	f := "../../pgas/cfront/testdata/heap/mp-fence-npes.c"
	for _, n := range []string{"2", "3"} {
		code, out, errs := runCmd("decide", f, "-n", n)
		if code != exitRobust || !strings.Contains(out, "ROBUST") {
			t.Errorf("-n %s: exit %d\n%s%s", n, code, out, errs)
		}
	}
	code, _, errs := runCmd("decide", f, "-n", "2..3")
	if code != exitUsage || !strings.Contains(errs, "depends on the number of PEs") || !strings.Contains(errs, "give one N") {
		t.Errorf("-n 2..3: exit %d\n%s", code, errs)
	}
	code, out, errs := runCmd("check", f, "-n", "3")
	if code != exitRobust {
		t.Errorf("check -n 3: exit %d\n%s%s", code, out, errs)
	}
}
