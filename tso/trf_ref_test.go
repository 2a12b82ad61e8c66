package tso

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestTRFReference compares Check's TRF verdicts with the reference
// tool's -trf on random programs, and for every program the reference
// calls free also checks robustness with the oracle (is the reference's
// reading of TRF sufficient for robustness?). It needs the binary
// (PGASROB_TRENCHER, a binary you built from its sources) and is skipped without it;
// PGASROB_DIFF_N sets the number of programs (default 300). The
// differences it prints are the ones docs/deviations.md explains.
func TestTRFReference(t *testing.T) {
	bin := os.Getenv("PGASROB_TRENCHER")
	if bin == "" {
		t.Skip("PGASROB_TRENCHER is not set (a binary of the reference tool, built by you from its own sources)")
	}
	n := 300
	if s := os.Getenv("PGASROB_DIFF_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := t.TempDir()
	counts := map[string]int{}
	shown := map[string]int{}
	for i := 0; i < n; i++ {
		r := rand.New(rand.NewPCG(uint64(i), 23))
		src := gen.Generate(r, gen.Config{})
		file := filepath.Join(dir, fmt.Sprintf("r%d.txt", i))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-trf", file).CombinedOutput()
		if err != nil {
			t.Fatalf("trencher: %v\n%s", err, out)
		}
		theirs := prog.NotRobust
		if strings.Contains(string(out), "IS free") {
			theirs = prog.Robust
		}
		p, err := prog.ParseProgram(file, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		ours := check(p, prog.TSO, Options{Criterion: TRF, Jobs: 1}).Verdict
		key := fmt.Sprintf("ours=%v theirs=%v", ours, theirs)
		if theirs == prog.Robust {
			rob := oracle.Robustness(p, prog.TSO, oracle.Budget{MaxNodes: 200000}).Verdict
			key += fmt.Sprintf(" robust(oracle)=%v", rob)
			if rob == prog.NotRobust {
				t.Errorf("the reference calls a non-robust program triangular-race free:\n%s", src)
			}
		}
		counts[key]++
		if ours != theirs && shown[key] < 2 {
			shown[key]++
			t.Logf("%s:\n%s", key, src)
		}
	}
	t.Logf("%d programs: %v", n, counts)
}
