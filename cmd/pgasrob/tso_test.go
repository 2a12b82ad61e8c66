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
