package cycles

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
)

// subbarExpect reads the "# expect: N=2 ROBUST, N=3 NOT ROBUST" line of
// a file of examples/subbar: N -> robust.
func subbarExpect(t *testing.T, src []byte) map[int]bool {
	t.Helper()
	line := regexp.MustCompile(`# expect:[^\n]*`).Find(src)
	out := map[int]bool{}
	for _, m := range regexp.MustCompile(`N=(\d+) (NOT ROBUST|ROBUST)`).FindAllSubmatch(line, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		out[n] = string(m[2]) == "ROBUST"
	}
	if len(out) == 0 {
		t.Fatalf("no expect line")
	}
	return out
}

// TestSubsetBarrierExamples decides the barriers over part of the ranks
// of examples/subbar, each at the N its hand argument covers, with and
// without rank symmetry (a set is fixed by few renamings) and the
// reduction (rank 3 may pass its barrier while rank 1 waits at its own).
func TestSubsetBarrierExamples(t *testing.T) {
	files, _ := filepath.Glob("../examples/subbar/*.pgas")
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
		for n, robust := range subbarExpect(t, src) {
			for _, opt := range []Options{{Jobs: 2}, {Jobs: 1, NoSymmetry: true, NoReduction: true}} {
				opt.Timeout = time.Minute
				r, err := Decide(p, n, opt)
				if err != nil {
					t.Fatalf("%s N=%d: %v", f, n, err)
				}
				if r.Verdict != Robust && r.Verdict != NotRobust || (r.Verdict == Robust) != robust {
					t.Errorf("%s N=%d %+v: decide says %v (%s), the file says robust=%v", f, n, opt, r.Verdict, r.Reason, robust)
				}
			}
		}
	}
}
