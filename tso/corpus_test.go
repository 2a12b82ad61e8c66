package tso

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// corpusDir finds ../shared/corpus/trencher beside the repository, from the
// directory of this source file rather than the working directory.
func corpusDir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", "corpus", "trencher")
	if _, err := os.Stat(filepath.Join(dir, "EXPECTED")); err != nil {
		t.Skipf("Trencher corpus not found at %s (CI keeps shared/ beside the checkout): %v", dir, err)
	}
	return dir
}

type expectation struct {
	file   string
	robust bool
}

func readExpected(t testing.TB, dir string) []expectation {
	f, err := os.Open(filepath.Join(dir, "EXPECTED"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []expectation
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 2 {
			t.Fatalf("EXPECTED: bad line %q", line)
		}
		out = append(out, expectation{file: fs[0], robust: fs[1] == "robust"})
	}
	if len(out) == 0 {
		t.Fatal("EXPECTED lists no file")
	}
	return out
}

func loadCorpus(t testing.TB, dir, name string) *prog.Program {
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram(name, src)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return p
}

// TestCorpusTSO checks every corpus file against the verdict the reference
// tool gives (EXPECTED), and that every NOT ROBUST answer carries a witness
// that survived its replay.
func TestCorpusTSO(t *testing.T) {
	dir := corpusDir(t)
	for _, e := range readExpected(t, dir) {
		t.Run(e.file, func(t *testing.T) {
			p := loadCorpus(t, dir, e.file)
			r := check(p, prog.TSO, Options{MaxStates: 2_000_000, Jobs: 2})
			want := prog.NotRobust
			if e.robust {
				want = prog.Robust
			}
			if r.Verdict != want {
				t.Fatalf("verdict %v, want %v (%s)", r.Verdict, want, r.Reason)
			}
			if r.Verdict == prog.NotRobust && (r.Witness == nil || r.WitnessErr != nil) {
				t.Fatalf("no replayed witness: %v", r.WitnessErr)
			}
			t.Logf("%v: attacks %d, syntactic %d, search %d, feasible %d, states %d", r.Verdict, r.Generated, r.RefutedSyntactic, r.RefutedSearch, r.Found, r.Stats.States)
		})
	}
}

// TestCorpusPSO: PSO allows every TSO computation, so a program that is not
// robust under TSO is not robust under PSO either; pso.txt (robust under
// TSO) is not robust under PSO, as its header says: t1's store to x may
// reach memory after its store to y, which t2 has read, so t2 reads x = 1
// from t3 and the cycle st x (t1) ->po st y ->src ld y ->po ld x ->cf st x
// (t1) closes.
func TestCorpusPSO(t *testing.T) {
	dir := corpusDir(t)
	for _, e := range readExpected(t, dir) {
		if e.robust && e.file != "pso.txt" {
			continue
		}
		t.Run(e.file, func(t *testing.T) {
			p := loadCorpus(t, dir, e.file)
			r := check(p, prog.PSO, Options{MaxStates: 2_000_000, Jobs: 2})
			if r.Verdict != prog.NotRobust {
				t.Fatalf("verdict %v under PSO, want NOT ROBUST (%s)", r.Verdict, r.Reason)
			}
			if r.Witness == nil || r.WitnessErr != nil {
				t.Fatalf("no replayed witness: %v", r.WitnessErr)
			}
		})
	}
}

// TestCorpusOracle: where the brute-force oracle terminates (loop-free
// files), it agrees with EXPECTED under TSO; pso.txt is not robust under
// PSO for the oracle too.
func TestCorpusOracle(t *testing.T) {
	dir := corpusDir(t)
	decided := 0
	for _, e := range readExpected(t, dir) {
		p := loadCorpus(t, dir, e.file)
		o := oracle.Robustness(p, prog.TSO, oracle.Budget{MaxNodes: 200_000, MaxEvents: 40})
		if o.Verdict == prog.Unknown {
			continue
		}
		decided++
		if (o.Verdict == prog.Robust) != e.robust {
			t.Errorf("%s: oracle says %v, EXPECTED robust=%v", e.file, o.Verdict, e.robust)
		}
		if e.file == "pso.txt" {
			if o := oracle.Robustness(p, prog.PSO, oracle.Budget{MaxNodes: 200_000}); o.Verdict != prog.NotRobust {
				t.Errorf("pso.txt under PSO: oracle says %v", o.Verdict)
			}
		}
	}
	if decided < 3 {
		t.Errorf("the oracle decided only %d corpus files; mfa, pso and trf are loop-free", decided)
	}
}
