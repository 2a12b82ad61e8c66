package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestTSOPersistence: --criterion persistence on hand-analysed programs of
// tso/testdata/persist (arguments in the files), text and JSON, and
// --flatten.
func TestTSOPersistence(t *testing.T) {
	td := filepath.Join("..", "..", "tso", "testdata", "persist")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--criterion", "persistence", filepath.Join(td, "wr.txt")}, exitNotRobust, "store order: ud_t1(0,1) ud_t0(1,1)"},
		{[]string{"--criterion", "persistence", "--fences", filepath.Join(td, "sb.txt")}, exitNotRobust, "fences: 2 (minimum)"},
		{[]string{"--criterion", "persistence", filepath.Join(td, "same-value.txt")}, exitRobust, "PERSISTENT under TSO"},
		{[]string{"--criterion", "persistence", "--model", "pso", filepath.Join(td, "wr.txt")}, exitUsage, "TSO only"},
		{[]string{"--criterion", "persistence", "--flatten", filepath.Join(td, "flatten", "same-value-many.txt")}, exitRobust, "guarantee: every number of copies"},
		{[]string{"--criterion", "persistence", "--flatten", filepath.Join(td, "flatten", "guarded-many.txt")}, exitUnknown, "is no verdict"},
		{[]string{"--criterion", "persistence", "--flatten", filepath.Join(td, "sb.txt")}, exitNotRobust, "FRAGILE under TSO (flattening"},
		{[]string{"--flatten", filepath.Join(td, "sb.txt")}, exitUsage, "--flatten wants --criterion persistence"},
	}
	for _, tc := range tests {
		code, out, errs := runTSOCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("tso %v: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, tc.want, out, errs)
		}
	}
	code, out, _ := runTSOCmd(t, "--json", "--criterion", "persistence", filepath.Join(td, "wr.txt"))
	var j struct {
		Verdict string
		Witness struct {
			Fragile struct {
				Pivot        string
				X, Y, V, V2  int64
				ProgramOrder []struct {
					Thread string
					Events []string
				} `json:"program_order"`
				StoreOrder []string `json:"store_order"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != exitNotRobust {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	f := j.Witness.Fragile
	if j.Verdict != "fragile" || f.Pivot != "t0" || f.X != 0 || f.Y != 1 || f.V != 0 || f.V2 != 1 || len(f.StoreOrder) != 2 || len(f.ProgramOrder) != 2 || f.ProgramOrder[0].Thread != "t0" || len(f.ProgramOrder[0].Events) != 2 {
		t.Errorf("JSON witness: %+v\n%s", j, out)
	}
	code, out, _ = runTSOCmd(t, "--json", "--criterion", "persistence", "--flatten", filepath.Join(td, "flatten", "same-value-many.txt"))
	var a struct {
		Verdict     string
		Abstraction struct{ Guarantee, Verdict string }
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil || code != exitRobust || a.Verdict != "persistent" || a.Abstraction.Guarantee != "every number of copies" {
		t.Errorf("--flatten JSON: exit %d, %v, %+v\n%s", code, err, a, out)
	}
}
