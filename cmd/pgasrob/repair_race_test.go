package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/report"
)

// TestRepairRaceCLI: repair --criterion race in every output format.
// mp-quiet.c updates its flag with shmem_long_p, a put, which the
// receiver's wait_until does not synchronise with (decide --criterion
// race: RACE on flag@PE1). No fence or quiet makes a put atomic; making it
// an atomic swap (cost 3) does: both accesses to flag are then atomic, the
// swap synchronises with the wait that observes it, and the quiet before
// it completes the data put, so the receiver's load of data is ordered
// too. Every cheaper set (fences 1, quiets 2 and their combinations
// below 3) leaves the flag race.
func TestRepairRaceCLI(t *testing.T) {
	f := "../../examples/shmem/mp-quiet.c"
	code, out, errs := runCmd("repair", f, "-n", "2", "--criterion", "race")
	if code != exitRobust || !strings.Contains(out, "REPAIRED at cost 3") || !strings.Contains(out, "shmem_long_atomic_swap(&flag, 1, 1)") ||
		!strings.Contains(out, "minimal: every cheaper set") || !strings.Contains(out, "repaired program: RACE-FREE for N = 2") ||
		!strings.Contains(out, "race oracle, N = 2: no race in any computation") {
		t.Errorf("text: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCmd("repair", f, "-n", "2", "--criterion", "race", "--json")
	var js report.RepairJSON
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != exitRobust || js.Criterion != "race" || js.Verdict != "repaired" ||
		len(js.Before) != 1 || js.Before[0].Verdict != "race" || len(js.After) != 1 || js.After[0].Verdict != "race-free" ||
		len(js.Insertions) != 1 || js.Insertions[0].Kind != "atomic" || js.Insertions[0].Line != 24 {
		t.Errorf("json: exit %d, %v\n%s", code, err, out)
	}
	code, out, _ = runCmd("repair", f, "-n", "2", "--criterion", "race", "--format", "gcc")
	if code != exitRobust || !strings.HasPrefix(out, "../../examples/shmem/mp-quiet.c:24:") || !strings.Contains(out, "racy for N = 2") || !strings.HasSuffix(strings.TrimSpace(out), "[race]") {
		t.Errorf("gcc: exit %d\n%s", code, out)
	}
	sarif := filepath.Join(t.TempDir(), "r.sarif")
	if code, out, errs = runCmd("repair", f, "-n", "2", "--criterion", "race", "--sarif", sarif); code != exitRobust {
		t.Errorf("sarif: exit %d\n%s%s", code, out, errs)
	}
	if b, err := os.ReadFile(sarif); err != nil || !strings.Contains(string(b), `"ruleId": "race"`) || !strings.Contains(string(b), "shmem_long_atomic_swap") {
		t.Errorf("sarif file: %v\n%s", err, b)
	}
	// Already race-free: mp-signal.c (RACE-FREE in TestDecideRaceCLI).
	code, out, _ = runCmd("repair", "../../examples/shmem/mp-signal.c", "-n", "2", "--criterion", "race", "--json")
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != exitRobust || js.Verdict != "already race-free" {
		t.Errorf("race-free: exit %d, %v\n%s", code, err, out)
	}
	// put-nbi-reuse.c: PE 1 reads data with no synchronisation at all;
	// nothing PE 0 can insert orders that load (see TestRepairRace).
	code, out, errs = runCmd("repair", "../../examples/shmem/put-nbi-reuse.c", "-n", "2", "--criterion", "race")
	if code != exitUnknown || !strings.Contains(out, "NO REPAIR") {
		t.Errorf("no repair: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs = runCmd("repair", f, "-n", "2", "--criterion", "racy"); code != exitUsage || !strings.Contains(errs, "want robustness or race") {
		t.Errorf("bad criterion: exit %d, %s", code, errs)
	}
}

// TestRaceWidensCLI: decide --criterion race widens an inferred value
// domain as robustness does. counter.c's inferred window is -1..3; at
// N = 2 the counter reaches 6, so an add wraps in the window but not in
// C's int: no run-time error. The program is RACE-FREE at N = 2 and 3:
// the adds are atomics of one kind (they do not race with each other),
// and the barrier completes them before PE 0's load.
func TestRaceWidensCLI(t *testing.T) {
	code, out, errs := runCmd("decide", "../../examples/commuting/counter.c", "-n", "2..3", "--criterion", "race")
	if code != exitRobust || strings.Count(out, "RACE-FREE") != 2 {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}
