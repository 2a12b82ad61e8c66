package report

import (
	"strings"
	"testing"
)

// The index page of a project links each decided file's page, escaping
// the file name in the text and in the address.
func TestIndexHTML(t *testing.T) {
	rows := []SummaryJSON{{File: "a/<b>.c", N: 2, Verdict: "not robust", ExitCode: 1}, {File: "c#.c", Verdict: "input error", ExitCode: 2}}
	var b strings.Builder
	if err := WriteIndexHTML(&b, rows, map[string]string{"a/<b>.c": "a/<b>.c.html"}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, `<a href="a/%3Cb%3E.c.html">a/&lt;b&gt;.c</a>`) || strings.Contains(page, "<b>") {
		t.Errorf("link or escaping wrong:\n%s", page)
	}
	if !strings.Contains(page, "<td>c#.c</td>") || !strings.Contains(page, "INPUT ERROR") || !strings.Contains(page, "NOT ROBUST") {
		t.Errorf("rows missing:\n%s", page)
	}
}
