package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocSamples runs the command of every text sample in docs/cli.md and
// compares the output with the sample, statistics masked (issue 8: the
// samples had drifted from the tool). A sample is the code block after
// the line given here.
func TestDocSamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	samples := []struct {
		after string // the text before the block
		args  []string
	}{
		{"ROBUST is one line per N with statistics:", []string{"decide", "examples/1to1-fixed.pgas", "-n", "2"}},
		{"NOT ROBUST prints the witness:", []string{"decide", "examples/1to1.pgas", "-n", "2"}},
		{"UNKNOWN says which budget ran out and what was explored:", []string{"decide", "examples/1to1-fixed.pgas", "-n", "3", "--max-states", "100"}},
		{"feasible.\n", []string{"cycles", "examples/1to1.pgas", "-n", "2"}},
	}
	for _, s := range samples {
		i := strings.Index(string(doc), s.after)
		if i < 0 {
			t.Errorf("docs/cli.md: no %q", s.after)
			continue
		}
		rest := string(doc[i+len(s.after):])
		a := strings.Index(rest, "```\n")
		b := strings.Index(rest[a+4:], "```")
		if a < 0 || b < 0 {
			t.Errorf("docs/cli.md: no code block after %q", s.after)
			continue
		}
		want := rest[a+4 : a+4+b]
		// The samples use paths from the repository root.
		args := append([]string(nil), s.args...)
		args[1] = "../../" + args[1]
		_, got, _ := runCmd(args...)
		got = strings.ReplaceAll(got, "../../examples/", "examples/")
		if maskStats(got) != maskStats(want) {
			t.Errorf("pgasrob %s: the sample in docs/cli.md differs from the output:\n--- doc\n%s--- tool\n%s", strings.Join(s.args, " "), want, got)
		}
	}
}

var (
	number     = regexp.MustCompile(`[0-9][0-9.]*(k|M|µs|ms|s)?`)
	settled    = regexp.MustCompile(`; cycle types .*$`)
	timeColumn = regexp.MustCompile(`\s+[0-9.]+(µs|ms|s)\s*$`)
)

// maskStats hides what varies between runs: the numbers of statistics
// lines (times, rates), how far other workers got before a stop, and
// per-type times.
func maskStats(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, " states, ") {
			l = settled.ReplaceAllString(number.ReplaceAllString(l, "#"), "")
		}
		lines = append(lines, timeColumn.ReplaceAllString(l, " TIME"))
	}
	return strings.Join(lines, "\n")
}
