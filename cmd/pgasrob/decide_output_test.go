package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/report"
)

// project copies examples into a directory tree: a robust program
// (put.pgas: a put completes before the rank goes on), a violation
// (mp-unsync.pgas: message passing over two queues, argued in its
// comment), a C violation in a subdirectory (sb.c: store buffering
// through puts) and a file with an input error.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for src, dst := range map[string]string{"put.pgas": "a/put.pgas", "mp-unsync.pgas": "a/mp-unsync.pgas", "shmem/sb.c": "b/c/sb.c"} {
		data, err := os.ReadFile(filepath.Join("../../examples", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "broken.pgas"), []byte("values 2\naddress x\n  mem[y] <- 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDecideProject(t *testing.T) {
	dir := project(t)
	sarifPath := filepath.Join(t.TempDir(), "out.sarif")
	code, out, errs := runCmd("decide", "-r", dir, "-n", "2", "--jobs", "2", "--json", "--sarif", sarifPath)
	// An input error (2) is more severe than a violation (1).
	if code != exitUsage {
		t.Fatalf("exit %d, want %d (an input error among the files)\n%s%s", code, exitUsage, out, errs)
	}
	var p projectJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]string{}
	for _, r := range p.Summary {
		rel, _ := filepath.Rel(dir, r.File)
		got[rel] = r.Verdict
	}
	want := map[string]string{"a/put.pgas": "robust", "a/mp-unsync.pgas": "not robust", "b/c/sb.c": "not robust", "a/broken.pgas": "input error"}
	for f, v := range want {
		if got[f] != v {
			t.Errorf("%s: %q, want %q (summary %v)", f, got[f], v, got)
		}
	}
	if p.Schema != projectSchema || len(p.Files) != 4 || p.Verdict != "input error" || p.ExitCode != exitUsage {
		t.Errorf("schema %q, %d files, verdict %q, exit %d", p.Schema, len(p.Files), p.Verdict, p.ExitCode)
	}
	data, err := os.ReadFile(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, r := range log.Runs[0].Results {
		rules = append(rules, r.RuleID)
	}
	if strings.Join(rules, " ") != "input-error not-robust not-robust" {
		t.Errorf("SARIF results %v, want the input error and the two violations, in file order", rules)
	}
}

// Text: each file's output as for one file, then the summary table.
func TestDecideProjectText(t *testing.T) {
	dir := project(t)
	code, out, _ := runCmd("decide", filepath.Join(dir, "a", "put.pgas"), filepath.Join(dir, "b", "c", "sb.c"), "-n", "2")
	if code != exitNotRobust {
		t.Fatalf("exit %d, want 1", code)
	}
	i := strings.Index(out, "put.pgas, N = 2: ROBUST")
	j := strings.Index(out, "sb.c, N = 2: NOT ROBUST")
	k := strings.Index(out, "file ")
	if i < 0 || j < i || k < j {
		t.Fatalf("want put.pgas's result, then sb.c's, then the table:\n%s", out)
	}
	if !strings.Contains(out, "exit code 1 (the most severe)") {
		t.Errorf("no overall line:\n%s", out)
	}
}

// The per-file flags reach each file's decision: a state budget of 1
// for one file only makes that file UNKNOWN.
func TestDecidePerFileArgs(t *testing.T) {
	dir := project(t)
	old := perFileArgs
	defer func() { perFileArgs = old }()
	perFileArgs = func(path string) ([]string, error) {
		if strings.HasSuffix(path, "mp-unsync.pgas") {
			return []string{"--max-states=1", "--procedure=automata"}, nil
		}
		return nil, nil
	}
	code, out, _ := runCmd("decide", filepath.Join(dir, "a", "put.pgas"), filepath.Join(dir, "a", "mp-unsync.pgas"), "-n", "2", "--json")
	var p projectJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if p.Summary[1].Verdict != "unknown" || p.Summary[0].Verdict != "robust" || code != exitUnknown {
		t.Errorf("exit %d, summary %+v: want put.pgas robust, mp-unsync.pgas unknown", code, p.Summary)
	}
}

func TestDecideOutputFlags(t *testing.T) {
	dir := project(t)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{dir, "-n", "2"}, "is a directory: give -r"},
		{[]string{"-r", dir, "-n", "2", "--via", "instrumentation"}, "--via goes with one FILE"},
		{[]string{"-r", dir, "-n", "2", "--html", filepath.Join(dir, "a", "put.pgas")}, "name a directory"},
		{[]string{filepath.Join(dir, "a", "put.pgas"), "-n", "2", "--json", "--format", "gcc"}, "give one"},
		{[]string{filepath.Join(dir, "a", "put.pgas"), "-n", "2", "--format", "clang"}, "--format must be"},
	} {
		code, _, errs := runCmd(append([]string{"decide"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.msg) {
			t.Errorf("decide %v: exit %d, %q; want 2 and %q", tc.args, code, errs, tc.msg)
		}
	}
}

// --format gcc gives the exit code of the text output and diagnostics
// only; --format auto is gcc when standard output is not a terminal.
func TestDecideFormatGCC(t *testing.T) {
	for _, f := range []string{"gcc", "auto"} {
		code, out, _ := runCmd("decide", "../../examples/shmem/sb.c", "-n", "2", "--format", f)
		if code != exitNotRobust {
			t.Errorf("--format %s: exit %d, want 1", f, code)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if !strings.HasPrefix(lines[0], "../../examples/shmem/sb.c:21:9: error: not robust for N = 2: ") || !strings.HasSuffix(lines[0], "["+report.RuleNotRobust+"]") {
			t.Errorf("--format %s: first line %q", f, lines[0])
		}
		for _, l := range lines[1:] {
			if !strings.Contains(l, ": note: ") {
				t.Errorf("--format %s: not a note: %q", f, l)
			}
		}
	}
}

// --sarif-fixes: the repair of sb.c (a quiet between each put and the
// load after it: the fence of store buffering) is the result's fix.
func TestDecideSARIFFixes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sb.sarif")
	code, _, errs := runCmd("decide", "../../examples/shmem/sb.c", "-n", "2", "--sarif", path, "--sarif-fixes")
	if code != exitNotRobust {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Fixes []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							InsertedContent struct {
								Text string `json:"text"`
							} `json:"insertedContent"`
						} `json:"replacements"`
					} `json:"artifactChanges"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	fixes := log.Runs[0].Results[0].Fixes
	if len(fixes) != 1 || len(fixes[0].ArtifactChanges[0].Replacements) == 0 {
		t.Fatalf("no fix: %s", data)
	}
	for _, r := range fixes[0].ArtifactChanges[0].Replacements {
		if !strings.Contains(r.InsertedContent.Text, "shmem_") {
			t.Errorf("inserted %q, want an OpenSHMEM call", r.InsertedContent.Text)
		}
	}
}

// "--sarif -": the log is the whole standard output, for one file and
// for a project.
func TestDecideSARIFStdout(t *testing.T) {
	for _, args := range [][]string{
		{"decide", "../../examples/shmem/sb.c", "-n", "2", "--sarif", "-"},
		{"decide", "../../examples/shmem/sb.c", "../../examples/put.pgas", "-n", "2", "--sarif", "-"},
	} {
		code, out, errs := runCmd(args...)
		var log struct {
			Version string `json:"version"`
			Runs    []struct {
				Results []json.RawMessage `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil || code != exitNotRobust {
			t.Fatalf("%v: exit %d, %v\n%s%s", args, code, err, out, errs)
		}
		if log.Version != "2.1.0" || len(log.Runs[0].Results) != 1 {
			t.Errorf("%v: version %q, %d results; want 2.1.0 and sb.c's violation", args, log.Version, len(log.Runs[0].Results))
		}
	}
}
