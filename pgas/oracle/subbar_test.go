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

// TestSubsetBarrierOracle explores the barriers over part of the ranks of
// examples/subbar at the N each hand argument covers (N = 2..4): the
// oracle's verdict must be the file's, and every violation replays in X.
func TestSubsetBarrierOracle(t *testing.T) {
	files, _ := filepath.Glob("../../examples/subbar/*.pgas")
	if len(files) < 4 {
		t.Fatalf("examples/subbar: %d files", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pgas.Compile(f, src)
		if err != nil {
			t.Fatal(err)
		}
		line := regexp.MustCompile(`# expect:[^\n]*`).Find(src)
		ms := regexp.MustCompile(`N=(\d+) (NOT ROBUST|ROBUST)`).FindAllSubmatch(line, -1)
		if len(ms) == 0 {
			t.Fatalf("%s: no expect line", f)
		}
		for _, m := range ms {
			n, _ := strconv.Atoi(string(m[1]))
			robust := string(m[2]) == "ROBUST"
			for _, reduce := range []bool{false, true} {
				r := oracle.Explore(p, n, oracle.Bounds{MaxQueue: 4, Timeout: time.Minute, Reduce: reduce})
				switch {
				case r.Err != nil || r.RangeErr != nil:
					t.Errorf("%s N=%d: %v %v", f, n, r.Err, r.RangeErr)
				case r.Violation == nil && !r.Complete:
					t.Errorf("%s N=%d: cut short (%s)", f, n, r.Truncated)
				case (r.Violation == nil) != robust:
					t.Errorf("%s N=%d reduce=%v: the oracle says robust=%v, the file says %v", f, n, reduce, r.Violation == nil, robust)
				case r.Violation != nil:
					if _, err := pgas.Replay(p, n, r.Violation); err != nil {
						t.Errorf("%s N=%d: the violation does not replay: %v", f, n, err)
					}
				}
			}
		}
	}
}
