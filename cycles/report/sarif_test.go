package report

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
)

// sarifFiles decides the examples the SARIF tests share: a violation in
// C and in .pgas, a run-time error, a robust program and an input error.
func sarifFiles(t *testing.T) []File {
	t.Helper()
	var files []File
	for _, f := range []string{"shmem/flag-put.c", "mp-unsync.pgas", "../cycles/report/testdata/value-out-of-range.pgas", "shmem/mp-quiet.c"} {
		p, o := decided(t, f, 2)
		files = append(files, File{Path: f, Prog: p, Outcomes: []Outcome{o}})
	}
	files = append(files, File{Path: "broken.c", Errors: []ErrorJSON{{File: "broken.c", Line: 3, Col: 7, Msg: "undeclared x"}}})
	return files
}

// sarifLog is the part of SARIF 2.1.0 the tests read, decoded without
// the library that wrote it.
type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations []json.RawMessage `json:"relatedLocations"`
			CodeFlows        []struct {
				ThreadFlows []struct {
					ID        string `json:"id"`
					Locations []struct {
						ExecutionOrder int    `json:"executionOrder"`
						Importance     string `json:"importance"`
					} `json:"locations"`
				} `json:"threadFlows"`
			} `json:"codeFlows"`
			Fixes []struct {
				ArtifactChanges []struct {
					Replacements []struct {
						DeletedRegion struct {
							StartLine int `json:"startLine"`
							EndLine   int `json:"endLine"`
						} `json:"deletedRegion"`
						InsertedContent *struct {
							Text string `json:"text"`
						} `json:"insertedContent"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

func decodeSARIF(t *testing.T, files []File) (sarifLog, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSARIF(&b, files, "0.1.0"); err != nil {
		t.Fatal(err)
	}
	var l sarifLog
	if err := json.Unmarshal(b.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	return l, b.Bytes()
}

// The log has one result per violation with its rule, one threadFlow per
// PE that has events (in program order), and the cycle's steps as
// related locations; it passes the SARIF 2.1.0 schema the library embeds.
func TestSARIFResults(t *testing.T) {
	files := sarifFiles(t)
	if err := SARIF(files, "0.1.0").Validate(); err != nil {
		t.Fatalf("schema: %v", err)
	}
	l, _ := decodeSARIF(t, files)
	if l.Version != "2.1.0" || len(l.Runs) != 1 {
		t.Fatalf("version %q, %d runs", l.Version, len(l.Runs))
	}
	run := l.Runs[0]
	var got []string
	for _, r := range run.Results {
		got = append(got, r.RuleID)
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s: ruleIndex %d names %s", r.RuleID, r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID)
		}
	}
	// mp-quiet.c is robust: no result.
	if want := []string{RuleNotRobust, RuleNotRobust, RuleRunError, RuleInput}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("rules %v, want %v", got, want)
	}
	fp := run.Results[0]
	w := files[0].Outcomes[0].Res.Witness
	if len(fp.RelatedLocations) != len(w.HB) {
		t.Errorf("%d related locations for a cycle of %d steps", len(fp.RelatedLocations), len(w.HB))
	}
	if fp.Locations[0].PhysicalLocation.Region.StartLine != 22 || fp.Locations[0].PhysicalLocation.ArtifactLocation.URI != "shmem/flag-put.c" {
		t.Errorf("flag-put.c's violation at %+v, want line 22 (the put of PE 0 delayed past its load)", fp.Locations[0])
	}
	tfs := fp.CodeFlows[0].ThreadFlows
	if len(tfs) != 2 || tfs[0].ID != "PE 0" || tfs[1].ID != "PE 1" {
		t.Fatalf("threadFlows %+v, want PE 0 and PE 1", tfs)
	}
	events, essential := 0, 0
	for _, tf := range tfs {
		for i, loc := range tf.Locations {
			events++
			if loc.Importance == "essential" {
				essential++
			}
			if i > 0 && loc.ExecutionOrder <= tf.Locations[i-1].ExecutionOrder {
				t.Errorf("%s: locations out of program order", tf.ID)
			}
		}
	}
	if events != len(w.Computation) {
		t.Errorf("%d thread flow locations for %d events", events, len(w.Computation))
	}
	if essential != 6 {
		t.Errorf("%d essential locations, want the 6 events of the cycle", essential)
	}
}

// A repair becomes a fix whose replacements, applied to the source, give
// the repaired program.
func TestSARIFFix(t *testing.T) {
	path := "../../examples/mp-unsync.pgas"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := repair.Repair("mp-unsync.pgas", src, []int{2}, repair.Options{Decide: cycles.Options{Jobs: 1}, Costs: repair.DefaultCosts()})
	if err != nil || res.Verdict != repair.Repaired {
		t.Fatalf("repair: %v %v", res, err)
	}
	p, o := decided(t, "mp-unsync.pgas", 2)
	l, _ := decodeSARIF(t, []File{{Path: "mp-unsync.pgas", Prog: p, Src: src, Outcomes: []Outcome{o}, Fix: res}})
	fixes := l.Runs[0].Results[0].Fixes
	if len(fixes) != 1 {
		t.Fatalf("%d fixes, want 1", len(fixes))
	}
	lines := splitKeep(src)
	var out []string
	next := 1
	for _, r := range fixes[0].ArtifactChanges[0].Replacements {
		out = append(out, lines[next-1:r.DeletedRegion.StartLine-1]...)
		if r.InsertedContent != nil {
			out = append(out, r.InsertedContent.Text)
		}
		next = r.DeletedRegion.EndLine
	}
	out = append(out, lines[next-1:]...)
	if got := strings.Join(out, ""); got != string(res.Source) {
		t.Errorf("the fix applied gives\n%s\nthe repair is\n%s", got, res.Source)
	}
}

// The reference validator (@microsoft/sarif-multitool, installed by
// scripts/sarif-validator.sh) finds no error in the log.
func TestSARIFReferenceValidator(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the reference validator takes seconds to install")
	}
	if why := os.Getenv("PGASROB_SARIF_VALIDATOR_SKIP"); why != "" {
		t.Skipf("no reference SARIF validator: %s", why)
	}
	out, err := exec.Command("bash", "../../scripts/sarif-validator.sh").Output()
	if err != nil {
		reason := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			reason = strings.TrimSpace(string(ee.Stderr))
		}
		t.Skipf("no reference SARIF validator: %s", reason)
	}
	tool := strings.TrimSpace(string(out))
	dir := t.TempDir()
	validate := func(name string, log []byte) string {
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, log, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(tool, "validate", in, "-o", in+".validation", "--log", "ForceOverwrite")
		res, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s validate: %v\n%s", tool, err, res)
		}
		if !strings.Contains(string(res), "Analysis completed successfully") {
			t.Fatalf("validator did not complete:\n%s", res)
		}
		return string(res)
	}
	// The validator must see a broken log as one (it reports nothing for
	// a log it cannot read at all, so prove it reads and judges here).
	if res := validate("broken.sarif", []byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`)); !strings.Contains(res, ": error ") {
		t.Fatalf("the validator finds no error in a log without tool.driver.name:\n%s", res)
	}
	_, log := decodeSARIF(t, append(sarifFiles(t), raceFile(t), repairFile(t)))
	for _, l := range strings.Split(validate("pgasrob.sarif", log), "\n") {
		if strings.Contains(l, ": error ") {
			t.Errorf("validator: %s", l)
		}
	}
}
