package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// decide --criterion race with --format gcc and --sarif: mp-quiet.c races
// on flag@PE1 (PE 0's put of the flag and PE 1's wait, which the API's
// happens-before does not order: TestDecideRaceCLI's argument); the
// diagnostics put the error at the wait and a note at the put, and the
// SARIF log has the race as its one result.
func TestDecideRaceFormats(t *testing.T) {
	file := "../../examples/shmem/mp-quiet.c"
	code, out, errs := runCmd("decide", file, "-n", "2", "--criterion", "race", "--format", "gcc")
	if code != exitNotRobust || !strings.HasPrefix(out, file+":26:9: error: data race for N = 2 on flag@PE1") ||
		!strings.Contains(out, file+":24:9: note: first access") || strings.Contains(out, "RACE on") {
		t.Errorf("--format gcc: exit %d\n%s%s", code, out, errs)
	}
	sarifPath := filepath.Join(t.TempDir(), "race.sarif")
	code, out, errs = runCmd("decide", file, "-n", "2", "--criterion", "race", "--sarif", sarifPath)
	if code != exitNotRobust || !strings.Contains(out, "RACE on flag@PE1") {
		t.Errorf("--sarif: exit %d\n%s%s", code, out, errs)
	}
	data, err := os.ReadFile(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string            `json:"ruleId"`
				Locations []json.RawMessage `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if rs := log.Runs[0].Results; len(rs) != 1 || rs[0].RuleID != "race" || len(rs[0].Locations) != 2 {
		t.Errorf("SARIF results %+v, want one race with two locations", rs)
	}
	// --sarif -: the log alone on standard output
	code, out, _ = runCmd("decide", file, "-n", "2", "--criterion", "race", "--sarif", "-")
	if code != exitNotRobust || !strings.HasPrefix(strings.TrimSpace(out), "{") || strings.Contains(out, "RACE on") {
		t.Errorf("--sarif -: exit %d\n%s", code, out)
	}
	// a race-free program: no diagnostic, exit 0
	code, out, _ = runCmd("decide", "../../examples/shmem/mp-signal.c", "-n", "2", "--criterion", "race", "--format", "gcc")
	if code != exitRobust || out != "" {
		t.Errorf("mp-signal.c --format gcc: exit %d, %q", code, out)
	}
	if code, _, errs := runCmd("decide", file, "-n", "2", "--criterion", "race", "--html", "x.html"); code != exitUsage || !strings.Contains(errs, "--html") {
		t.Errorf("--html with race: exit %d, %s", code, errs)
	}
}
