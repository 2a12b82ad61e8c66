package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSlurmJobArray submits sharded runs to a real Slurm through
// scripts/slurm/submit.sh (the script docs/cluster.md shows): a job array
// of shards and a merge job that waits for them (afterok). The merged
// verdicts must be the unsharded ones. Opt-in: it runs when PGASROB_SLURM=1,
// which .ci/run sets after scripts/slurm-local.sh has started a local
// Slurm; otherwise it is skipped with the reason.
func TestSlurmJobArray(t *testing.T) {
	if os.Getenv("PGASROB_SLURM") != "1" {
		reason := os.Getenv("PGASROB_SLURM_SKIP")
		if reason == "" {
			reason = "opt-in: run scripts/slurm-local.sh, then PGASROB_SLURM=1 go test ./cmd/pgasrob -run Slurm (docs/cluster.md)"
		}
		t.Skip(reason)
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Fatalf("PGASROB_SLURM=1 but no sbatch: %v", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "pgasrob")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	runs := []struct {
		name string
		k    int
		args []string
	}{
		// Robust for N = 3 and 4: every shard must be there for ROBUST.
		{"ring", 3, []string{"decide", abs(oneToOneFixed), "-n", "3..4"}},
		// Not robust: the merged witness is certified again.
		{"mp-put", 4, []string{"decide", abs("../../examples/mp-put.pgas"), "-n", "3"}},
		{"sb", 2, []string{"tso", abs("../../examples/tso/sb.txt")}},
	}
	start := time.Now()
	for _, r := range runs {
		args := append([]string{"../../scripts/slurm/submit.sh", strconv.Itoa(r.k), filepath.Join(tmp, r.name), bin}, r.args...)
		out, err := exec.Command("bash", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("submit %s: %v\n%s", r.name, err, out)
		}
		t.Logf("%s: jobs %s", r.name, strings.TrimSpace(string(out)))
	}
	for _, r := range runs {
		dir := filepath.Join(tmp, r.name)
		exitFile := filepath.Join(dir, "merged.exit")
		for {
			if b, err := os.ReadFile(exitFile); err == nil && len(b) > 0 {
				break
			}
			if time.Since(start) > 3*time.Minute {
				q, _ := exec.Command("squeue").CombinedOutput()
				t.Fatalf("%s: no merged result after 3 minutes\n%s", r.name, q)
			}
			time.Sleep(200 * time.Millisecond)
		}
		b, _ := os.ReadFile(exitFile)
		merged, _ := os.ReadFile(filepath.Join(dir, "merged.json"))
		wholeArgs := append(append([]string{}, r.args...), "--json")
		if r.args[0] == "decide" {
			wholeArgs = append(wholeArgs, "--procedure", "automata") // what shards split
		}
		code, whole, _ := runCmd(wholeArgs...)
		if strings.TrimSpace(string(b)) != strconv.Itoa(code) {
			t.Errorf("%s: merged exit %s, unsharded %d\n%s", r.name, b, code, merged)
		}
		switch r.args[0] {
		case "decide":
			var m, w decideJSON
			mustJSON(t, r.name, string(merged), &m)
			mustJSON(t, r.name, whole, &w)
			sameDecide(t, r.name, m, w)
		case "tso":
			var m, w map[string]any
			mustJSON(t, r.name, string(merged), &m)
			mustJSON(t, r.name, whole, &w)
			mw, _ := json.Marshal(m["witness"])
			ww, _ := json.Marshal(w["witness"])
			if m["verdict"] != w["verdict"] || string(mw) != string(ww) {
				t.Errorf("%s: merged %v, unsharded %v", r.name, m["verdict"], w["verdict"])
			}
		}
	}
	t.Logf("%d Slurm runs submitted, run and merged in %v", len(runs), time.Since(start).Round(time.Millisecond))
}
