package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas/gen"
	tsogen "github.com/pgasrob/pgasrob/tso/gen"
)

// runShards runs the command once per shard of K, writes each shard file
// and returns their paths; every shard must exit 0.
func runShards(t *testing.T, k int, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i := 1; i <= k; i++ {
		code, out, errs := runCmd(append(args, "--shard", fmt.Sprintf("%d/%d", i, k))...)
		if code != 0 {
			t.Fatalf("%v shard %d/%d: exit %d\n%s%s", args, i, k, code, out, errs)
		}
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// sameDecide compares what the merged and the unsharded decide output
// must share: verdicts, exit codes, witnesses edge by edge, run-time
// errors, and for robust results the cycle type counts. Statistics differ:
// shards search past another shard's first violation.
func sameDecide(t *testing.T, what string, merged, whole decideJSON) {
	t.Helper()
	if merged.Verdict != whole.Verdict || merged.ExitCode != whole.ExitCode || len(merged.Results) != len(whole.Results) || merged.File != whole.File || merged.NArg != whole.NArg {
		t.Fatalf("%s: merged %s (exit %d, %d results), unsharded %s (exit %d, %d results)", what,
			merged.Verdict, merged.ExitCode, len(merged.Results), whole.Verdict, whole.ExitCode, len(whole.Results))
	}
	for i, m := range merged.Results {
		w := whole.Results[i]
		if m.N != w.N || m.Verdict != w.Verdict || m.ExitCode != w.ExitCode {
			t.Fatalf("%s N = %d: merged %s, unsharded %s", what, w.N, m.Verdict, w.Verdict)
		}
		if !reflect.DeepEqual(m.Witness, w.Witness) || !reflect.DeepEqual(m.RuntimeError, w.RuntimeError) {
			mj, _ := json.Marshal(m.Witness)
			wj, _ := json.Marshal(w.Witness)
			t.Fatalf("%s N = %d: witnesses differ\nmerged   %s\nunsharded %s", what, w.N, mj, wj)
		}
		if w.Verdict == "robust" && m.CycleTypes != w.CycleTypes {
			t.Fatalf("%s N = %d: cycle types %+v, unsharded %+v", what, w.N, m.CycleTypes, w.CycleTypes)
		}
	}
}

// sameCycles compares cycles outputs type by type (every type is searched
// there, so outcomes must match one for one).
func sameCycles(t *testing.T, what string, merged, whole cyclesJSON) {
	t.Helper()
	if merged.Verdict != whole.Verdict || merged.ExitCode != whole.ExitCode || len(merged.Results) != len(whole.Results) {
		t.Fatalf("%s: merged %s (exit %d), unsharded %s (exit %d)", what, merged.Verdict, merged.ExitCode, whole.Verdict, whole.ExitCode)
	}
	for i, m := range merged.Results {
		w := whole.Results[i]
		if m.Verdict != w.Verdict || len(m.Types) != len(w.Types) || m.CycleTypes != w.CycleTypes {
			t.Fatalf("%s N = %d: merged %s %+v, unsharded %s %+v", what, w.N, m.Verdict, m.CycleTypes, w.Verdict, w.CycleTypes)
		}
		for k := range m.Types {
			a, b := m.Types[k], w.Types[k]
			if !reflect.DeepEqual(a.CycleType, b.CycleType) || a.Verdict != b.Verdict || !reflect.DeepEqual(a.SymmetricTo, b.SymmetricTo) {
				t.Fatalf("%s N = %d: type %v merged %s, unsharded %v %s", what, w.N, a.CycleType, a.Verdict, b.CycleType, b.Verdict)
			}
		}
	}
}

// checkMerge runs args unsharded and as K = 1..5 shards, merges each and
// compares.
func checkMerge(t *testing.T, cmd string, args ...string) {
	t.Helper()
	full := append([]string{cmd, "--json"}, args...)
	if cmd == "decide" {
		// Shards split the cycle-type search; the oracle of the default
		// portfolio is not split (docs/cluster.md).
		full = append(full, "--procedure", "automata")
	}
	_, wholeOut, _ := runCmd(full...)
	for k := 1; k <= 5; k++ {
		files := runShards(t, k, append([]string{cmd}, args...)...)
		_, mergedOut, errs := runCmd(append([]string{"merge", "--json"}, files...)...)
		what := fmt.Sprintf("%s %v K=%d", cmd, args, k)
		switch cmd {
		case "decide":
			var m, w decideJSON
			mustJSON(t, what, mergedOut+errs, &m)
			mustJSON(t, what, wholeOut, &w)
			sameDecide(t, what, m, w)
		case "cycles":
			var m, w cyclesJSON
			mustJSON(t, what, mergedOut+errs, &m)
			mustJSON(t, what, wholeOut, &w)
			sameCycles(t, what, m, w)
		}
	}
}

func mustJSON(t *testing.T, what, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%s: bad JSON: %v\n%s", what, err, s)
	}
}

// Merged shards equal the unsharded run on every example, for decide and
// cycles, K = 1..5, N = 2..3.
func TestMergeEqualsUnshardedExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.pgas")
	if len(files) < 10 {
		t.Fatalf("only %d examples found", len(files))
	}
	for _, f := range files {
		checkMerge(t, "decide", f, "-n", "2..3")
		checkMerge(t, "cycles", f, "-n", "2..3")
	}
	checkMerge(t, "decide", "../../examples/mp-put.pgas", "-n", "3", "--all", "--no-symmetry")
	checkMerge(t, "cycles", "../../examples/1to1.pgas", "-n", "3", "--type", "(1 2)", "--type", "(2 3 1)")
}

// ... and on random programs (the generator of difftest).
func TestMergeEqualsUnshardedRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	for i := 0; i < 12; i++ {
		gp := gen.Generate(r, gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4})
		f := writeFile(t, fmt.Sprintf("rand%d.pgas", i), gp.String())
		checkMerge(t, "decide", f, "-n", "2..3", "--max-states", "200000")
	}
}

// Merge refuses shards that are not the parts of one run, and says UNKNOWN
// naming a missing shard.
func TestMergeRefusesAndNamesMissing(t *testing.T) {
	a := runShards(t, 3, "decide", oneToOneFixed, "-n", "3")
	b := runShards(t, 3, "decide", oneToOneFixed, "-n", "3", "--max-states", "100000")
	c := runShards(t, 2, "decide", oneToOneFixed, "-n", "3")
	d := runShards(t, 3, "decide", oneToOne, "-n", "3")
	cases := []struct {
		files []string
		code  int
		want  string
	}{
		{[]string{a[0], b[1], a[2]}, exitUsage, "settings"},
		{[]string{a[0], c[1]}, exitUsage, "one of 2 shards"},
		{[]string{a[0], d[1], a[2]}, exitUsage, "input"},
		{[]string{a[0], a[0]}, exitUsage, "given twice"},
		{[]string{a[0], "../../examples/1to1.pgas"}, exitUsage, "not a shard file"},
		{[]string{a[0], a[2]}, exitUnknown, "shard 2/3 missing"},
		{a, exitRobust, "ROBUST"},
	}
	for _, tc := range cases {
		code, out, errs := runCmd(append([]string{"merge"}, tc.files...)...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("merge %v: exit %d, want %d with %q\n%s%s", tc.files, code, tc.code, tc.want, out, errs)
		}
	}
	// A witness is certified again: a shard file whose witness was
	// tampered with is an internal error, never a verdict.
	w := runShards(t, 2, "decide", oneToOne, "-n", "2")
	for _, f := range w {
		b, _ := os.ReadFile(f)
		var s shardJSON
		mustJSON(t, f, string(b), &s)
		for i := range s.Decide {
			for k := range s.Decide[i].Types {
				if wit := s.Decide[i].Types[k].Witness; len(wit) > 0 {
					s.Decide[i].Types[k].Witness = wit[:2]
				}
			}
		}
		out, _ := json.Marshal(s)
		os.WriteFile(f, out, 0o644)
	}
	if code, out, errs := runCmd(append([]string{"merge"}, w...)...); code != exitInternal {
		t.Errorf("merge of a tampered witness: exit %d, want %d\n%s%s", code, exitInternal, out, errs)
	}
}

func TestShardFlag(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	slurm := map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "8"}
	gappy := map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4", "SLURM_ARRAY_TASK_STEP": "2"}
	cases := []struct {
		spec string
		env  map[string]string
		want shard.Shard
		err  string
	}{
		{"", nil, shard.Shard{}, ""},
		{"2/5", nil, shard.Shard{Index: 2, Count: 5}, ""},
		{"0/5", nil, shard.Shard{}, "want I/K"},
		{"6/5", nil, shard.Shard{}, "want I/K"},
		{"x", nil, shard.Shard{}, "want I/K"},
		{"slurm", slurm, shard.Shard{Index: 3, Count: 4}, ""},
		{"slurm", nil, shard.Shard{}, "SLURM_ARRAY_TASK_ID is not set"},
		{"slurm", gappy, shard.Shard{}, "consecutive"},
	}
	for _, tc := range cases {
		spec := tc.spec
		s := &shardFlags{spec: &spec}
		got, err := s.parse(env(tc.env))
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("--shard %q: %v, %v; want %v, %q", tc.spec, got, err, tc.want, tc.err)
		}
	}
}

// checkMergeTSO runs tso unsharded and as K = 1..5 shards and compares the
// merged JSON: verdict, exit code, attack counts that do not depend on
// where the search stopped, and the witness event by event. With --all
// every count must agree.
func checkMergeTSO(t *testing.T, file string, extra ...string) {
	t.Helper()
	args := append([]string{"tso", file}, extra...)
	_, wholeOut, _ := runCmd(append(args, "--json")...)
	var whole tsoJSON
	mustJSON(t, file, wholeOut, &whole)
	all := slices.Contains(extra, "--all")
	for k := 1; k <= 5; k++ {
		files := runShards(t, k, args...)
		code, out, errs := runCmd(append([]string{"merge", "--json"}, files...)...)
		var m tsoJSON
		what := fmt.Sprintf("%v K=%d", args, k)
		mustJSON(t, what, out+errs, &m)
		if code != *whole.ExitCode || m.Verdict != whole.Verdict || m.Attacker != whole.Attacker || m.Model != whole.Model || m.File != whole.File {
			t.Fatalf("%s: merged %s (exit %d), unsharded %s (exit %d)", what, m.Verdict, code, whole.Verdict, *whole.ExitCode)
		}
		if m.Attacks.Generated != whole.Attacks.Generated || m.Attacks.RefutedSyntactically != whole.Attacks.RefutedSyntactically ||
			all && m.Attacks != whole.Attacks || whole.Verdict == "robust" && m.Attacks != whole.Attacks {
			t.Fatalf("%s: attacks %+v, unsharded %+v", what, m.Attacks, whole.Attacks)
		}
		if !reflect.DeepEqual(m.Witness, whole.Witness) {
			mj, _ := json.Marshal(m.Witness)
			wj, _ := json.Marshal(whole.Witness)
			t.Fatalf("%s: witnesses differ\nmerged    %s\nunsharded %s", what, mj, wj)
		}
	}
}

// Merged tso shards equal the unsharded check on the corpus, the examples
// and random programs, under TSO and PSO.
func TestMergeEqualsUnshardedTSO(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/trencher/*.txt")
	ex, _ := filepath.Glob("../../examples/tso/*.txt")
	if len(ex) < 5 {
		t.Fatalf("only %d tso examples", len(ex))
	}
	if len(files) == 0 {
		t.Log("../shared/corpus/trencher not found: corpus files not merged")
	}
	r := rand.New(rand.NewPCG(11, 23))
	for i := 0; i < 20; i++ {
		p := tsogen.Generate(r, tsogen.Config{Fences: r.IntN(2) == 0})
		files = append(files, writeFile(t, fmt.Sprintf("rand%d.txt", i), p))
	}
	for _, f := range append(files, ex...) {
		// Shards search attack by attack; so does the unsharded run
		// without the combined first search, whose attack may be
		// another feasible one.
		checkMergeTSO(t, f, "--max-states", "300000", "--combined-states", "-1")
		checkMergeTSO(t, f, "--model", "pso", "--all", "--max-states", "300000")
	}
}

// checkMergeDifftest compares merged difftest shards with the unsharded
// run: every count, the verdicts and the disagreements in order.
func checkMergeDifftest(t *testing.T, args ...string) {
	t.Helper()
	_, wholeOut, _ := runCmd(append(append([]string{"difftest"}, args...), "--json")...)
	var whole difftestJSON
	mustJSON(t, "difftest", wholeOut, &whole)
	for k := 1; k <= 5; k++ {
		files := runShards(t, k, append([]string{"difftest"}, args...)...)
		code, out, errs := runCmd(append([]string{"merge", "--json"}, files...)...)
		var m difftestJSON
		what := fmt.Sprintf("difftest %v K=%d", args, k)
		mustJSON(t, what, out+errs, &m)
		m.ElapsedMS, whole.ElapsedMS = 0, 0
		if code != whole.ExitCode || !reflect.DeepEqual(m, whole) {
			t.Fatalf("%s: exit %d\nmerged    %+v\nunsharded %+v", what, code, m, whole)
		}
	}
}

func TestMergeEqualsUnshardedDifftest(t *testing.T) {
	checkMergeDifftest(t, "--count", "40", "--seed", "77")
	checkMergeDifftest(t, "--tso", "--count", "25", "--seed", "78")
	checkMergeDifftest(t, "--dir", "../../examples")
	checkMergeDifftest(t, "--instrumentation", "--count", "40", "--seed", "79")
	// Disagreements (from a fake comparison, as in
	// TestDifftestDisagreement) come out in program order.
	defer func() { compare = cycles.Compare }()
	compare = barrierDisagrees
	checkMergeDifftest(t, "--count", "30")
}

// FuzzMergeShard: merge reads any bytes given as a shard file (damaged,
// hostile) without a panic: a verdict with exit 0..4, or an error.
func FuzzMergeShard(f *testing.F) {
	dir := f.TempDir()
	for _, args := range [][]string{
		{"decide", oneToOne, "-n", "2", "--shard", "1/1"},
		{"tso", "../../examples/tso/sb.txt", "--shard", "1/1"},
		{"difftest", "--count", "2", "--shard", "1/1"},
	} {
		_, out, _ := runCmd(args...)
		f.Add([]byte(out))
	}
	f.Add([]byte(`{"schema":"pgasrob/shard/v1","count":1,"index":1,"command":"decide","settings":["--n=2"],"decide":[{"n":2,"type_count":3,"types":[{"index":2,"cycle_type":[1,2],"outcome":"nonempty","witness":[[9,9]]}]}]}`))
	// A streamed part (N = 10), whole and with a cycle type that is not
	// one (a rank below 1).
	own := filepath.Join(dir, "own.pgas")
	if err := os.WriteFile(own, []byte("values 2\naddress x\nqueue q\n  write(x, rank, x, q)\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	_, out, _ := runCmd("decide", own, "-n", "10", "--shard", "1/1")
	f.Add([]byte(out))
	bad := strings.Replace(out, "\"cycle_type\": [\n            1\n", "\"cycle_type\": [\n            -3, 2\n", 1)
	if bad == out {
		f.Fatal("the streamed shard file has no cycle type (1) to damage")
	}
	f.Add([]byte(bad))
	f.Fuzz(func(t *testing.T, b []byte) {
		file := filepath.Join(dir, "s.json")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, _ := runCmd("merge", file)
		if code < 0 || code > 4 {
			t.Fatalf("exit %d", code)
		}
	})
}
