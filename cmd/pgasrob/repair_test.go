package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRepairCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fixed.pgas")
	code, stdout, errs := runCmd("repair", oneToOne, "-n", "2..3", "--write", out)
	if code != exitRobust || !strings.Contains(stdout, "REPAIRED at cost 1") || !strings.Contains(stdout, "+    wait h1") ||
		!strings.Contains(stdout, "minimal: every cheaper set") || !strings.Contains(stdout, "written to "+out) {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	// The written program is robust for every N asked.
	if code, o, e := runCmd("decide", out, "-n", "2..3"); code != exitRobust {
		t.Fatalf("decide of the written repair: exit %d\n%s%s", code, o, e)
	}
	var j repairJSON
	code, stdout, _ = runCmd("repair", oneToOne, "-n", "2", "--json")
	mustJSON(t, "repair --json", stdout, &j)
	if code != exitRobust || j.ExitCode != code || j.Verdict != "repaired" || j.Cost != 1 || len(j.Insertions) != 1 ||
		j.Insertions[0].Kind != "wait" || j.Insertions[0].Line != 31 || j.Insertions[0].OpLine != 30 ||
		j.Minimality == nil || !j.Minimality.Proven || len(j.After) != 1 || j.After[0].Verdict != "robust" || len(j.Oracle) != 1 {
		t.Fatalf("JSON %+v", j)
	}
	// Costs from a file: a free put.
	costs := writeFile(t, "c.costs", "sync 0\n")
	code, stdout, _ = runCmd("repair", oneToOne, "-n", "2", "--cost", costs)
	if code != exitRobust || !strings.Contains(stdout, "write at line 30 becomes put  [sync, cost 0]") {
		t.Fatalf("--cost: exit %d\n%s", code, stdout)
	}
	// Already robust: nothing to do, exit 0.
	if code, o, _ := runCmd("repair", oneToOneFixed, "-n", "2"); code != exitRobust || !strings.Contains(o, "nothing to repair") {
		t.Fatalf("robust input: exit %d\n%s", code, o)
	}
}

// -1 converted to uint64_t (C: 2^64 - 1) is beyond the checker's values:
// repair, like decide, leaves the input undecided and names the line
// (guardedRunError), instead of showing the guard's raw value as the
// program's run-time error.
func TestRepairConversionLimit(t *testing.T) {
	f := writeFile(t, "c.c", `#include <shmem.h>
#include <stdint.h>
long x;
int main(void) {
    int me = shmem_my_pe();
    uint64_t y = me - 5;
    x = y > 5;
    return 0;
}
`)
	code, out, errs := runCmd("repair", f, "-n", "2")
	if code != exitUnknown || !strings.Contains(out, "a value converted to an unsigned type that cannot hold it") || strings.Contains(out, "RUN-TIME ERROR") {
		t.Fatalf("exit %d, want %d and the conversion named\n%s%s", code, exitUnknown, out, errs)
	}
}

// Two ranks reading each other's x into their own x race in their pops
// whatever waits follow (docs/cli.md): no insertion of the vocabulary
// cuts that cycle, and repair says so with exit 3.
func TestRepairNoRepair(t *testing.T) {
	race := writeFile(t, "race.pgas", "values 2\naddress x\nqueue q\n    read(x, N - rank + 1, x, q)\n")
	code, stdout, errs := runCmd("repair", race, "-n", "2")
	if code != exitUnknown || !strings.Contains(stdout, "NO REPAIR") || !strings.Contains(stdout, "no insertion of the vocabulary cuts") {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	rte := writeFile(t, "rte.pgas", runtimeErrorSrc)
	if code, o, e := runCmd("repair", rte, "-n", "2"); code != exitUsage || !strings.Contains(o, "RUN-TIME ERROR") {
		t.Fatalf("run-time error: exit %d\n%s%s", code, o, e)
	}
	for _, args := range [][]string{
		{"repair", oneToOne},
		{"repair", oneToOne, "-n", "2", "--cost", "/nonexistent"},
		{"repair", oneToOne, "-n", "2", "--cost", writeFile(t, "bad.costs", "barrier 1\n")},
		{"repair", oneToOne, "-n", "2", "--shard", "1/2"},
		{"repair", oneToOne, "-n", "2", "--write", "/nonexistent/dir/x.pgas"},
	} {
		if code, o, e := runCmd(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, code, o, e)
		}
	}
	if _, err := os.Stat("/nonexistent/dir/x.pgas"); err == nil {
		t.Fatal("wrote where it could not")
	}
}
