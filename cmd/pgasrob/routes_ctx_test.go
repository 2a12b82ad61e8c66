package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestDifftestInstrumentationContexts: the instrumentation route has no
// translation of a program with an OpenSHMEM command or a user's await;
// --instrumentation skips those with the reason counted and compares the
// others, a program that declares a context and uses none among them.
func TestDifftestInstrumentationContexts(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a-queue.pgas":   "values 2\naddress x, y\nqueue q\n    mem[x] <- 1\n    write(x, rank % N + 1, y, q)\n    barrier\n",
		"b-context.pgas": "values 2\ncontext c\naddress x\nregister r\n    putval(1, N - rank + 1, x, c)\n    r <- mem[x]\n",
		"c-await.pgas":   "values 2\naddress x\nregister r\n    r <- mem[x] when r == 0\n",
		"d-unused.pgas":  "values 2\ncontext c\naddress x\n    mem[x] <- 1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCmd("difftest", "--instrumentation", "--dir", dir, "--json")
	var v difftestJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	if code != exitRobust || v.Programs != 4 || v.Agree != 2 || v.Skipped != 2 || v.SkipReasons[skipContext] != 1 || v.SkipReasons[skipAwait] != 1 {
		t.Fatalf("exit %d: %d programs, %d agree, %d skipped, reasons %v", code, v.Programs, v.Agree, v.Skipped, v.SkipReasons)
	}
	// Generated with contexts (--shmem given): every program declares one,
	// nearly all use one; those that do not are compared.
	code, out, _ = runCmd("difftest", "--instrumentation", "--shmem", "--count", "20", "--json")
	v = difftestJSON{}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	reasons := v.SkipReasons[skipContext] + v.SkipReasons[skipAwait]
	if v.Disagree != 0 || v.Programs != 20 || reasons == 0 || reasons > v.Skipped || v.Agree+v.Skipped != 20 {
		t.Fatalf("exit %d: %+v", code, v)
	}
	// Without --shmem, --instrumentation generates the programs of
	// --shmem=false: none is skipped for a context.
	_, out, _ = runCmd("difftest", "--instrumentation", "--count", "20", "--json")
	v = difftestJSON{}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.SkipReasons) != 0 {
		t.Fatalf("%v: %+v", err, v)
	}
}
