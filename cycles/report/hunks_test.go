package report

import (
	"strings"
	"testing"
)

// apply performs hunks on the lines of a.
func apply(a []string, hs []hunk) string {
	var out []string
	next := 1
	for _, h := range hs {
		out = append(out, a[next-1:h.From-1]...)
		out = append(out, h.Inserted)
		next = h.From + h.Deleted
	}
	out = append(out, a[next-1:]...)
	return strings.Join(out, "")
}

// The hunks of a SARIF fix turn the input into the repaired text, for
// any two texts (the property the fix of TestSARIFFix relies on).
func FuzzLineHunks(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nx\nb\nc\n")
	f.Add("a\nb\nc\n", "a\nc\n")
	f.Add("", "x\n")
	f.Add("a\nb", "a\nb\n")
	f.Add("x\ny\n", "y\nx\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		la, lb := splitKeep([]byte(a)), splitKeep([]byte(b))
		hs, ok := lineHunks(la, lb)
		if !ok {
			return
		}
		if got := apply(la, hs); got != b {
			t.Errorf("hunks %+v of %q give %q, want %q", hs, a, got, b)
		}
		last := 0
		for _, h := range hs {
			if h.From <= last || h.From < 1 || h.From > len(la)+1 {
				t.Errorf("hunk at line %d after %d, text of %d lines", h.From, last, len(la))
			}
			last = h.From + h.Deleted - 1
		}
	})
}
