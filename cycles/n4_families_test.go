package cycles

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// familyVerdict reads the "Expected verdict, …: V." line of a family's
// header, where the hand analysis states it.
var familyVerdict = regexp.MustCompile(`(?m)^# Expected verdict[^:]*: (NOT ROBUST|ROBUST)\.`)

// TestN4Families checks the issue-28 families (examples/n4) against the
// verdicts argued in their headers: at N = 2 with the cycle-type search
// and with the unreduced and the reduced oracle; at N = 3 (not under
// -short) with both oracles and the command's default portfolio.
func TestN4Families(t *testing.T) {
	files, _ := filepath.Glob("../examples/n4/*.pgas")
	if len(files) < 6 {
		t.Fatalf("want the six families, found %v", files)
	}
	top := sized(2, 3)
	if testing.Short() {
		top = 2
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := familyVerdict.FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s: no expected verdict in the header", f)
		}
		want := Robust
		if string(m[1]) == "NOT ROBUST" {
			want = NotRobust
		}
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= top; n++ {
			for _, red := range []bool{false, true} {
				o := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 2_000_000, Reduce: red})
				if o.Err != nil || o.RangeErr != nil || (o.Violation != nil) != (want == NotRobust) || (want == Robust && !o.Complete) {
					t.Fatalf("%s N=%d reduce=%v: oracle err %v, range error %v, violation %v, complete %v; the header says %v", f, n, red, o.Err, o.RangeErr, o.Violation != nil, o.Complete, want)
				}
			}
			opt := Options{Procedure: Automata, Jobs: 1}
			if n > 2 {
				opt = Options{Procedure: Auto, Exploration: Shared}
			}
			r, err := Decide(p, n, opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != want {
				t.Fatalf("%s N=%d: %v by %s (%s); the header says %v", f, n, r.Verdict, r.Procedure, r.Reason, want)
			}
		}
	}
}
