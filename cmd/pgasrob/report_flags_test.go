package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sarifRules reads the rule ids of a SARIF file's results.
func sarifRules(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string            `json:"ruleId"`
				Fixes  []json.RawMessage `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range log.Runs[0].Results {
		id := r.RuleID
		if len(r.Fixes) > 0 {
			id += "+fix"
		}
		ids = append(ids, id)
	}
	return ids
}

// cycles --format gcc and --sarif: flag-put.c is not robust for N = 2
// (store buffering through two puts, its comment), one feasible cycle
// type; the exit code is cycles' as with text.
func TestCyclesFormats(t *testing.T) {
	file := "../../examples/shmem/flag-put.c"
	code, out, errs := runCmd("cycles", file, "-n", "2", "--format", "gcc")
	if code != exitNotRobust || !strings.HasPrefix(out, file+":22:9: error: not robust for N = 2") || !strings.Contains(out, "cycle type (1 2): feasible") || strings.Contains(out, "states") {
		t.Errorf("--format gcc: exit %d\n%s%s", code, out, errs)
	}
	sarifPath := filepath.Join(t.TempDir(), "c.sarif")
	code, out, _ = runCmd("cycles", file, "-n", "2", "--sarif", sarifPath)
	if code != exitNotRobust || !strings.Contains(out, "cycle type") || strings.Join(sarifRules(t, sarifPath), " ") != "not-robust" {
		t.Errorf("--sarif: exit %d, rules %v\n%s", code, sarifRules(t, sarifPath), out)
	}
	if code, _, errs := runCmd("cycles", file, "-n", "2", "--format", "gcc", "--json"); code != exitUsage || !strings.Contains(errs, "--json and --format gcc") {
		t.Errorf("--json with --format gcc: exit %d, %s", code, errs)
	}
}

// repair --format gcc and --sarif: mp-unsync.pgas is repaired by one wait
// before line 31 (TestRepairGCCGolden's argument); the SARIF result
// carries the repair as its fix. Exit 0 (repaired), as with text.
func TestRepairFormats(t *testing.T) {
	file := "../../examples/mp-unsync.pgas"
	code, out, errs := runCmd("repair", file, "-n", "2", "--format", "gcc")
	if code != exitRobust || !strings.HasPrefix(out, file+":31:5: error: not robust for N = 2: ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--format gcc: exit %d\n%s%s", code, out, errs)
	}
	sarifPath := filepath.Join(t.TempDir(), "r.sarif")
	code, out, _ = runCmd("repair", file, "-n", "2", "--sarif", sarifPath)
	if code != exitRobust || !strings.Contains(out, "REPAIRED") || strings.Join(sarifRules(t, sarifPath), " ") != "not-robust+fix" {
		t.Errorf("--sarif: exit %d, rules %v\n%s", code, sarifRules(t, sarifPath), out)
	}
	// an already robust program: no diagnostic, no result
	code, out, _ = runCmd("repair", "../../examples/put.pgas", "-n", "2", "--format", "gcc", "--sarif", sarifPath)
	if code != exitRobust || out != "" || len(sarifRules(t, sarifPath)) != 0 {
		t.Errorf("put.pgas: exit %d, %q, rules %v", code, out, sarifRules(t, sarifPath))
	}
}
