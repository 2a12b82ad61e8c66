package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestCyclesCommand(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		// Hand analysis of 1to1 (examples/1to1.pgas) for N = 2: the cycle
		// needs the popb of one rank's write and the load of the other
		// rank, so it passes through both ranks: (1 2) is feasible. A
		// cycle inside rank 1 alone would need a conflict between rank 1's
		// events, but its popb writes (2,y) and its load reads (1,y): (1)
		// is infeasible, and so is (2) by the same argument.
		{"1to1", []string{oneToOne, "-n", "2"}, exitNotRobust,
			[]string{"N = 2: NOT ROBUST (1 of 3 cycle types feasible, 2 infeasible, 0 unknown)", "(1)            infeasible", "(1 2)          feasible", "total:"}, ""},
		// For N = 1 the write goes to the writer itself: (1) is feasible.
		{"1to1 N=1", []string{oneToOne, "-n", "1"}, exitNotRobust, []string{"(1)            feasible"}, ""},
		{"1to1-fixed", []string{oneToOneFixed, "-n", "1..2"}, exitRobust,
			[]string{"N = 1: ROBUST (0 of 1", "N = 2: ROBUST (0 of 3 cycle types feasible, 3 infeasible"}, ""},
		{"no symmetry", []string{oneToOneFixed, "-n", "2", "--no-symmetry"}, exitRobust, []string{"(2)            infeasible"}, ""},
		{"only one type", []string{oneToOne, "-n", "2", "--type", "(2 1)"}, exitNotRobust, []string{"1 of 1 cycle types feasible", "(1 2)          feasible"}, ""},
		{"only infeasible types", []string{oneToOne, "-n", "2", "--type", "1", "--type", "2"}, exitRobust,
			[]string{"NO VIOLATION OF THESE TYPES (0 of 2"}, ""},
		{"bad type", []string{oneToOne, "-n", "2", "--type", "3"}, exitUsage, nil, "pgasrob cycles: --type: N = 2:"},
		{"budget", []string{oneToOne, "-n", "2", "--max-states", "10"}, exitUnknown, []string{"UNKNOWN", "stopped before any cycle type"}, ""},
		{"no -n", []string{oneToOne}, exitUsage, nil, "pgasrob cycles: missing -n"},
		{"unknown flag", []string{"-x"}, exitUsage, nil, "pgasrob cycles: unknown shorthand flag: 'x'"},
		{"help", []string{"-h"}, exitRobust, nil, "usage: pgasrob cycles FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCmd(append([]string{"cycles"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errs)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			if !strings.Contains(errs, tt.stderr) || (tt.stderr == "" && errs != "") {
				t.Errorf("stderr %q, want %q", errs, tt.stderr)
			}
		})
	}
}

func TestCyclesJSON(t *testing.T) {
	code, out, errs := runCmd("cycles", "--json", oneToOne, "-n", "1..2")
	if code != exitNotRobust {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var v cyclesJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("bad JSON %v:\n%s", err, out)
	}
	if v.Schema != cyclesSchema || v.Verdict != "not robust" || v.ExitCode != exitNotRobust || v.Restricted || len(v.Results) != 2 {
		t.Fatalf("top level: %+v", v)
	}
	// The same hand analysis as TestCyclesCommand.
	want := map[int]map[string]string{
		1: {"[1]": "feasible"},
		2: {"[1]": "infeasible", "[2]": "infeasible", "[1 2]": "feasible"},
	}
	for _, r := range v.Results {
		got := map[string]string{}
		for _, ty := range r.Types {
			got[fmt.Sprint(ty.CycleType)] = ty.Verdict
			if ty.SymmetricTo == nil && ty.Stats.States == 0 {
				t.Errorf("N = %d, %v: searched without states", r.N, ty.CycleType)
			}
		}
		if len(got) != len(want[r.N]) {
			t.Errorf("N = %d: types %v, want %v", r.N, got, want[r.N])
		}
		for k, w := range want[r.N] {
			if got[k] != w {
				t.Errorf("N = %d, type %s: %q, want %q", r.N, k, got[k], w)
			}
		}
		if r.CycleTypes.Total != len(want[r.N]) || r.CycleTypes.Feasible != 1 || r.CycleTypes.Skipped != 0 {
			t.Errorf("N = %d: counts %+v", r.N, r.CycleTypes)
		}
	}
}

// A fuzzed --type gives cycle types of distinct ranks in 1..N, each
// listed once in canonical rotation, or an error; never a panic. The
// target is typesFor, what the command runs on --type, not the whole
// command, whose search made each execution cost a millisecond or more.
// The command's handling of a bad --type is in TestCyclesCommand.
//
// Issue 8, row 10: the runs that seem to stall (no executions counted
// for many seconds) are the fuzzing engine minimising each new
// interesting input, for up to -fuzzminimizetime (60s by default); its
// executions are not counted. That happens with this microsecond target
// too. Bound it when fuzzing:
//
//	go test ./cmd/pgasrob -run '^$' -fuzz '^FuzzCyclesType$' -fuzzminimizetime 2s
func FuzzCyclesType(f *testing.F) {
	for _, s := range []string{"1 2", "(2,1)", "()", "1 1", "3", "0", "-1", "1,,2", "( 2 )", "1 2 3", "x"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 1 || n > maxDecideRanks {
			return
		}
		types, err := typesFor([]string{s, s}, n)
		if err != nil {
			return
		}
		if len(types) != 1 {
			t.Fatalf("--type %q twice: %d types", s, len(types))
		}
		c := types[0]
		seen := map[int]bool{}
		for _, r := range c {
			if r < 1 || r > n || seen[r] {
				t.Fatalf("--type %q, N = %d: %v is not a cycle type", s, n, c)
			}
			seen[r] = true
		}
		for _, r := range c[1:] {
			if r < c[0] {
				t.Fatalf("--type %q: %v does not start at its smallest rank", s, c)
			}
		}
	})
}

// --yardsticks measures one whole run: sharded, it would measure a part.
func TestYardsticksNotSharded(t *testing.T) {
	if code, out, errs := runCmd("cycles", oneToOne, "-n", "2", "--yardsticks", "--shard", "1/2"); code != exitUsage || !strings.Contains(errs, "does not go with --shard") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	code, out, _ := runCmd("cycles", oneToOneFixed, "-n", "3", "--yardsticks")
	if code != exitRobust || !strings.Contains(out, "yardsticks: 3257 product states") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}
