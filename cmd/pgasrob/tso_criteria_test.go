package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const corpusTrencher = "../../../shared/corpus/trencher"

// TestCriteriaTable runs "tso --criterion all --fences" on the corpus in
// place and checks the table against independent evidence:
//   - robustness: the reference tool's verdicts and fence counts (the
//     corpus's EXPECTED);
//   - trf: the reference tool's -trf/-ftrf results with our documented
//     deviations (tso/testdata/trf/EXPECTED, columns "ours");
//   - relations that hold by definition: a triangular-race-free program is
//     robust and persistent (Owens: TRF programs have only SC behaviours,
//     so every TSO run has the trace and the happens-before of an SC run);
//   - every fence count is certified (a cell without a certified set would
//     say "fences unknown"), and every violation's witness replayed (exit
//     code 4 otherwise);
//
// and the table printed in docs/criteria.md is the command's output, so
// the document cannot drift from the tool.
func TestCriteriaTable(t *testing.T) {
	if _, err := os.Stat(corpusTrencher); err != nil {
		t.Skip("../shared/corpus/trencher not found beside the repository")
	}
	code, out, errs := runCmd("tso", "--criterion", "all", "--fences", "--json", corpusTrencher)
	if code != exitRobust {
		t.Fatalf("exit %d\n%s\n%s", code, errs, out)
	}
	var tab tsoCriteriaJSON
	if err := json.Unmarshal([]byte(out), &tab); err != nil {
		t.Fatal(err)
	}
	robust := readColumns(t, filepath.Join(corpusTrencher, "EXPECTED"), 0, 1, 2)
	trf := readColumns(t, "../../tso/testdata/trf/EXPECTED", 0, 3, 4)
	if len(tab.Rows) != 24 || len(robust) != 24 || len(trf) != 24 {
		t.Fatalf("%d rows, %d robustness and %d trf expectations, want 24 each", len(tab.Rows), len(robust), len(trf))
	}
	for _, r := range tab.Rows {
		name := filepath.Base(r.File)
		cells := map[string]tsoCriteriaCell{}
		for _, c := range r.Cells {
			if c.Fences == nil {
				t.Errorf("%s %s: no certified fence count (%s)", name, c.Criterion, c.FenceNote)
				continue
			}
			cells[c.Criterion] = c
		}
		want := robust[name]
		if got := cells["robustness"]; got.Verdict != map[string]string{"robust": "robust", "non-robust": "not robust"}[want[0]] || strconv.Itoa(*got.Fences) != want[1] {
			t.Errorf("%s robustness: %s (%d fences), reference %v", name, got.Verdict, *got.Fences, want)
		}
		want = trf[name]
		if got := cells["trf"]; got.Verdict != map[string]string{"free": "triangular-race free", "race": "triangular race"}[want[0]] || strconv.Itoa(*got.Fences) != want[1] {
			t.Errorf("%s trf: %s (%d fences), expected %v", name, got.Verdict, *got.Fences, want)
		}
		if cells["trf"].Verdict == "triangular-race free" && (cells["robustness"].Verdict != "robust" || cells["persistence"].Verdict != "persistent") {
			t.Errorf("%s: triangular-race free but %s and %s", name, cells["robustness"].Verdict, cells["persistence"].Verdict)
		}
	}
	doc, err := os.ReadFile("../../docs/criteria.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(doc), "<!-- table: pgasrob tso --criterion all --fences ../shared/corpus/trencher -->\n")
	printed, _, ok2 := strings.Cut(rest, "<!-- end of table -->")
	if !ok1 || !ok2 {
		t.Fatal("docs/criteria.md has no generated table")
	}
	if text := criteriaTable(tab, true); strings.TrimSpace(printed) != strings.TrimSpace(text) {
		t.Errorf("docs/criteria.md's table is stale; the command prints:\n%s", text)
	}
}

// readColumns reads a whitespace-separated table (comments start with #)
// into file -> the two given columns.
func readColumns(t *testing.T, file string, key, a, b int) map[string][2]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]string{}
	for _, line := range strings.Split(string(data), "\n") {
		fs := strings.Fields(line)
		if len(fs) <= max(a, b) || strings.HasPrefix(fs[0], "#") {
			continue
		}
		out[fs[key]] = [2]string{fs[a], fs[b]}
	}
	return out
}

// TestCriterionRefusals: combinations that make no sense are usage errors
// (exit 2) with a message, not an UNKNOWN verdict.
func TestCriterionRefusals(t *testing.T) {
	f := "../../examples/tso/announce.txt"
	for _, args := range [][]string{
		{"tso", f, "--criterion", "persistence", "--model", "pso"},
		{"tso", f, "--criterion", "trf", "--model", "pso"},
		{"tso", f, "--criterion", "trf", "--parameterized"},
		{"tso", f, "--criterion", "persistence", "--shard", "1/2"},
		{"tso", f, "--criterion", "bogus"},
		{"tso", f, "--criterion", "all", "--dot", "x.dot"},
		{"tso", "--criterion", "all", "/nonexistent/dir"},
		{"difftest", "--criterion", "trf"},
	} {
		code, out, errs := runCmd(args...)
		if code != exitUsage || errs == "" {
			t.Errorf("%v: exit %d, want 2 with a message\n%s%s", args, code, out, errs)
		}
	}
}
