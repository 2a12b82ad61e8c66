package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
)

// repairedMP repairs mp-unsync.pgas for N = 2: message passing over two
// queues (its comment argues the violation), cut by waiting for the data
// write before the flag is written: one wait, cost 1.
func repairedMP(t *testing.T) ([]byte, *repair.Result) {
	t.Helper()
	src, err := os.ReadFile("../../examples/mp-unsync.pgas")
	if err != nil {
		t.Fatal(err)
	}
	res, err := repair.Repair("mp-unsync.pgas", src, []int{2}, repair.Options{Decide: cycles.Options{Jobs: 1}, Costs: repair.DefaultCosts()})
	if err != nil || res.Verdict != repair.Repaired {
		t.Fatalf("repair: %v %v", res, err)
	}
	return src, res
}

// A repair as diagnostics: one error per insertion, at the line it edits
// (the golden file checked by hand: line 31, the flag's write, where the
// wait goes).
func TestRepairGCCGolden(t *testing.T) {
	_, res := repairedMP(t)
	var b bytes.Buffer
	WriteRepairGCC(&b, "mp-unsync.pgas", res, nil)
	golden(t, "gcc/repair-mp-unsync.txt", b.Bytes())
	if n := strings.Count(b.String(), ": error: "); n != len(res.Insertions) || !strings.HasPrefix(b.String(), "mp-unsync.pgas:31:") {
		t.Errorf("%d errors for %d insertions, want one each at line 31:\n%s", n, len(res.Insertions), b.String())
	}
	b.Reset()
	WriteRepairGCC(&b, "k.pgas", &repair.Result{Verdict: repair.AlreadyRobust}, nil)
	if b.Len() != 0 {
		t.Errorf("an already robust program: %q, want nothing", b.String())
	}
}

// repairFile is the repair as a File of the SARIF log.
func repairFile(t *testing.T) File {
	src, res := repairedMP(t)
	return File{Path: "mp-unsync.pgas", Src: src, Repair: res}
}

// A repair in SARIF: one not-robust result at the insertion, with the
// insertion as a related location and the repair as its fix; the log
// passes the schema.
func TestRepairSARIF(t *testing.T) {
	f := repairFile(t)
	if err := SARIF([]File{f}, "0.1.0").Validate(); err != nil {
		t.Fatalf("schema: %v", err)
	}
	l, _ := decodeSARIF(t, []File{f})
	rs := l.Runs[0].Results
	if len(rs) != 1 || rs[0].RuleID != RuleNotRobust || len(rs[0].Fixes) != 1 || len(rs[0].RelatedLocations) != len(f.Repair.Insertions) {
		t.Fatalf("results %+v, want one not-robust result with the fix", rs)
	}
	if rs[0].Locations[0].PhysicalLocation.Region.StartLine != 31 {
		t.Errorf("at line %d, want 31", rs[0].Locations[0].PhysicalLocation.Region.StartLine)
	}
}

// cycles --format gcc: decide's diagnostics, then a note per feasible
// cycle type. flag-put.c (store buffering through two puts) has one
// feasible type of 3 for N = 2, (1 2): both PEs' puts delayed.
func TestCyclesGCC(t *testing.T) {
	p, o := decided(t, "shmem/flag-put.c", 2)
	var b bytes.Buffer
	WriteCyclesGCC(&b, "flag-put.c", p, []Outcome{o})
	feasible := 0
	for _, tr := range o.Res.Types {
		if tr.Outcome == automata.NonEmpty {
			feasible++
		}
	}
	if got := strings.Count(b.String(), "cycle type "); got != feasible || feasible == 0 || !strings.Contains(b.String(), "flag-put.c: note: N = 2: cycle type (1 2): feasible") {
		t.Errorf("%d cycle type notes for %d feasible types:\n%s", got, feasible, b.String())
	}
}
