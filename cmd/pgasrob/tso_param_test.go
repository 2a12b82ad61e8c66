package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTSOParameterized runs pgasrob tso --parameterized on the examples
// whose headers give the verdict (hand arguments in the files), and checks
// the refusals of flags it does not go with.
func TestTSOParameterized(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "tso")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{filepath.Join(ex, "param-ring3.txt")}, exitNotRobust, "witness instance: t x3 (the plain check of that instance: NOT ROBUST)"},
		{[]string{filepath.Join(ex, "param-mp-ack.txt")}, exitRobust, "instances with 1..3 copies robust"},
		{[]string{filepath.Join(ex, "param-mp-ack.txt"), "--instances", "0"}, exitRobust, "refuted by coverability"},
		{[]string{filepath.Join(ex, "param-ring3.txt"), "--max-states", "1", "--instances", "1"}, exitUnknown, "state budget"},
		{[]string{filepath.Join(ex, "sb.txt")}, exitNotRobust, "none is marked"},
		{[]string{filepath.Join(ex, "param-ring3.txt"), "--model", "pso"}, exitUsage, "does not go with"},
		{[]string{filepath.Join(ex, "param-ring3.txt"), "--fences"}, exitUsage, "does not go with"},
		{[]string{filepath.Join(ex, "param-ring3.txt"), "--shard", "1/2"}, exitUsage, "does not go with"},
		{[]string{filepath.Join(ex, "param-ring3.txt"), "--instances", "-1"}, exitUsage, "--instances"},
	} {
		code, out, errs := runTSOCmd(t, append([]string{"--parameterized"}, tc.args...)...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("tso --parameterized %v: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, tc.want, out, errs)
		}
	}
	if code, _, errs := runTSOCmd(t, "--instances", "2", filepath.Join(ex, "sb.txt")); code != exitUsage || !strings.Contains(errs, "--instances") {
		t.Errorf("--instances without --parameterized: exit %d %s", code, errs)
	}
	code, out, _ := runTSOCmd(t, "--parameterized", "--json", filepath.Join(ex, "param-sb-roles.txt"))
	var j tsoJSON
	mustJSON(t, "param-sb-roles", out, &j)
	if code != exitNotRobust || j.Param == nil || len(j.Param.Copies) != 1 || j.Param.Copies[0].Copies != 2 || j.Witness == nil || len(j.Witness.Cycle) != 4 || j.Param.InstanceCheck != "not robust" {
		t.Fatalf("JSON: exit %d %+v", code, j.Param)
	}
}

// TestTSOParamJoinWithoutCopies: programs without a replicated thread whose
// counter abstraction passes the precise limit and falls back to the join.
// The join used to stop at the initial state's successors when no copy
// existed, and the command answered ROBUST against its own cut-off
// instance (exit 4; with --instances 0, plainly ROBUST).
func TestTSOParamJoinWithoutCopies(t *testing.T) {
	files := []string{writeFile(t, "long.txt", longWitnessTSO(10000))}
	if wsq := filepath.Join(corpusTrencher, "cilk-the-wsq-wrongdoing.txt"); fileExists(wsq) {
		files = append(files, wsq)
	} else {
		t.Log("../shared/corpus/trencher not found: only the generated program")
	}
	for _, f := range files {
		code, out, errs := runTSOCmd(t, "--parameterized", "--max-memory", "900", f)
		if code != exitNotRobust || !strings.Contains(out, "(joined)") || !strings.Contains(out, "the plain check of that instance: NOT ROBUST") {
			t.Errorf("%s: exit %d, want %d by the join\nstdout:\n%s\nstderr:\n%s", filepath.Base(f), code, exitNotRobust, firstLines(out, 8), errs)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// firstLines keeps a long witness out of a failure message.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
