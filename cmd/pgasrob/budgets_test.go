package main

// Issue 29, items 0, 1 and 2: budgets hold from the first instruction to
// the last line of the witness. Each case runs the command in a child
// process under a resident-set guard of its own, which kills the child
// and fails the test when the child passes it: before the fixes these
// inputs took the process to gigabytes.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// longWitnessTSO is a program whose only feasible attacks come after a
// loop of k rounds (read the counter, test it, write it back plus one,
// mfence): every witness replays the whole loop, k loads and k stores of
// one address whose conflict edges alone number k*k/2.
func longWitnessTSO(k int) string {
	return fmt.Sprintf(`thread t0
initial q0
transition q0 q1 read r 2
transition q1 q2 check < r %d
transition q2 q3 write + r 1 2
transition q3 q0 mfence
transition q1 q4 check >= r %d
transition q4 q5 write 1 0
transition q5 q6 read s 1
end

thread t1
initial q0
transition q0 q1 write 1 1
transition q1 q2 read s 0
end
`, k, k)
}

// alternating is one thread of n transitions alternating a store and a
// load (about n*n/4 attacks), beside a second thread.
func alternating(n int) string {
	var b strings.Builder
	b.WriteString("thread t0\ninitial q0\n")
	for i := 0; i < n; i++ {
		op := "write 1 0"
		if i%2 == 1 {
			op = "read r 1"
		}
		fmt.Fprintf(&b, "transition q%d q%d %s\n", i, i+1, op)
	}
	b.WriteString("end\n\nthread t1\ninitial q0\ntransition q0 q1 write 1 1\ntransition q1 q2 read s 0\nend\n")
	return b.String()
}

// readsOnly is one thread of n loads and nothing else: no attack at all.
func readsOnly(n int) string {
	var b strings.Builder
	b.WriteString("thread t0\ninitial q0\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "transition q%d q%d read r 1\n", i, i+1)
	}
	b.WriteString("end\n")
	return b.String()
}

// longPGAS is a .pgas program of n statements alternating a store and a
// load.
func longPGAS(n int) string {
	var b strings.Builder
	b.WriteString("values 2\naddress x, y\nregister r\n")
	for i := 0; i < n/2; i++ {
		b.WriteString("    mem[x] <- 1\n    r <- mem[y]\n")
	}
	return b.String()
}

// guardedRun runs pgasrob with args in a child process and kills it when
// its resident set passes limit bytes (the test then fails) or when it
// runs longer than wall. It returns the exit code, the output and the
// peak resident set.
func guardedRun(t *testing.T, limit int64, wall time.Duration, args ...string) (code int, out string, peak int64) {
	t.Helper()
	hwm := filepath.Join(t.TempDir(), "hwm")
	c := child([]string{"PGASROB_HWM_FILE=" + hwm}, args...)
	var b strings.Builder
	c.Stdout, c.Stderr = &b, &b
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	status := fmt.Sprintf("/proc/%d/status", c.Process.Pid)
	deadline := time.After(wall)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			if kb, err := readKB(hwm, ""); err == nil {
				peak = kb << 10
			}
			t.Logf("exit %d, peak RSS %.1f MiB", c.ProcessState.ExitCode(), float64(peak)/(1<<20))
			return c.ProcessState.ExitCode(), b.String(), peak
		case <-deadline:
			c.Process.Kill()
			<-done
			t.Fatalf("still running after %v:\n%.2000s", wall, b.String())
		case <-tick.C:
			if kb, err := readKB(status, "VmRSS:"); err == nil && kb<<10 > limit {
				c.Process.Kill()
				<-done
				t.Fatalf("resident set %d MiB passed the guard of %d MiB", kb>>10, limit>>20)
			}
		}
	}
}

// readKB reads a figure in kB: the file's content, or the line of a
// /proc status file that starts with field.
func readKB(file, field string) (int64, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	s := string(b)
	if field != "" {
		i := strings.Index(s, field)
		if i < 0 {
			return 0, fmt.Errorf("no %s in %s", field, file)
		}
		s = s[i+len(field):]
		s = s[:strings.IndexByte(s, '\n')]
	}
	return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "kB")), 10, 64)
}

// TestLongWitnessWithinGuard (item 0): a witness of 100,000 steps is
// built, replayed and its cycle found in memory linear in its length, for
// every criterion, under a 1 GB guard. Before the fix the happens-before
// edges of this witness took 11 GB.
func TestLongWitnessWithinGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	f := writeFile(t, "long.txt", longWitnessTSO(20000))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "NOT ROBUST"},
		{[]string{"--model", "pso"}, "NOT ROBUST"},
		{[]string{"--criterion", "persistence"}, "FRAGILE"},
		{[]string{"--criterion", "trf"}, "TRIANGULAR RACE"},
	} {
		t.Run(strings.Join(append([]string{"tso"}, tc.args...), " "), func(t *testing.T) {
			args := append([]string{"tso", f, "--max-memory", "900", "--jobs", "1"}, tc.args...)
			code, out, _ := guardedRun(t, 1<<30, 5*time.Minute, args...)
			if code != exitNotRobust || !strings.Contains(out, tc.want) || !strings.Contains(out, "attack") && !strings.Contains(out, "pattern") {
				t.Errorf("exit %d, want %d and %s:\n%.1500s", code, exitNotRobust, tc.want, out)
			}
		})
	}
}

// TestQuadraticInputsWithinGuard (item 1): inputs whose attack list, or
// the reachability behind it, is quadratic in a thread's length answer
// within their budgets under a 500 MB guard, the time budget included.
// Before the fix: past 4 GB, 2 GB (60,000 reads; 30,000, the most that
// fits the 1 MiB limit on a file, took 600 MB and 8 s, so that case has a
// 200 MB guard), and past 4 GB.
func TestQuadraticInputsWithinGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	alt := writeFile(t, "alt.txt", alternating(20000))
	reads := writeFile(t, "reads.txt", readsOnly(30000))
	long := writeFile(t, "long.pgas", longPGAS(4000))
	for _, tc := range []struct {
		name  string
		guard int64
		args  []string
		codes []int
		want  string
	}{
		{"alternating", 500 << 20, []string{"tso", alt, "--timeout", "3s", "--max-memory", "400"}, []int{exitUnknown}, "attacks"},
		{"reads", 200 << 20, []string{"tso", reads, "--timeout", "20s", "--max-memory", "150"}, []int{exitRobust}, "ROBUST"},
		{"via instrumentation", 500 << 20, []string{"decide", long, "-n", "2", "--via", "instrumentation", "--max-memory", "400"}, []int{exitUnknown}, "UNKNOWN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, _ := guardedRun(t, tc.guard, 2*time.Minute, tc.args...)
			if !slices.Contains(tc.codes, code) || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want one of %v and %q:\n%.1500s", code, tc.codes, tc.want, out)
			}
		})
	}
}

// TestBudgetCoversCompiling (item 2): --max-memory bounds reading and
// compiling a file of a megabyte (one expression of half a million
// operators), within the 25% of TestMemoryBound. It peaked at 658 MB
// under --max-memory 50.
func TestBudgetCoversCompiling(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	src := "values 2\naddress x\nregister r\n    r <- " + strings.Repeat("1+", (1<<20)/2-40) + "1\n"
	f := writeFile(t, "expr.pgas", src)
	const mib = 50
	code, out, peak := guardedRun(t, 1<<30, 2*time.Minute, "decide", f, "-n", "2", "--max-memory", strconv.Itoa(mib))
	if code != exitUsage && code != exitUnknown {
		t.Errorf("exit %d, want %d (the expression is refused) or %d (the budget):\n%.1500s", code, exitUsage, exitUnknown, out)
	}
	if peak == 0 {
		t.Skip("no VmHWM on this system")
	}
	if limit := int64(mib) << 20 * 5 / 4; peak > limit {
		t.Errorf("peak RSS %d MiB, more than 125%% of %d MiB", peak>>20, mib)
	}
}
