package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runTSOCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"tso"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestTSOCommand(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "tso")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("thread t\ninitial q\ntransition q r wrte 1 0\nend\n"), 0o644)
	dot := filepath.Join(dir, "g.dot")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{filepath.Join(ex, "sb.txt")}, exitNotRobust, "happens-before cycle:"},
		{[]string{filepath.Join(ex, "mp.txt")}, exitRobust, "ROBUST under TSO"},
		{[]string{"--model", "pso", filepath.Join(ex, "mp.txt")}, exitNotRobust, "attacking store"},
		{[]string{"--model", "pso", "--jobs", "1", "--all", filepath.Join(ex, "mp-fence.txt")}, exitRobust, "attacker: locality"},
		{[]string{bad}, exitUsage, "bad.txt:3:16: unknown instruction"},
		{[]string{"--model", "arm", bad}, exitUsage, "unknown memory model"},
		{[]string{}, exitUsage, "exactly one FILE"},
		{[]string{"--max-states", "3", "--model", "pso", filepath.Join(ex, "sb-loop.txt")}, exitUnknown, "state budget"},
		{[]string{"--dot", dot, filepath.Join(ex, "sb.txt")}, exitNotRobust, ""},
		{[]string{"--help"}, exitRobust, "usage: pgasrob tso FILE"},
		// Store buffering needs an mfence in each thread (hand analysis in
		// examples/tso/sb.txt); the exit code stays that of the program.
		{[]string{"--fences", filepath.Join(ex, "sb.txt")}, exitNotRobust, "fences: 2 (minimum)"},
		{[]string{filepath.Join(dir, "missing.txt")}, exitUsage, "no such file"},
	}
	for _, tc := range tests {
		code, out, errs := runTSOCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("tso %v: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, tc.want, out, errs)
		}
	}
	g, err := os.ReadFile(dot)
	if err != nil || !strings.Contains(string(g), "digraph") || !strings.Contains(string(g), "color=red") {
		t.Errorf("--dot: %v\n%s", err, g)
	}
}

func TestTSOCommandJSON(t *testing.T) {
	code, out, _ := runTSOCmd(t, "--json", "--model", "pso", filepath.Join("..", "..", "examples", "tso", "2+2w.txt"))
	if code != exitNotRobust {
		t.Fatalf("exit %d", code)
	}
	var v struct {
		Verdict string
		Attacks struct{ Generated, Feasible int }
		Witness struct {
			Steps []struct{ Action string }
			Cycle []struct{ Kind string }
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v.Verdict != "not robust" || v.Attacks.Feasible < 1 || len(v.Witness.Cycle) < 2 || len(v.Witness.Steps) == 0 {
		t.Fatalf("unexpected JSON: %+v\n%s", v, out)
	}
}

// TestTSOWriteFenced: for every corpus file and example, --fences --write
// (with a cost file) writes a program that "pgasrob tso" then finds robust
// (exit 0), with the fences the search reported.
func TestTSOWriteFenced(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/trencher/*.txt")
	ex, _ := filepath.Glob("../../examples/tso/*.txt")
	if len(files) == 0 {
		t.Log("../shared/corpus/trencher not found: only the examples")
	}
	dir := t.TempDir()
	// Every location costs 3: the minimum is then 3 per fence.
	threes := writeFile(t, "threes.costs", "* * 3\n")
	for _, f := range append(files, ex...) {
		out := filepath.Join(dir, filepath.Base(f))
		code, stdout, errs := runCmd("tso", f, "--fences", "--write", out, "--json", "--max-states", "2000000", "--cost", threes)
		if code != exitRobust && code != exitNotRobust {
			t.Fatalf("%s: exit %d\n%s", f, code, errs)
		}
		var j tsoJSON
		mustJSON(t, f, stdout, &j)
		if j.Fences == nil || j.Fences.Verdict != "robust" || j.Fences.Written != out || j.Fences.Cost != 3*int64(j.Fences.Count) {
			t.Fatalf("%s: fences %+v", f, j.Fences)
		}
		if code, o, e := runCmd("tso", out); code != exitRobust {
			t.Fatalf("%s: the written program gives exit %d\n%s%s", f, code, o, e)
		}
	}
}

// TestTSOCost: the weighted minimum of examples/tso/sb-hot.txt, worked out
// in its header: t0 fenced at q1 (cost 5, not 100 at q2), t1 at q2 (cost
// 1, not 3 at q1); without costs, two fences of any placement.
func TestTSOCost(t *testing.T) {
	file, costs := "../../examples/tso/sb-hot.txt", "../../examples/tso/sb-hot.costs"
	code, out, errs := runCmd("tso", file, "--fences", "--cost", costs, "--json")
	if code != exitNotRobust {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var j tsoJSON
	mustJSON(t, file, out, &j)
	f := j.Fences
	if f.Cost != 6 || f.Count != 2 || f.CostFile != costs || f.Fences[0].Thread != "t0" || f.Fences[0].Location != "q1" || f.Fences[1].Thread != "t1" || f.Fences[1].Location != "q2" {
		t.Fatalf("fences %+v", f)
	}
	_, text, _ := runCmd("tso", file, "--fences", "--cost", costs)
	if !strings.Contains(text, "fences: 2 of total cost 6 (minimum cost)") || !strings.Contains(text, "mfence in t0 at q1 [cost 5]") {
		t.Fatalf("text output:\n%s", text)
	}
	bad := writeFile(t, "bad.costs", "t0 q1 5\nt7 q1 2\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tso", file, "--cost", costs}, "--cost goes with --fences"},
		{[]string{"tso", file, "--write", "x.txt"}, "--write goes with --fences"},
		{[]string{"tso", file, "--fences", "--cost", bad}, "bad.costs:2:1: no thread"},
		{[]string{"tso", file, "--fences", "--cost", "/nonexistent"}, "--cost"},
		{[]string{"tso", file, "--fences", "--write", "/nonexistent/dir/f.txt"}, "--write"},
	} {
		code, out, errs := runCmd(tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, want 2 with %q\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
}
