package cycles

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
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

// Random programs with barriers over part of the ranks (gen's
// SubsetBarriers) at N = 3 and 4, where the sets are proper: symmetry and
// the reduction change no verdict (docs/deviations.md, entry 19), and
// the oracle agrees where it finishes.
func TestSubsetBarrierReductionsAgree(t *testing.T) {
	count := 12
	if testing.Short() {
		count = 6
	}
	rng := rand.New(rand.NewPCG(18, 4))
	variants := []Options{{NoReduction: true, NoSymmetry: true}, {NoSymmetry: true}, {NoReduction: true}, {}}
	compared := 0
	for compared < count {
		g := gen.Generate(rng, gen.Config{SubsetBarriers: true, Cmds: 4, Shmem: compared%2 == 1})
		src := g.String()
		if !strings.Contains(src, "barrier {") {
			continue
		}
		p, err := pgas.Compile("random.pgas", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		n := 3 + compared%2
		compared++
		var verdicts []Verdict
		for _, opt := range variants {
			opt.Jobs, opt.MaxStates = 1, 50_000
			r, err := Decide(p, n, opt)
			if err != nil {
				t.Fatalf("N=%d %+v: %v\n%s", n, opt, err, src)
			}
			verdicts = append(verdicts, r.Verdict)
		}
		for k, v := range verdicts {
			if v != verdicts[0] && v != Unknown && verdicts[0] != Unknown {
				t.Errorf("N=%d: variant %d says %v, the unreduced search %v\n%s", n, k, v, verdicts[0], src)
			}
		}
		o := oracle.Explore(p, n, oracle.Bounds{MaxQueue: 3, MaxNodes: 100_000})
		switch {
		case o.RangeErr != nil:
			if verdicts[0] != RunError && verdicts[0] != Unknown {
				t.Errorf("N=%d: the oracle finds the run-time error %v, decide says %v\n%s", n, o.RangeErr, verdicts[0], src)
			}
		case o.Violation != nil:
			// the oracle stops at its first finding: a run-time error
			// elsewhere is as right an answer
			if verdicts[0] != NotRobust && verdicts[0] != Unknown && verdicts[0] != RunError {
				t.Errorf("N=%d: the oracle finds a violation, decide says %v\n%s", n, verdicts[0], src)
			}
		case o.Complete && verdicts[0] != Robust && verdicts[0] != Unknown && verdicts[0] != RunError:
			t.Errorf("N=%d: the oracle finds none, decide says %v\n%s", n, verdicts[0], src)
		}
	}
}
