package cycles

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

var expectedVerdict = regexp.MustCompile(`Expected verdict for N = 2: (NOT ROBUST|ROBUST) \(and for N = 3`)

// TestShmemExamples decides every example of examples/shmem-calculus at
// N = 2 and 3 and checks the verdict against the one argued by hand in the
// file ("Expected verdict for N = 2: … (and for N = 3 …)", the same
// verdict for both) and against the brute-force oracle. It asks for the
// shared exploration with symmetry and reduction on, as the decide
// command does: the plan must turn them off for these programs and say so.
func TestShmemExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/shmem-calculus/*.pgas")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := expectedVerdict.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s: no expected verdict", f)
			continue
		}
		want := string(m[1])
		p, err := pgas.Compile(f, src)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 3; n++ {
			start := time.Now()
			d, err := Decide(p, n, Options{Exploration: Shared, Jobs: 1})
			if err != nil {
				t.Fatalf("%s N = %d: %v", f, n, err)
			}
			took := time.Since(start)
			o := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 2_000_000, Timeout: time.Minute})
			got, ora := d.Verdict.String(), oracleVerdict(o)
			if got != want || ora != want {
				t.Errorf("%s N = %d: decide %s, oracle %s, expected %s", filepath.Base(f), n, got, ora, want)
			}
			if strings.Contains(d.Note, "OpenSHMEM") {
				t.Errorf("%s: note %q: the reductions hold for contexts, nothing to note", f, d.Note)
			}
			t.Logf("%-24s N = %d  %-10s %v", filepath.Base(f), n, got, took.Round(time.Millisecond))
		}
	}
}

func oracleVerdict(o oracle.Result) string {
	switch {
	case o.Err != nil:
		return "error: " + o.Err.Error()
	case o.Violation != nil:
		return NotRobust.String()
	case o.RangeErr != nil:
		return RunError.String()
	case o.Complete:
		return Robust.String()
	}
	return "INCOMPLETE"
}
