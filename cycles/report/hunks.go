package report

import "strings"

// hunk replaces Deleted lines from line From (from 1) by Inserted.
type hunk struct {
	From, Deleted int
	Inserted      string
}

// maxDiffCells bounds the quadratic table of lineHunks: a repair edits a
// few lines of a source file, so the part between the common prefix and
// suffix is small.
const maxDiffCells = 4 << 20

// splitKeep splits a text into lines that keep their line ends.
func splitKeep(b []byte) []string {
	s := string(b)
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// lineHunks lists the edits that turn a into b, from a longest common
// subsequence of lines; ok is false when the texts differ too widely.
func lineHunks(a, b []string) ([]hunk, bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if (len(x)+1)*(len(y)+1) > maxDiffCells {
		return nil, false
	}
	// l[i][j]: the LCS of x[i:] and y[j:]
	l := make([][]int32, len(x)+1)
	for i := range l {
		l[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out []hunk
	var cur *hunk
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	open := func(i int) {
		if cur == nil {
			cur = &hunk{From: pre + i + 1}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			flush()
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || l[i][j+1] >= l[i+1][j]):
			open(i)
			cur.Inserted += y[j]
			j++
		default:
			open(i)
			cur.Deleted++
			i++
		}
	}
	flush()
	return out, true
}
