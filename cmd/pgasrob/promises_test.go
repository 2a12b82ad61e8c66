package main

// The hostile-input suite grows with issue 29: output that cannot be
// written, a fifo as FILE, an output naming the input, damaged and empty
// shard files, and the habits of the ecosystem. Each case failed before
// its fix.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const sbTSO = "../../examples/tso/sb.txt"

// TestStdoutFull: a command whose output is lost (/dev/full) says so and
// exits 2, whatever it found (item 3). Before, every one exited as if it
// had been written, a shard with 0.
func TestStdoutFull(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"decide", oneToOne, "-n", "2", "--shard", "1/2"},
		{"decide", oneToOne, "-n", "2"},
		{"decide", oneToOneFixed, "-n", "2", "--json"},
		{"translate", oneToOne, "-n", "2"},
		{"check", oneToOne, "--json"},
		{"repair", oneToOne, "-n", "2"},
		{"tso", sbTSO},
		{"cycles", oneToOne, "-n", "2"},
		{"difftest", "--count", "2"},
		{"version"},
	} {
		c := child(nil, args...)
		c.Stdout = full
		var errb bytes.Buffer
		c.Stderr = &errb
		c.Run()
		if code := c.ProcessState.ExitCode(); code != exitUsage || !strings.Contains(errb.String(), "the output is lost") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// runWithin runs a command line in-process and fails the test if it does
// not answer in time (a fifo would block it forever).
func runWithin(t *testing.T, d time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, stdout, stderr = runCmd(args...)
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%v: no answer in %v", args, d)
	}
	return
}

// TestFIFOInput: a named pipe as FILE is refused at once as "not a
// regular file" (item 4); before, open waited for a writer forever.
func TestFIFOInput(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p.pgas")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no fifo:", err)
	}
	for _, args := range [][]string{
		{"decide", fifo, "-n", "2"},
		{"check", fifo},
		{"translate", fifo, "-n", "2"},
		{"tso", fifo},
		{"repair", fifo, "-n", "2"},
		{"merge", fifo},
		{"decide", oneToOne, "-n", "2", "--shard", "1/2", "--shard-costs", fifo},
	} {
		code, _, errs := runWithin(t, 10*time.Second, args...)
		if code != exitUsage || !strings.Contains(errs, "not a regular file") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// copyExample puts a copy of an example into a temporary directory.
func copyExample(t *testing.T, example string) string {
	t.Helper()
	b, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, filepath.Base(example), string(b))
}

// TestNoSelfOverwrite: an output that is the input, under any name, is
// refused before anything is written (item 5).
func TestNoSelfOverwrite(t *testing.T) {
	pg := copyExample(t, oneToOne)
	sb := copyExample(t, "../../examples/tso/sb-hot.txt")
	link := filepath.Join(t.TempDir(), "link.pgas")
	if err := os.Symlink(pg, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		args []string
	}{
		{pg, []string{"translate", pg, "-n", "2", "--out", pg}},
		{pg, []string{"translate", pg, "-n", "2", "--out", link}},
		{pg, []string{"translate", pg, "-n", "2", "--out", filepath.Join(filepath.Dir(pg), ".", filepath.Base(pg))}},
		{pg, []string{"repair", pg, "-n", "2", "--write", pg}},
		{sb, []string{"tso", sb, "--fences", "--write", sb}},
	} {
		before, _ := os.ReadFile(tc.file)
		code, _, errs := runWithin(t, 60*time.Second, tc.args...)
		after, _ := os.ReadFile(tc.file)
		if code != exitUsage || !strings.Contains(errs, "refusing to overwrite the input") || !bytes.Equal(before, after) {
			t.Errorf("%v: exit %d, input kept %v, stderr %q", tc.args, code, bytes.Equal(before, after), errs)
		}
	}
}

// TestAtomicWrite: an output replaces the old file whole, keeps its
// permissions and leaves no temporary file behind (item 5).
func TestAtomicWrite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(out, []byte(strings.Repeat("old\n", 10000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCmd("translate", oneToOne, "-n", "2", "--out", out); code != exitRobust {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, want, _ := runCmd("translate", oneToOne, "-n", "2")
	got, _ := os.ReadFile(out)
	st, _ := os.Stat(out)
	entries, _ := os.ReadDir(dir)
	if string(got) != want || st.Mode().Perm() != 0o600 || len(entries) != 1 {
		t.Errorf("content right %v, mode %v, %d entries in the directory", string(got) == want, st.Mode().Perm(), len(entries))
	}
	// Into a directory that does not exist: an error, nothing left.
	if code, _, errs := runCmd("translate", oneToOne, "-n", "2", "--out", filepath.Join(dir, "no", "x.txt")); code != exitUsage || !strings.Contains(errs, "x.txt") {
		t.Errorf("missing directory: exit %d, stderr %q", code, errs)
	}
}

// TestViaRunError: the instrumentation route reports a reachable
// run-time error as the exact route does (item 6), not as UNKNOWN.
func TestViaRunError(t *testing.T) {
	rte := writeFile(t, "rte.pgas", runtimeErrorSrc)
	code, out, _ := runCmd("decide", rte, "-n", "2", "--via", "instrumentation")
	if code != exitUsage || !strings.Contains(out, "via instrumentation: RUN-TIME ERROR: rank 1: "+rte+":6:10: value 2 outside 0..1") ||
		!strings.Contains(out, "line 5: r <- mem[x]") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd("decide", rte, "-n", "1..2", "--via", "instrumentation", "--json")
	var v decideViaJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitUsage || v.ExitCode != exitUsage || len(v.Results) != 2 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	for _, r := range v.Results {
		if r.Verdict != "RUN-TIME ERROR" || r.RuntimeError == nil || len(r.RuntimeError.Path) == 0 {
			t.Errorf("N = %d: %+v", r.N, r)
		}
	}
	// A program without one still goes through the framework.
	if code, out, _ := runCmd("decide", oneToOne, "-n", "2", "--via", "instrumentation"); code != exitNotRobust || !strings.Contains(out, "framework: NOT ROBUST") {
		t.Errorf("1to1: exit %d:\n%s", code, out)
	}
}

// shardFiles runs a command as K shards and writes their files.
func shardFiles(t *testing.T, k int, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i := 1; i <= k; i++ {
		code, out, errs := runCmd(append(append([]string(nil), args...), "--shard", strings.Join([]string{strconv.Itoa(i), strconv.Itoa(k)}, "/"))...)
		if code != exitRobust {
			t.Fatalf("shard %d/%d: exit %d: %s", i, k, code, errs)
		}
		f := filepath.Join(dir, "shard-"+strconv.Itoa(i)+".json")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// damage rewrites the shard file whose JSON holds key, by edit.
func damage(t *testing.T, files []string, key string, edit func(map[string]any)) {
	t.Helper()
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if !strings.Contains(string(b), key) {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		edit(v)
		b, _ = json.Marshal(v)
		os.WriteFile(f, b, 0o644)
		return
	}
	t.Fatalf("no shard file holds %q", key)
}

// TestMergeDamagedShards: an emptied witness is a damaged file (exit 2,
// not an internal error), an empty file a missing shard named in the
// UNKNOWN (item 7).
func TestMergeDamagedShards(t *testing.T) {
	files := shardFiles(t, 2, "decide", oneToOne, "-n", "2", "--procedure", "automata")
	damage(t, files, `"nonempty"`, func(v map[string]any) {
		for _, d := range v["decide"].([]any) {
			for _, ty := range d.(map[string]any)["types"].([]any) {
				if m := ty.(map[string]any); m["outcome"] == "nonempty" {
					m["witness"] = []any{}
				}
			}
		}
	})
	if code, _, errs := runCmd(append([]string{"merge"}, files...)...); code != exitUsage || !strings.Contains(errs, "damaged file") {
		t.Errorf("emptied decide witness: exit %d, stderr %q", code, errs)
	}
	tfiles := shardFiles(t, 2, "tso", sbTSO)
	damage(t, tfiles, `"witness"`, func(v map[string]any) {
		v["tso"].(map[string]any)["witness"].(map[string]any)["steps"] = []any{}
	})
	if code, _, errs := runCmd(append([]string{"merge"}, tfiles...)...); code != exitUsage || !strings.Contains(errs, "damaged file") {
		t.Errorf("emptied tso witness: exit %d, stderr %q", code, errs)
	}

	// A shard killed before it wrote: its file is empty.
	files = shardFiles(t, 2, "decide", oneToOneFixed, "-n", "2", "--procedure", "automata")
	os.WriteFile(files[1], nil, 0o644)
	code, out, errs := runCmd("merge", files[0], files[1])
	if code != exitUnknown || !strings.Contains(out, "UNKNOWN") || !strings.Contains(out, "shard 2/2 missing (empty file "+files[1]) {
		t.Errorf("empty shard file: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	os.WriteFile(files[0], nil, 0o644)
	if code, _, errs := runCmd("merge", files[0], files[1]); code != exitUnknown || !strings.Contains(errs, "every shard file is empty") {
		t.Errorf("all empty: exit %d, stderr %q", code, errs)
	}
}

// TestShardInterruptedExit: a shard stopped before its part is done
// exits 3, and its file says so (item 7); before, it exited 0 and a
// Slurm afterok merge started as if the part were covered.
func TestShardInterruptedExit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	c := child(nil, "decide", oneToOneFixed, "-n", "8", "--shard", "1/2", "--procedure", "automata")
	var out bytes.Buffer
	c.Stdout = &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	c.Process.Signal(syscall.SIGINT)
	c.Wait()
	var s shardJSON
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("%v:\n%.500s", err, out.String())
	}
	if code := c.ProcessState.ExitCode(); code != exitUnknown || s.Done || s.ExitCode != exitUnknown {
		t.Errorf("exit %d, done %v, exit_code %d", code, s.Done, s.ExitCode)
	}
}

// TestHabits: what Go and git users expect (item 10).
func TestHabits(t *testing.T) {
	if code, out, _ := runCmd("help", "decide"); code != exitRobust || !strings.HasPrefix(out, "usage: pgasrob decide FILE") {
		t.Errorf("help decide: exit %d, stdout %.100q", code, out)
	}
	if code, _, errs := runCmd("help", "nope"); code != exitUsage || !strings.Contains(errs, `unknown command "nope"`) {
		t.Errorf("help nope: exit %d, stderr %q", code, errs)
	}
	if code, out, _ := runCmd("--version"); code != exitRobust || !strings.HasPrefix(out, "pgasrob "+version) {
		t.Errorf("--version: exit %d, stdout %q", code, out)
	}
	// "-" is standard input.
	src, _ := os.ReadFile(oneToOne)
	old := stdin
	stdin = bytes.NewReader(src)
	code, out, _ := runCmd("decide", "-", "-n", "2")
	stdin = old
	if code != exitNotRobust || !strings.HasPrefix(out, stdinName+", N = 2: NOT ROBUST") {
		t.Errorf("decide -: exit %d, stdout %.200q", code, out)
	}
	stdin = strings.NewReader(strings.Repeat("#", 2<<20))
	code, _, errs := runCmd("check", "-")
	stdin = old
	if code != exitUsage || !strings.Contains(errs, "larger than 1 MiB") {
		t.Errorf("check - (2 MiB): exit %d, stderr %q", code, errs)
	}
	// "--dot -" is standard output, also for a range.
	if code, out, _ := runCmd("decide", oneToOne, "-n", "1..2", "--dot", "-"); code != exitNotRobust || strings.Count(out, "digraph") != 2 {
		t.Errorf("--dot -: exit %d, %d graphs", code, strings.Count(out, "digraph"))
	}
	if code, out, _ := runCmd("tso", sbTSO, "--dot", "-"); code != exitNotRobust || !strings.Contains(out, "digraph") {
		t.Errorf("tso --dot -: exit %d", code)
	}
	for _, args := range [][]string{
		{"decide", oneToOne, "-n", "2", "-n", "3"},
		{"check", oneToOne, "-n", "2", "--n", "3"},
		{"translate", oneToOne, "-n", "2", "-n", "2"},
	} {
		if code, _, errs := runCmd(args...); code != exitUsage || !strings.Contains(errs, "given twice") || !strings.Contains(errs, "--help") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestCriteriaMissingFile: --criterion all keeps the table and gives a
// missing file its row (item 10).
func TestCriteriaMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.txt")
	code, out, _ := runCmd("tso", "--criterion", "all", sbTSO, missing)
	if code != exitUsage || !strings.Contains(out, "| sb.txt |") || !strings.Contains(out, "none.txt") || !strings.Contains(out, "no such file or directory | | |\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestErrorLists: the text list puts its cap on a line of its own, the
// JSON list is capped alike, and no message passes 200 bytes (items 9,
// 10).
func TestErrorLists(t *testing.T) {
	var b strings.Builder
	b.WriteString("values 2\naddress x\n")
	for i := range 40 {
		b.WriteString("    mem[z" + strings.Repeat("z", i) + "] <- 1\n")
	}
	many := writeFile(t, "many.pgas", b.String())
	_, _, errs := runCmd("check", many)
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if len(lines) != 31 || lines[30] != "too many errors" || !strings.HasSuffix(errs, "\n") {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
	for _, cmd := range [][]string{{"check", many, "--json"}, {"decide", many, "-n", "2", "--json"}} {
		_, out, _ := runCmd(cmd...)
		var v struct {
			Errors []checkError `json:"errors"`
		}
		json.Unmarshal([]byte(out), &v)
		if len(v.Errors) != 31 || v.Errors[30].Msg != "too many errors" {
			t.Errorf("%v: %d errors in the JSON", cmd, len(v.Errors))
		}
	}
	long := strings.Repeat("z", 5000)
	for _, src := range []string{
		"values 2\naddress x\n    mem[" + long + "] <- 1\n",
		"values 2\naddress x\n    mem[x] <- 1 " + long + "\n",
		"values 2\naddress x\n    goto " + long + "\n",
		"thread " + long + "\ninitial q0\nend\nthread " + long + "\ninitial q0\nend\n",
		"thread " + long + "\ntransition q0 q1 write 1 0\nend\n",
	} {
		f := writeFile(t, "long.pgas", src)
		_, _, errs := runCmd("check", f)
		if strings.HasPrefix(src, "thread") {
			f = writeFile(t, "long.txt", src)
			_, _, errs = runCmd("tso", f)
		}
		for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
			if msg := strings.TrimPrefix(l, f+":"); len(msg) > 200+len("3:99: ") {
				t.Errorf("a message of %d bytes: %.80s...", len(msg), msg)
			}
		}
	}
}

// TestProgressFormat: one line format for every command (item 10).
func TestProgressFormat(t *testing.T) {
	for _, tc := range []struct {
		s    progressStep
		want string
	}{
		{progressStep{cmd: "decide", context: "N = 3", what: "cycle types", done: 2, total: 8, states: 1000, elapsed: time.Second},
			"pgasrob decide: N = 3: cycle types 2 of 8, 1000 states, 1.0k states/s"},
		{progressStep{cmd: "tso", what: "attacks searched", done: 1, total: 4, states: 0, elapsed: time.Second},
			"pgasrob tso: attacks searched 1 of 4, 0 states, 0 states/s"},
		{progressStep{cmd: "difftest", what: "programs", done: 3, total: 10, states: -1, extra: "0 disagreements"},
			"pgasrob difftest: programs 3 of 10, 0 disagreements"},
		{progressStep{cmd: "repair", context: "round 1: trying wait h1", what: "cycle types", done: 1, total: 3, states: 20, elapsed: 2 * time.Second},
			"pgasrob repair: round 1: trying wait h1: cycle types 1 of 3, 20 states, 10 states/s"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// TestUsageHints: every usage error ends with the --help hint that
// docs/cli.md promises (item 9).
func TestUsageHints(t *testing.T) {
	for _, args := range [][]string{
		{"check", oneToOne, "-n", "0"},
		{"check"},
		{"cycles", oneToOne, "-n", "2", "--type", "7"},
		{"cycles", oneToOne, "-n", "2", "--yardsticks", "--shard", "1/2"},
		{"decide", oneToOne, "-n", "2", "--via", "nope"},
		{"decide", oneToOne, "-n", "2", "--via", "instrumentation", "--all"},
		{"difftest", "--count", "0"},
		{"difftest", "--shard", "3/2"},
		{"difftest", "--criterion", "trf"},
		{"difftest", "--tso", "--instrumentation"},
		{"repair", oneToOne, "-n", "2", "--proof-sets", "-1"},
		{"translate", oneToOne},
		{"tso", sbTSO, "--model", "arm"},
		{"tso", sbTSO, "--jobs", "0"},
		{"merge"},
	} {
		code, _, errs := runCmd(args...)
		if code != exitUsage || !strings.HasSuffix(errs, "Run \"pgasrob "+args[0]+" --help\" for usage.\n") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
