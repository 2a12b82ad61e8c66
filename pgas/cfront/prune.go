// Dead code: the lines of the translation that no path from the start of
// main reaches are left out before the size limit of the checker is
// applied. A test program that expands one macro per operation and type
// and selects the operation by a switch on a constant (`switch (OP)` with
// OP an enum constant) translates every case of every expansion, of which
// one per expansion can run; the .pgas compiler would drop the rest as
// unreachable control states, but only after counting them against its
// 4096 statements. Leaving out code that never runs changes no
// computation, so the translation stays exact.

package cfront

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// maxEmitted bounds the lines emitted before dead code is left out: a
// budget on the translation's own work, above the checker's maxLines.
const maxEmitted = 4 * maxLines

// prune leaves out the body lines (t.out) that no path from the first
// reaches, and refuses a program whose live lines exceed maxLines.
func (t *translator) prune() {
	labels := map[string]int{}
	for i, l := range t.out {
		if name, ok := labelLine(l); ok {
			labels[name] = i
		}
	}
	live := make([]bool, len(t.out))
	todo := []int{0}
	for len(todo) > 0 {
		i := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if i >= len(t.out) || live[i] {
			continue
		}
		live[i] = true
		targets, falls := jumps(t.out[i])
		for _, l := range targets {
			if j, ok := labels[l]; ok {
				todo = append(todo, j)
			}
		}
		if falls {
			todo = append(todo, i+1)
		}
	}
	var out []string
	var orig []Origin
	for i, l := range t.out {
		if live[i] {
			out = append(out, l)
			orig = append(orig, t.orig[i])
		}
	}
	t.out, t.orig = out, orig
	if len(t.out) > maxLines {
		t.errs = append(t.errs, &pgas.Error{Pos: t.orig[maxLines].Pos,
			Msg: fmt.Sprintf("the program is too large for the checker (more than %d generated lines)", maxLines)})
	}
}

// labelLine reports whether l places a label, and its name.
func labelLine(l string) (string, bool) {
	if strings.HasPrefix(l, " ") || !strings.HasSuffix(l, ":") {
		return "", false
	}
	return strings.TrimSuffix(l, ":"), true
}

// jumps are the labels a line may jump to, and whether control may go on
// to the next line.
func jumps(l string) ([]string, bool) {
	if _, ok := labelLine(l); ok {
		return nil, true
	}
	l = strings.TrimSpace(l)
	if i := strings.Index(l, "#"); i >= 0 {
		l = strings.TrimSpace(l[:i])
	}
	list := func(s string) []string {
		var ls []string
		for _, x := range strings.Split(s, ",") {
			ls = append(ls, strings.TrimSpace(x))
		}
		return ls
	}
	switch {
	case strings.HasPrefix(l, "if ") && strings.Contains(l, " goto "):
		return list(l[strings.LastIndex(l, " goto ")+len(" goto "):]), true
	case strings.HasPrefix(l, "goto "):
		return list(strings.TrimPrefix(l, "goto ")), false
	case strings.Contains(l, "; goto "):
		return list(l[strings.LastIndex(l, "; goto ")+len("; goto "):]), false
	}
	return nil, true
}
