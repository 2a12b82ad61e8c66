package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocSamples runs every output sample of README.md and docs/*.md and
// compares the text with the tool's (issues 8 and 29: samples had drifted
// from the tool). A sample is a code block whose first line is
// "$ pgasrob ARGS"; each "$ pgasrob" line is a command, the lines up to
// the next one its output (standard output, then standard error). In the
// expected text a line "..." stands for any number of lines and "..."
// within a line for any text; times, rates, memory figures and state
// counts are masked on both sides (maskVolatile): they vary between runs.
//
// The commands run in a temporary directory where examples/ is the
// repository's and prog.pgas is docsProg, so that files they write stay
// there.
func TestDocSamples(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{"../../README.md"}, docs...)
	for i, d := range docs {
		if docs[i], err = filepath.Abs(d); err != nil {
			t.Fatal(err)
		}
	}
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(examples, filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prog.pgas"), []byte(docsProg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	count := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range docSamples(string(text)) {
			count++
			_, out, errs := runCmd(s.args...)
			if ok, at := matchSample(s.want, out+errs); !ok {
				t.Errorf("%s:%d: pgasrob %s: the output differs from the sample from its line %d on:\n--- sample\n%s\n--- tool\n%s",
					filepath.Base(doc), s.line, strings.Join(s.args, " "), at+1, strings.Join(s.want, "\n"), out+errs)
			}
		}
	}
	if count < 10 {
		t.Errorf("only %d samples found", count)
	}
}

// docsProg is the prog.pgas of docs/cli.md's RUN-TIME ERROR sample.
const docsProg = "# prog.pgas: a run-time error reachable under SC (docs/cli.md)\n" + runtimeErrorSrc

type docSample struct {
	line int // of the "$ pgasrob" line, from 1
	args []string
	want []string
}

// docSamples finds the "$ pgasrob" commands of a markdown text.
func docSamples(text string) []docSample {
	var out []docSample
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "$ pgasrob ") {
			continue
		}
		i++
		for i < len(lines) && !strings.HasPrefix(lines[i], "```") {
			if cmd, ok := strings.CutPrefix(lines[i], "$ pgasrob "); ok {
				out = append(out, docSample{line: i + 1, args: strings.Fields(cmd)})
			} else {
				s := &out[len(out)-1]
				s.want = append(s.want, lines[i])
			}
			i++
		}
	}
	return out
}

var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9][0-9.]*[kMG]? states/s`), "RATE states/s"},
	{regexp.MustCompile(`[0-9][0-9.]* bytes/state`), "B bytes/state"},
	{regexp.MustCompile(`hit rate [0-9]+%`), "hit rate P%"},
	// The spaces before a time too: a column of times is aligned.
	{regexp.MustCompile(` *\b([0-9]+h)?([0-9]+m)?[0-9][0-9.]*(ns|µs|ms|s)\b`), " TIME"},
	{regexp.MustCompile(`[0-9][0-9.]* ?(KiB|MiB|GiB|kB|MB|GB)\b`), "MEM"},
	{regexp.MustCompile(`"(elapsed_ms|elapsed_ns|bytes)": [0-9]+`), `"$1": N`},
	// Statistics: how many states a search stored depends on --jobs and
	// on the scheduling (docs/cli.md, Determinism); verdicts, witnesses
	// and the counts of cycle types and attacks do not.
	{regexp.MustCompile(`\b[0-9]+(, [0-9]+)* (states|transitions|markings)\b`), "# $2"},
	{regexp.MustCompile(`"(states|transitions)": [0-9]+`), `"$1": N`},
}

// maskVolatile hides what varies between runs of the same command.
func maskVolatile(s string) string {
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return strings.TrimRight(s, " ")
}

// matchSample reports whether got fits the sample want; if not, the index
// of the sample line where the best attempt failed.
func matchSample(want []string, got string) (bool, int) {
	for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
		want = want[:len(want)-1]
	}
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	pats := make([]*regexp.Regexp, len(want))
	for i, w := range want {
		w = strings.ReplaceAll(maskVolatile(w), "…", "...")
		if strings.TrimSpace(w) == "..." {
			continue
		}
		parts := strings.Split(w, "...")
		for k := range parts {
			parts[k] = regexp.QuoteMeta(parts[k])
		}
		pats[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
	}
	for i := range lines {
		lines[i] = maskVolatile(lines[i])
	}
	furthest := 0
	var match func(i, j int) bool
	match = func(i, j int) bool {
		furthest = max(furthest, i)
		if i == len(want) {
			return j == len(lines)
		}
		if pats[i] == nil { // "...": any number of lines
			for k := j; k <= len(lines); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		return j < len(lines) && pats[i].MatchString(lines[j]) && match(i+1, j+1)
	}
	if match(0, 0) {
		return true, 0
	}
	return false, furthest
}

// TestMatchSample: the sample matcher itself (a matcher that accepted
// anything would let every sample drift).
func TestMatchSample(t *testing.T) {
	for _, tc := range []struct {
		want []string
		got  string
		ok   bool
	}{
		{[]string{"a", "b"}, "a\nb\n", true},
		{[]string{"a", "b"}, "a\nc\n", false},
		{[]string{"a", "...", "d"}, "a\nb\nc\nd\n", true},
		{[]string{"a", "...", "d"}, "a\nd\n", true},
		{[]string{"a", "...", "d"}, "a\nb\n", false},
		{[]string{"x (54 states, ...)"}, "x (54 states, 12 transitions)\n", true},
		{[]string{"x (54 states, ...)"}, "y (55 states, 12 transitions)\n", false},
		{[]string{"x: NOT ROBUST"}, "x: ROBUST\n", false},
		{[]string{"t 9.26ms, 92.8k states/s"}, "t 1.1s, 3 states/s\n", true},
		{[]string{"a"}, "a\nb\n", false},
	} {
		if ok, _ := matchSample(tc.want, tc.got); ok != tc.ok {
			t.Errorf("%q against %q: %v", tc.want, tc.got, ok)
		}
	}
}
