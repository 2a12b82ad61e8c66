package cycles

import (
	"context"
	"os"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// TestProgressDuringRuntimeCheck: the run-time error check, which is the
// whole run on some inputs, reports progress too (issue 8, row 10e). The
// robust ring at N = 6 has more than 65,536 sequentially consistent
// states of Y when they are all explored, so the check reports at least
// once; the test stops the decision at the first report.
func TestProgressDuringRuntimeCheck(t *testing.T) {
	src, err := os.ReadFile("../examples/1to1-fixed.pgas")
	if err != nil {
		t.Fatal(err)
	}
	p, err := pgas.Compile("1to1-fixed.pgas", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen Progress
	// Without the partial-order reduction the run-time error check of the
	// ring at N = 6 visits about 118,000 states, enough for a report (with
	// it, a few hundred).
	_, err = Decide(p, 6, Options{Context: ctx, NoReduction: true, Progress: func(pr Progress) {
		if seen.States == 0 {
			seen = pr
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !seen.RuntimeCheck || seen.States == 0 {
		t.Errorf("first progress report %+v, want one from the run-time error check", seen)
	}
}
