package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mpSource is message passing: PE 0 puts data, then (with ORDERED, from
// -D) fences, then puts the flag; PE 1 waits for the flag and reads the
// data. Without the fence the two puts to PE 1 may be delivered out of
// order, so PE 1 can see the flag and the old data (the cycle
// put data ->po put flag ->rf wait ->po load data ->cf put data): not
// robust. shmem_fence orders puts to the same PE: robust.
const mpSource = `#include <shmem.h>
long data, flag;
int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
#ifdef ORDERED
        shmem_fence();
#endif
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        long v = data;
    }
    shmem_finalize();
    return 0;
}
`

// compDBProject writes two copies of mpSource, a.c built with -DORDERED
// and b.c without, by the compilation database db.json; c.c is not in
// the database; put.pgas has no preprocessor.
func compDBProject(t *testing.T) (dir, db string) {
	t.Helper()
	dir = t.TempDir()
	for _, f := range []string{"src/a.c", "src/b.c", "src/c.c"} {
		mustWrite(t, filepath.Join(dir, f), mpSource)
	}
	put, err := os.ReadFile("../../examples/put.pgas")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "src/put.pgas"), string(put))
	db = filepath.Join(dir, "compile_commands.json")
	mustWrite(t, db, `[{"directory": "`+dir+`/src", "file": "a.c", "arguments": ["cc", "-D", "ORDERED", "-O2", "-c", "a.c"]},
 {"directory": "`+dir+`/src", "file": "b.c", "command": "cc -O2 -c b.c"}]`)
	return dir, db
}

func mustWrite(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Each C file of a project is decided with its own build's -D: the same
// source is robust where the build defines ORDERED and not robust where
// it does not; a C file the build does not compile is an input error,
// and a .pgas file takes no C flags.
func TestDecideProjectCompDB(t *testing.T) {
	dir, db := compDBProject(t)
	code, out, errs := runCmd("decide", "-r", filepath.Join(dir, "src"), "-n", "2", "--compile-commands", db, "--json")
	var p projectJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errs)
	}
	got := map[string]string{}
	for _, r := range p.Summary {
		got[filepath.Base(r.File)] = r.Verdict
	}
	want := map[string]string{"a.c": "robust", "b.c": "not robust", "c.c": "input error", "put.pgas": "robust"}
	for f, v := range want {
		if got[f] != v {
			t.Errorf("%s: %q, want %q", f, got[f], v)
		}
	}
	if code != exitUsage {
		t.Errorf("exit %d, want 2 (c.c has no entry)", code)
	}
	for _, f := range p.Files {
		if strings.HasSuffix(f.File, "c.c") && (len(f.Errors) == 0 || !strings.Contains(f.Errors[0].Msg, "no entry for")) {
			t.Errorf("c.c: errors %+v, want no entry", f.Errors)
		}
	}
	// The command's own -D comes after the build's and adds to it.
	code, out, _ = runCmd("decide", filepath.Join(dir, "src/b.c"), filepath.Join(dir, "src/a.c"), "-n", "2", "--compile-commands", db, "-DORDERED", "--json")
	if code != exitRobust {
		t.Errorf("with -DORDERED: exit %d, want 0\n%s", code, out)
	}
	if code, _, errs := runCmd("decide", "-r", dir, "-n", "2", "--compile-commands", filepath.Join(dir, "none.json")); code != exitUsage || !strings.Contains(errs, "--compile-commands") {
		t.Errorf("missing database: exit %d, %s", code, errs)
	}
}

// --html DIR and --dot DIR on a project: a page and a graph per file,
// named after it, and an index linking the pages.
func TestDecideProjectHTMLDot(t *testing.T) {
	dir, db := compDBProject(t)
	htmlDir, dotDir := filepath.Join(t.TempDir(), "pages"), filepath.Join(t.TempDir(), "graphs")
	a, b := filepath.Join(dir, "src/a.c"), filepath.Join(dir, "src/b.c")
	code, out, errs := runCmd("decide", a, b, "-n", "2", "--compile-commands", db, "--html", htmlDir, "--dot", dotDir, "--json")
	if code != exitNotRobust {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var p projectJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	wantDot := filepath.Join(dotDir, mirrorName(b)+".dot")
	if p.Files[1].Results[0].DotFile != wantDot || p.Files[0].Results[0].DotFile != "" {
		t.Errorf("dot files %q, %q; want none for a.c (robust), %s for b.c", p.Files[0].Results[0].DotFile, p.Files[1].Results[0].DotFile, wantDot)
	}
	if g, err := os.ReadFile(wantDot); err != nil || !strings.HasPrefix(string(g), "digraph") {
		t.Errorf("graph of b.c: %v\n%s", err, g)
	}
	if _, err := os.Stat(filepath.Join(dotDir, mirrorName(a)+".dot")); err == nil {
		t.Errorf("a graph for the robust a.c")
	}
	for _, f := range []string{a, b} {
		page, err := os.ReadFile(filepath.Join(htmlDir, mirrorName(f)+".html"))
		if err != nil || !strings.Contains(string(page), "<title>pgasrob: "+f+"</title>") {
			t.Errorf("page of %s: %v", f, err)
		}
	}
	index, err := os.ReadFile(filepath.Join(htmlDir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{a, b} {
		if !strings.Contains(string(index), `href="`+filepath.ToSlash(mirrorName(f))+`.html"`) {
			t.Errorf("index does not link %s:\n%s", f, index)
		}
	}
	if !strings.Contains(string(index), "NOT ROBUST") {
		t.Errorf("index without b.c's verdict:\n%s", index)
	}
	if code, _, errs := runCmd("decide", a, b, "-n", "2", "--compile-commands", db, "--dot", "-"); code != exitUsage || !strings.Contains(errs, "directory") {
		t.Errorf("--dot -: exit %d, %s", code, errs)
	}
}

func TestMirrorName(t *testing.T) {
	for in, want := range map[string]string{"a/b.c": "a/b.c", "/tmp/x/y.c": "tmp/x/y.c", "../up/k.c": "__/up/k.c", "./a//b.c": "a/b.c"} {
		if got := filepath.ToSlash(mirrorName(in)); got != want {
			t.Errorf("mirrorName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDecideProjectCriterion: a project decides the criterion asked for,
// each file as decide FILE would. mp-quiet.c is robust (the quiet orders
// the data before the flag) but racy (its flag is a put, which the wait
// does not synchronise with); mp-signal.c is robust and race-free (the
// signal is delivered after the data, and the wait observes it).
// --criterion race: exit 1, the most severe; the summary has a race row
// per file. --criterion all: exit 0 (both verdicts given, as for one
// file), a robustness and a race row per file. A bad criterion is a
// usage error.
func TestDecideProjectCriterion(t *testing.T) {
	files := []string{"../../examples/shmem/mp-quiet.c", "../../examples/shmem/mp-signal.c"}
	code, out, errs := runCmd(append([]string{"decide"}, append(files, "-n", "2", "--criterion", "race")...)...)
	if code != exitNotRobust || !strings.Contains(out, "RACE on flag@PE1") || !regexp.MustCompile(`mp-quiet.c +2 +RACE `).MatchString(out) ||
		!regexp.MustCompile(`mp-signal.c +2 +RACE-FREE `).MatchString(out) || strings.Contains(out, "ROBUST") {
		t.Errorf("race: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCmd(append([]string{"decide"}, append(files, "-n", "2", "--criterion", "race", "--json")...)...)
	var pj projectJSON
	if err := json.Unmarshal([]byte(out), &pj); err != nil || code != exitNotRobust || pj.Verdict != "race" || len(pj.Files) != 2 ||
		len(pj.Files[0].Race) != 1 || pj.Files[0].Race[0].Verdict != "race" || pj.Files[1].Race[0].Verdict != "race-free" ||
		len(pj.Summary) != 2 || pj.Summary[0].Criterion != "race" {
		t.Errorf("race --json: exit %d, %v\n%s", code, err, out)
	}
	code, out, errs = runCmd(append([]string{"decide"}, append(files, "-n", "2", "--criterion", "all")...)...)
	if code != exitRobust || !regexp.MustCompile(`mp-quiet.c +2 +ROBUST `).MatchString(out) || !regexp.MustCompile(`mp-quiet.c +2 +RACE `).MatchString(out) ||
		!regexp.MustCompile(`mp-signal.c +2 +RACE-FREE `).MatchString(out) {
		t.Errorf("all: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd(append([]string{"decide"}, append(files, "-n", "2", "--criterion", "races")...)...)
	if code != exitUsage || !strings.Contains(errs, "robustness, race or all") {
		t.Errorf("bad criterion: exit %d\n%s%s", code, out, errs)
	}
}
