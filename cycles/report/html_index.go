package report

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// The index page of a project's HTML witnesses (decide -r DIR --html
// OUT): the summary table, each file linking to its own page. Self-
// contained as the pages are: no script, the style inline.

// WriteIndexHTML writes the index of rows; pages maps a file (as in the
// rows) to its page's path relative to the index ("" or absent: no page,
// the file was not decided).
func WriteIndexHTML(w io.Writer, rows []SummaryJSON, pages map[string]string) error {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pgasrob: project</title>\n<style>\n")
	b.WriteString("body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:left;border-bottom:1px solid #ccc}td.num{text-align:right}.v1{color:#b00}.v2,.v4{color:#a50}.v3{color:#555}\n")
	b.WriteString("</style>\n</head>\n<body>\n<h1>pgasrob: project</h1>\n<table id=\"summary\">\n<tr><th>file</th><th>N</th><th>verdict</th><th>states</th></tr>\n")
	for _, r := range rows {
		name := esc(r.File)
		if p := pages[r.File]; p != "" {
			name = fmt.Sprintf("<a href=\"%s\">%s</a>", esc(pageHref(p)), name)
		}
		n := "-"
		if r.N > 0 {
			n = fmt.Sprint(r.N)
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td class=\"num\">%s</td><td class=\"v%d\">%s</td><td class=\"num\">%d</td></tr>\n",
			name, n, r.ExitCode, esc(strings.ToUpper(r.Verdict)), r.States)
	}
	b.WriteString("</table>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// pageHref is a relative path as a URL path: slashes, each segment
// escaped (a file name may hold '#' or '?').
func pageHref(p string) string {
	parts := strings.Split(filepath.ToSlash(p), "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
