package oracle_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

var verdictLine = regexp.MustCompile(`(?m)^# Expected verdict for N = (\d+): (NOT ROBUST|ROBUST)\b`)

// TestExamples runs the oracle on every bundled example and compares its
// answer with the verdict the example's header claims. The oracle knows
// nothing of the decision procedure, so this checks the headers (and the
// compiler's expansions) against the definitions.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.pgas")
	if len(files) == 0 {
		t.Skip("no examples in ../../examples")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := verdictLine.FindSubmatch(src)
			if m == nil {
				t.Skip("no expected verdict in the header")
			}
			n, _ := strconv.Atoi(string(m[1]))
			wantRobust := string(m[2]) == "ROBUST"
			p, err := pgas.Compile(f, src)
			if err != nil {
				t.Fatal(err)
			}
			res := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 300_000, Timeout: 30 * time.Second})
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			switch {
			case res.Violation != nil && wantRobust:
				h := pgas.HappensBefore(res.Violation)
				t.Errorf("header says ROBUST for N=%d, the oracle found a violation:\n%s", n, h.FormatCycle(p, res.Cycle))
			case res.Violation == nil && !res.Complete:
				t.Skipf("oracle inconclusive (%s after %d states)", res.Truncated, res.Explored)
			case res.Violation == nil && !wantRobust:
				t.Errorf("header says NOT ROBUST for N=%d, the complete exploration (%d states) found no violation", n, res.Explored)
			}
			if res.RangeErr != nil {
				t.Errorf("reachable range error: %v (rank %d, after %v)", res.RangeErr, res.ErrRank, res.ErrPath)
			}
			t.Logf("N=%d: violation %v, complete %v, %d states", n, res.Violation != nil, res.Complete, res.Explored)
		})
	}
}
