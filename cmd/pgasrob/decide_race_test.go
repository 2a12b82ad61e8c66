package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/report"
)

// TestDecideRaceCLI: decide --criterion race on C and .pgas, its exit
// codes, witness text and JSON, and --criterion all. The verdicts are
// those argued in the example files and docs/criteria.md: mp-quiet.c
// updates its flag with shmem_p, a put, which the await does not
// synchronise with (RACE on flag@PE1); mp-signal.c waits on a signal
// delivered after its data (RACE-FREE).
func TestDecideRaceCLI(t *testing.T) {
	code, out, errs := runCmd("decide", "../../examples/shmem/mp-quiet.c", "-n", "2", "--criterion", "race")
	if code != exitNotRobust || !strings.Contains(out, "RACE on flag@PE1") || !strings.Contains(out, "shmem_long_p(&flag, 1, 1)") ||
		!strings.Contains(out, "shmem_long_wait_until") || strings.Count(out, "<race>") != 2 {
		t.Errorf("mp-quiet.c: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd("decide", "../../examples/shmem/mp-signal.c", "-n", "2..3", "--criterion", "race")
	if code != exitRobust || strings.Count(out, "RACE-FREE") != 2 {
		t.Errorf("mp-signal.c: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd("decide", "../../examples/shmem-calculus/put-signal.pgas", "-n", "2", "--criterion", "race")
	if code != exitRobust {
		t.Errorf("put-signal.pgas: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd("decide", "../../examples/1to1.pgas", "-n", "3", "--criterion", "race", "--max-states", "10")
	if code != exitUnknown || !strings.Contains(out, "UNKNOWN") {
		t.Errorf("budget: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runCmd("decide", "../../examples/1to1.pgas", "-n", "2", "--criterion", "nonsense")
	if code != exitUsage || !strings.Contains(errs, "robustness, race or all") {
		t.Errorf("bad criterion: exit %d, %s", code, errs)
	}
	code, out, _ = runCmd("decide", "../../examples/shmem/mp-quiet.c", "-n", "2", "--criterion", "race", "--json")
	var js report.RaceJSON
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != exitNotRobust || js.Schema != raceSchema || len(js.Results) != 1 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	r := js.Results[0].Race
	if r == nil || r.Cell != "flag@PE1" || r.Second != len(r.Events)-1 || r.Events[r.First].Line != 24 {
		t.Errorf("json witness: %+v", r)
	}
	// both criteria: mp-quiet.c is robust (the quiet orders the data
	// before the flag) and racy; exit 0 since both are decided
	code, out, errs = runCmd("decide", "../../examples/shmem/mp-quiet.c", "-n", "2", "--criterion", "all")
	if code != exitRobust || !strings.Contains(out, "ROBUST") || !strings.Contains(out, "RACE on flag@PE1") {
		t.Errorf("all: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCmd("decide", "../../examples/shmem/mp-quiet.c", "-n", "2", "--criterion", "all", "--json")
	var all report.AllJSON
	if err := json.Unmarshal([]byte(out), &all); err != nil || code != exitRobust || len(all.Robustness) != 1 || len(all.Race) != 1 || all.Race[0].Verdict != "race" {
		t.Errorf("all json: exit %d, %v\n%s", code, err, out)
	}
}
