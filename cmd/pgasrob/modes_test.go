package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// commandModes pairs each mode table with a fresh flag set of its command.
func commandModes() map[string]struct {
	t  modeTable
	fs func() *pflag.FlagSet
} {
	return map[string]struct {
		t  modeTable
		fs func() *pflag.FlagSet
	}{
		"tso":      {tsoModes, func() *pflag.FlagSet { return newTSOCmd(io.Discard).fs }},
		"decide":   {decideModes, func() *pflag.FlagSet { return newDecideCmd(io.Discard).fs }},
		"cycles":   {cyclesModes, func() *pflag.FlagSet { return newCyclesCmd(io.Discard).fs }},
		"repair":   {repairModes, func() *pflag.FlagSet { return newRepairCmd(io.Discard).fs }},
		"difftest": {difftestModes, func() *pflag.FlagSet { return newDifftestCmd(io.Discard).fs }},
	}
}

// TestModeTables checks the tables against the flag sets: every name is a
// flag of the command, the default mode comes last, a mode reads its own
// selector and never both uses and ignores a flag, and every flag the
// default mode does not take has a rule that explains its refusal (it
// needs another flag, selects another mode, or has a hint), so that no
// message refuses a flag without saying what it goes with.
func TestModeTables(t *testing.T) {
	for name, c := range commandModes() {
		fs := c.fs()
		known := func(what, flag string) {
			if fs.Lookup(flag) == nil {
				t.Errorf("%s: %s names %q, not a flag of the command", name, what, flag)
			}
		}
		if c.t.cmd != name {
			t.Errorf("%s: the table says %q", name, c.t.cmd)
		}
		for f, need := range c.t.needs {
			known("needs", f)
			known("needs", need)
		}
		for _, f := range c.t.choices {
			known("choices", f)
		}
		selectors := map[string]bool{}
		keys := map[string]bool{}
		for i, m := range c.t.modes {
			if keys[m.key] {
				t.Errorf("%s: mode %q twice", name, m.key)
			}
			keys[m.key] = true
			if (m.when == "") != (i == len(c.t.modes)-1) {
				t.Errorf("%s: mode %q: only the last mode, and it always, has no selector", name, m.key)
			}
			for _, f := range m.uses {
				known(m.key+" uses", f)
				if slices.Contains(m.ignores, f) {
					t.Errorf("%s: mode %q both uses and ignores --%s", name, m.key, f)
				}
			}
			for _, f := range m.ignores {
				known(m.key+" ignores", f)
			}
			for f := range m.hints {
				known(m.key+" hints", f)
			}
			if sel, _, _ := strings.Cut(m.when, "="); sel != "" {
				known(m.key+" selector", sel)
				selectors[sel] = true
				if !slices.Contains(m.uses, sel) {
					t.Errorf("%s: mode %q does not use its selector --%s", name, m.key, sel)
				}
			}
		}
		def := c.t.modes[len(c.t.modes)-1]
		fs.VisitAll(func(f *pflag.Flag) {
			_, needs := c.t.needs[f.Name]
			if !slices.Contains(def.uses, f.Name) && !slices.Contains(def.ignores, f.Name) && !needs && !selectors[f.Name] && def.hints[f.Name] == "" {
				t.Errorf("%s: the default mode refuses --%s with no rule to say why", name, f.Name)
			}
		})
	}
}

// TestModeResolution: the mode each command line selects, or the usage
// error that refuses it.
func TestModeResolution(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		args []string
		mode string // or the error's text
	}{
		{"tso", []string{"f"}, "check"},
		{"tso", []string{"f", "--model", "PSO", "--all", "--dot", "x"}, "check"},
		{"tso", []string{"f", "--criterion", "persistence"}, "check"},
		{"tso", []string{"f", "--fences", "--cost", "c", "--write", "w"}, "fences"},
		{"tso", []string{"f", "--cost", "c"}, "--cost goes with --fences"},
		{"tso", []string{"f", "--write", "w"}, "--write goes with --fences"},
		{"tso", []string{"f", "--instances", "2"}, "--instances goes with --parameterized"},
		{"tso", []string{"f", "--cost", "uniform", "--model", "tso", "--criterion", "Robustness"}, "check"}, // defaults count as left out
		{"tso", []string{"f", "--shard", "1/2", "--all"}, "shard"},
		{"tso", []string{"f", "--shard", "1/2", "--fences"}, "--fences does not go with --shard"},
		{"tso", []string{"f", "--shard", "1/2", "--dot", "x"}, "--dot does not go with --shard (give --dot to pgasrob merge)"},
		{"tso", []string{"f", "--shard", "1/2", "--criterion", "trf"}, "--criterion trf does not go with --shard"},
		{"tso", []string{"f", "--parameterized", "--instances", "0", "--model", "tso"}, "param"},
		{"tso", []string{"f", "--parameterized", "--model", "pso"}, "--model pso does not go with --parameterized"},
		{"tso", []string{"f", "--parameterized", "--shard", "1/2"}, "--shard does not go with --parameterized"},
		{"tso", []string{"f", "--parameterized", "--flatten"}, "--flatten does not go with --parameterized"},
		{"tso", []string{"f", "--flatten", "--criterion", "persistence", "--all"}, "flatten"},
		{"tso", []string{"f", "--flatten", "--fences"}, "--fences does not go with --flatten"},
		{"tso", []string{"f", "--criterion", "all", "--fences", "--model", "pso"}, "table"},
		{"tso", []string{"f", "--criterion", "all", "--all"}, "--all does not go with --criterion all"},
		{"tso", []string{"f", "--criterion", "all", "--fences", "--cost", "c"}, "--cost does not go with --criterion all"},
		{"decide", []string{"f", "--all", "--dot", "x", "--procedure", "oracle"}, "exact"},
		{"decide", []string{"f", "--shard", "1/2", "--shard-costs", "c", "--procedure", "oracle"}, "shard"},
		{"decide", []string{"f", "--shard-costs", "c"}, "--shard-costs goes with --shard"},
		{"decide", []string{"f", "--shard", "1/2", "--dot", "x"}, "--dot does not go with --shard (the graph is of the merged result: give --dot to pgasrob merge)"},
		{"decide", []string{"f", "--via", "instrumentation", "--procedure", "oracle"}, "via"},
		{"decide", []string{"f", "--via", "instrumentation", "--all"}, "--all does not go with --via instrumentation"},
		{"decide", []string{"f", "--via", "nonsense"}, "exact"}, // refused by its value, later
		{"cycles", []string{"f", "--yardsticks", "--type", "1 2"}, "all"},
		{"cycles", []string{"f", "--shard", "1/2", "--yardsticks"}, "--yardsticks does not go with --shard (it measures one whole run)"},
		{"repair", []string{"f", "--shard", "1/2"}, "--shard does not go with repair (it decides many programs in turn: there are no parts to shard)"},
		{"difftest", []string{"--workers", "2", "--exploration", "per-type"}, "pgas"},
		{"difftest", []string{"--criterion", "all"}, "--criterion all goes with --tso"},
		{"difftest", []string{"--tso", "--criterion", "all", "--ranks", "3"}, "tso"},
		{"difftest", []string{"--instrumentation", "--no-symmetry"}, "instrumentation"},
		{"difftest", []string{"--instrumentation", "--tso"}, "--tso does not go with --instrumentation"},
		{"difftest", []string{"--shmem=false", "--loops"}, "pgas"},
		{"difftest", []string{"--instrumentation", "--shmem"}, "instrumentation"},
		{"difftest", []string{"--tso", "--shmem=false"}, "--shmem does not go with --tso"},
	} {
		c := commandModes()[tc.cmd]
		fs := c.fs()
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%s %v: %v", tc.cmd, tc.args, err)
		}
		m, err := c.t.resolve(fs)
		got := m.key
		if err != nil {
			got = err.Error()
		}
		if got != tc.mode {
			t.Errorf("%s %v: %q, want %q", tc.cmd, tc.args, got, tc.mode)
		}
	}
}
