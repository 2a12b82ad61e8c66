package main

// Issue 34, items 3 to 6, at the command line: the front end under the
// budgets, exit 4 for its faults, --lang, --dot -, write errors, help,
// warnings and assumptions in the output.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// bigC is a C program of about size bytes: a main of many short
// statements, each on its own line.
func bigC(size int) string {
	var b strings.Builder
	b.WriteString("#include <shmem.h>\nlong x;\nint main(void) {\n  shmem_init();\n  long y = 0;\n")
	for i := 0; b.Len() < size-100; i++ {
		fmt.Fprintf(&b, "  y = %d;\n", i%2)
	}
	b.WriteString("  shmem_long_p(&x, y, 0);\n  return 0;\n}\n")
	return b.String()
}

const mpC = `#include <shmem.h>
#define PRODUCER_PE 0
long x, flag;
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  if (me == PRODUCER_PE) {
    shmem_long_p(&x, 1, 1);
    shmem_long_p(&flag, 1, 1);
  } else {
    long f = shmem_long_g(&flag, 1);
    long d = shmem_long_g(&x, 1);
  }
  return 0;
}
`

// TestFrontEndBudgets: --timeout 1s on a 990 KB file ran 16.5 s and ended
// "too large" (exit 2); --max-memory 40 did not hold on it. Now each
// budget stops the front end with UNKNOWN, exit 3, the phase named,
// within 0.5 s and 20 % of the budget. The wall and memory guards of
// guardedRun fail the test beyond that; the margins are the issue's.
func TestFrontEndBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	big := writeFile(t, "big.c", bigC(990_000))
	for _, c := range []struct {
		name   string
		args   []string
		limit  int64
		wall   time.Duration
		reason string
	}{
		{"timeout", []string{"decide", big, "-n", "2", "--timeout", "1s"}, 1 << 30, 1500 * time.Millisecond, "time budget of 1s reached while"},
		{"memory", []string{"decide", big, "-n", "2", "--max-memory", "40"}, 48 << 20, 30 * time.Second, "memory budget of 40 MiB reached while"},
		{"both", []string{"decide", big, "-n", "2", "--timeout", "1s", "--max-memory", "40"}, 48 << 20, 1500 * time.Millisecond, "reached while"},
		{"translate", []string{"translate", big, "-n", "2", "--timeout", "1s", "--max-memory", "40"}, 48 << 20, 1500 * time.Millisecond, "reached while"},
		{"via instrumentation", []string{"decide", big, "-n", "2", "--via", "instrumentation", "--timeout", "1s", "--max-memory", "40"}, 48 << 20, 1500 * time.Millisecond, "reached while"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, _ := guardedRun(t, c.limit, c.wall, c.args...)
			if code != exitUnknown || !strings.Contains(out, "UNKNOWN") || !strings.Contains(out, c.reason) {
				t.Errorf("exit %d, want 3 with %q:\n%.1000s", code, c.reason, out)
			}
		})
	}
	// the deep and long inputs are refused by name, at once
	deep := writeFile(t, "deep.c", "int main(void) { long y = "+strings.Repeat("(", 10000)+"1"+strings.Repeat(")", 10000)+"; return 0; }\n")
	long := writeFile(t, "long.c", "int main(void) { long y = 0; "+strings.Repeat("y = 1; ", 800_000/7)+"return 0; }\n")
	for _, f := range []string{deep, long} {
		code, out, _ := guardedRun(t, 48<<20, 1500*time.Millisecond, "decide", f, "-n", "2", "--timeout", "1s", "--max-memory", "40")
		if code != exitUsage || !strings.Contains(out, filepath.Base(f)+":1:") {
			t.Errorf("%s: exit %d, want 2 at a position:\n%.500s", f, code, out)
		}
	}
}

// TestFrontEndInterrupt: SIGINT while the C file was parsed ended the
// process with 130 and nothing printed; docs/cli.md promises UNKNOWN, exit
// 3.
func TestFrontEndInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	big := writeFile(t, "big.c", bigC(990_000))
	c := child(nil, "decide", big, "-n", "2", "--json")
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // past the handler's 20 ms, inside the front end
	c.Process.Signal(syscall.SIGINT)
	err := c.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUnknown {
		t.Fatalf("%v, want exit 3; stderr %s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "interrupt signal received while") {
		t.Errorf("stderr %q", errb.String())
	}
	var v decideJSON
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.Verdict != "unknown" || v.ExitCode != exitUnknown {
		t.Errorf("JSON %v (%v):\n%s", v, err, out.String())
	}
}

// TestFrontEndInternalError: a fault of the front end gave exit 2 where
// docs/cli.md says 4.
func TestFrontEndInternalError(t *testing.T) {
	if got := frontCode(&cfront.InternalError{Pos: pgas.Pos{File: "f.c", Line: 1, Col: 1}, Msg: "x"}); got != exitInternal {
		t.Errorf("exit %d for an internal error, want 4", got)
	}
	if got := frontCode(fmt.Errorf("wrapped: %w", &budgetStop{phase: "parsing", cause: errors.New("c")})); got != exitUnknown {
		t.Errorf("exit %d for a budget, want 3", got)
	}
	old := compileC
	defer func() { compileC = old }()
	compileC = func(name string, src []byte, opt cfront.Options) (*pgas.Program, error) {
		return nil, &cfront.InternalError{Pos: pgas.Pos{File: name, Line: 1, Col: 1}, Msg: "a test's fault"}
	}
	f := writeFile(t, "k.c", mpC)
	code, out, _ := runCmd("decide", f, "-n", "2", "--json")
	var v decideJSON
	if code != exitInternal || json.Unmarshal([]byte(out), &v) != nil || v.Verdict != "internal error" {
		t.Errorf("exit %d, want 4 and verdict internal error:\n%s", code, out)
	}
}

// TestLangStdin: a C program on standard input was parsed as .pgas.
func TestLangStdin(t *testing.T) {
	for _, args := range [][]string{{"decide", "-", "-n", "2", "--lang", "c"}, {"decide", "-", "-n", "2"}} {
		old := stdin
		stdin = strings.NewReader(mpC)
		code, out, errs := runCmd(args...)
		stdin = old
		if code != exitNotRobust || !strings.Contains(out, "NOT ROBUST") || !strings.Contains(out, "if (me == PRODUCER_PE)") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	old := stdin
	stdin = strings.NewReader(mpC)
	code, _, errs := runCmd("check", "-", "--lang", "pgas")
	stdin = old
	if code != exitUsage || !strings.Contains(errs, "<standard input>:") {
		t.Errorf("--lang pgas on C: exit %d, %s", code, errs)
	}
	for src, isC := range map[string]bool{
		mpC: true, "program p\nvalues 2\naddress x\n    mem[x] <- 1\n": false,
		"# a comment\n#include <shmem.h>\n": true, "# comment\nprogram q\n# include later\n": false,
		"values 2\naddress x\n": false,
	} {
		if got := sniffC([]byte(src)); got != isC {
			t.Errorf("sniffC(%q) = %v", src, got)
		}
	}
}

// TestDotStdout: --dot - wrote the graph and the verdict to stdout, so
// "decide k.c -n 2 --dot - | dot -Tpng" failed.
func TestDotStdout(t *testing.T) {
	f := writeFile(t, "k.c", mpC)
	code, out, errs := runCmd("decide", f, "-n", "2", "--dot", "-")
	if code != exitNotRobust || !strings.HasPrefix(out, "digraph") || strings.Contains(out, "NOT ROBUST") || !strings.Contains(errs, "NOT ROBUST") {
		t.Fatalf("exit %d\nstdout:\n%.300s\nstderr:\n%.300s", code, out, errs)
	}
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not installed: the pipe itself is not run")
	}
	c := exec.Command(dot, "-Tpng")
	c.Stdin = strings.NewReader(out)
	png, err := c.Output()
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("dot -Tpng: %v", err)
	}
}

// TestWriteErrorNamesUserFile: a failed write named our temporary file
// ("open /sys/.x.dot.2748568744.tmp").
func TestWriteErrorNamesUserFile(t *testing.T) {
	notDir := writeFile(t, "plain", "x")
	target := filepath.Join(notDir, "x.dot")
	err := writeAtomic(target, []byte("digraph{}"))
	if err == nil || !strings.Contains(err.Error(), target) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("got %v, want an error naming %s", err, target)
	}
	f := writeFile(t, "k.c", mpC)
	_, _, errs := runCmd("decide", f, "-n", "2", "--dot", target)
	if !strings.Contains(errs, target) || strings.Contains(errs, ".tmp") {
		t.Errorf("stderr %q", errs)
	}
}

// TestHelpInputs: help called every input "a .pgas program".
func TestHelpInputs(t *testing.T) {
	_, _, errs := runCmd("help")
	_, out, _ := runCmd("help")
	all := errs + out
	for _, cmd := range []string{"check", "cycles", "decide", "repair", "translate"} {
		for _, l := range strings.Split(all, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), cmd+" ") && !strings.Contains(l, "C with OpenSHMEM") {
				t.Errorf("help: %q does not say it takes C", l)
			}
		}
	}
	for _, cmd := range []string{"decide", "translate", "check", "cycles"} {
		_, o, e := runCmd(cmd, "--help")
		if !strings.Contains(o+e, "C program with OpenSHMEM") || !strings.Contains(o+e, "--lang") {
			t.Errorf("%s --help does not say which inputs it takes", cmd)
		}
	}
}

// TestWarningsPrinted: code removed by a predefined macro, and a program
// that communicates nothing, were ROBUST without a word; the assumptions
// were nowhere.
func TestWarningsPrinted(t *testing.T) {
	f := writeFile(t, "v.c", "#include <shmem.h>\nlong x;\nint main(void) {\n  shmem_init();\n#if __STDC_VERSION__ >= 299901L\n  shmem_long_p(&x, 1, 0);\n#endif\n  x = 1;\n  return 0;\n}\n")
	code, out, _ := runCmd("decide", f, "-n", "2")
	if code != exitRobust || !strings.Contains(out, f+":5:1: warning: this conditional removes SHMEM calls") ||
		!strings.Contains(out, "no SHMEM communication") || !strings.Contains(out, "assuming local-sc: see docs/shmem.md") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	_, out, _ = runCmd("decide", f, "-n", "2", "--json")
	var v decideJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Warnings) != 2 || len(v.Assumptions) != 1 || v.Assumptions[0].ID != "local-sc" {
		t.Errorf("%v\n%s", err, out)
	}
}
