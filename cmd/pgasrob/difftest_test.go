package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

func TestDifftestCommand(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "in", "bad.pgas")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(bad, []byte("values 2\n  y <- 1\n"), 0o644)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		// Random programs: decide and the oracle agree (proofs_test checks
		// this on thousands of programs; here 20 exercise the command).
		{"random", []string{"--count", "20", "--seed", "7"}, exitRobust, "20 programs (N=2): 20 agree, 0 disagree", ""},
		// A state budget of 1 decides nothing: exit 3, all skipped. (Not
		// with the OpenSHMEM programs: a bare barrier over part of the
		// ranks as the first statement is a run-time error in the initial
		// state, which any budget finds.)
		{"budget", []string{"--count", "5", "--shmem=false", "--max-states", "1", "--oracle-nodes", "1"}, exitUnknown, "0 agree, 0 disagree, 5 skipped", ""},
		// The examples: put.pgas and get.pgas have documented verdicts, and
		// both sides must reach them.
		{"dir", []string{"--dir", "../../examples", "--max-states", "200000"}, exitRobust, "0 disagree", ""},
		{"bad file", []string{"--dir", filepath.Dir(bad)}, exitUsage, "", "bad.pgas:2:3: undefined register y"},
		{"empty dir", []string{"--dir", dir}, exitUsage, "", "no .pgas files"},
		{"bad ranks", []string{"--ranks", "0"}, exitUsage, "", "bad arguments"},
		{"positional", []string{"x"}, exitUsage, "", "bad arguments"},
		{"help", []string{"--help"}, exitRobust, "", "usage: pgasrob difftest"},
		{"unknown flag", []string{"--nope"}, exitUsage, "", "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"difftest"}, tt.args...), &out, &errb)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tt.stdout) || !strings.Contains(errb.String(), tt.stderr) {
				t.Fatalf("stdout:\n%s\nstderr:\n%s\nwant %q / %q", out.String(), errb.String(), tt.stdout, tt.stderr)
			}
		})
	}
}

func TestDifftestJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"difftest", "--count", "10", "--json"}, &out, &errb); code != exitRobust {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res difftestJSON
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	sum := 0
	for _, v := range res.Verdicts {
		sum += v
	}
	if res.Schema != "pgasrob/difftest/v1" || res.Programs != 10 || res.Agree+res.Skipped != 10 || sum != res.Agree || res.Disagreements == nil {
		t.Fatalf("inconsistent counts: %+v", res)
	}
}

// A fake checker that "disagrees" on every program with a barrier: the
// command must exit 1, shrink each such program to a lone barrier (every
// other statement and declaration can go) and write it to --out.
func TestDifftestDisagreement(t *testing.T) {
	defer func() { compare = cycles.Compare }()
	compare = barrierDisagrees
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"difftest", "--count", "30", "--out", out, "--json"}, &stdout, &stderr)
	if code != exitNotRobust {
		t.Fatalf("exit %d, want 1: %s", code, stderr.String())
	}
	var res difftestJSON
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Disagree == 0 || res.Disagree != len(res.Disagreements) || res.Disagree+res.Agree != 30 {
		t.Fatalf("counts: %+v", res)
	}
	for _, d := range res.Disagreements {
		if strings.Join(strings.Fields(d.Source), " ") != "program "+d.Program+" values 2 barrier" {
			t.Errorf("%s: not shrunk to a lone barrier:\n%s", d.Program, d.Source)
		}
		b, err := os.ReadFile(d.Repro)
		if err != nil || !strings.Contains(string(b), "barrier") || !strings.HasPrefix(string(b), "# difftest reproducer") {
			t.Errorf("reproducer file %q: %v\n%s", d.Repro, err, b)
		}
	}
}

func TestDifftestTSO(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"difftest", "--tso", "--count", "20"}, &out, &errb); code != exitRobust {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "20 Trencher programs x {TSO, PSO}") || !strings.Contains(out.String(), "0 disagree") {
		t.Fatalf("output:\n%s", out.String())
	}
	// A fake hook that disagrees under PSO on every program: exit 1, one
	// disagreement per program, each reproducer shorter than its program.
	defer func() { tsoDiff = tso.DiffTest }()
	tsoDiff = func(p *tsoprog.Program, m tsoprog.Model, c tso.Criterion, b tso.DiffBudget) (bool, string) {
		return m != tsoprog.PSO, "fake"
	}
	out.Reset()
	if code := run([]string{"difftest", "--tso", "--count", "3", "--json"}, &out, &errb); code != exitNotRobust {
		t.Fatalf("exit %d, want 1", code)
	}
	var res difftestJSON
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Disagree != 3 || res.Agree != 3 {
		t.Fatalf("counts: %+v", res)
	}
	for _, d := range res.Disagreements {
		if !strings.HasSuffix(d.Program, " PSO") || len(d.Source) == 0 {
			t.Errorf("disagreement %+v", d)
		}
	}
}

// barrierDisagrees is a fake comparison for the disagreement path, which
// a correct decision procedure never takes: every program with a barrier
// "disagrees".
func barrierDisagrees(p *pgas.Program, n int, b cycles.CompareBudget) cycles.Comparison {
	for _, tr := range p.Trans {
		if tr.Cmd.Op == pgas.OpBarrier {
			return cycles.Comparison{Status: cycles.Disagree, Decide: "ROBUST", Oracle: "NOT ROBUST", Detail: "fake"}
		}
	}
	return cycles.Comparison{Status: cycles.Agree, Decide: "ROBUST", Oracle: "ROBUST"}
}
