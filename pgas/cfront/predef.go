// Code removed by a macro we predefine: a warning, since the program
// checked then lacks SHMEM calls the user wrote (issue 34, item 2).

package cfront

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// predefMacros are the macros of predefined, name to value.
func predefMacros() map[string]string {
	m := map[string]string{}
	for line := range strings.Lines(predefined) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "#define" {
			m[f[1]] = strings.Join(f[2:], " ")
		}
	}
	return m
}

var (
	identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	shmemRE = regexp.MustCompile(`\bshmem_[A-Za-z0-9_]+`)
	dirRE   = regexp.MustCompile(`^\s*#\s*([a-z]+)\b(.*)$`)
)

// group is a conditional group of the user's file whose inclusion depends
// on a predefined macro and whose text names SHMEM routines.
type group struct {
	pos    pgas.Pos // the directive that controls it
	after  int      // index of the logical line after which its text starts
	macros []string // the predefined macros its chain tests
	calls  []string // the shmem_ names in its text
}

// predefWarnings finds the groups of src that test a predefined macro and
// name SHMEM routines, preprocesses src once more with a marker at the
// start of each, and warns about those whose marker did not survive:
// their SHMEM calls are not in the program checked. Files without such a
// group (nearly all) cost one scan of the text.
func predefWarnings(cfg *cc.Config, name string, src []byte, pre string) []pgas.Diag {
	lines := logicalLines(string(src))
	groups := predefGroups(name, lines)
	if len(groups) == 0 {
		return nil
	}
	var b strings.Builder
	mark := map[int][]int{}
	for i, g := range groups {
		mark[g.after] = append(mark[g.after], i)
	}
	for i, l := range lines {
		b.WriteString(l.text)
		b.WriteByte('\n')
		for _, k := range mark[i] {
			fmt.Fprintf(&b, "__cfront_group_%d\n", k)
		}
	}
	c := *cfg
	c.PragmaHandler = func([]cc.Token) error { return nil }
	var out bytes.Buffer
	if err := cc.Preprocess(&c, []cc.Source{{Name: "<predefined>", Value: pre}, {Name: name, Value: b.String() + sentinel}}, &out); err != nil {
		return nil // the main preprocessing reported what is wrong
	}
	defs := predefMacros()
	var ws []pgas.Diag
	for i, g := range groups {
		if bytes.Contains(out.Bytes(), fmt.Appendf(nil, "__cfront_group_%d\n", i)) || bytes.Contains(out.Bytes(), fmt.Appendf(nil, "__cfront_group_%d ", i)) {
			continue
		}
		var ms []string
		for _, m := range g.macros {
			ms = append(ms, fmt.Sprintf("%s (pgasrob defines it as %s)", m, defs[m]))
		}
		calls := g.calls
		if len(calls) > 3 {
			calls = append(calls[:3:3], "...")
		}
		ws = append(ws, pgas.Diag{Pos: g.pos, Msg: fmt.Sprintf("this conditional removes SHMEM calls (%s) because of %s: the program checked lacks them; make the condition hold for pgasrob's value, or check that branch on its own",
			strings.Join(calls, ", "), strings.Join(ms, ", "))})
	}
	return ws
}

// line is a logical line of the source (backslash-newlines joined), with
// the physical line it starts on.
type line struct {
	text  string
	start int // 1-based physical line
}

// logicalLines splits src into logical lines. Each logical
// line keeps its physical text (continuations included), so that joining
// them reproduces src's line count.
func logicalLines(src string) []line {
	phys := strings.Split(src, "\n")
	var out []line
	for i := 0; i < len(phys); i++ {
		start := i
		text := phys[i]
		for strings.HasSuffix(text, "\\") && i+1 < len(phys) {
			i++
			text += "\n" + phys[i]
		}
		out = append(out, line{text: text, start: start + 1})
	}
	return out
}

// predefGroups lists the conditional groups that depend on a predefined
// macro and name a SHMEM routine.
func predefGroups(name string, lines []line) []group {
	defs := predefMacros()
	type chain struct {
		macros []string
		open   *group // the group being read, nil if it does not qualify
		body   strings.Builder
	}
	var stack []*chain
	var out []group
	closeGroup := func(c *chain) {
		if c.open != nil {
			if calls := uniq(shmemRE.FindAllString(c.body.String(), -1)); len(calls) > 0 {
				c.open.calls = calls
				out = append(out, *c.open)
			}
		}
		c.open = nil
		c.body.Reset()
	}
	inComment := false
	for i, l := range lines {
		code := stripComments(l.text, &inComment)
		m := dirRE.FindStringSubmatch(code)
		if m == nil {
			for _, c := range stack {
				c.body.WriteString(code)
				c.body.WriteByte('\n')
			}
			continue
		}
		dir, rest := m[1], m[2]
		var mentioned []string
		for _, id := range identRE.FindAllString(rest, -1) {
			if _, ok := defs[id]; ok {
				mentioned = append(mentioned, id)
			}
		}
		switch dir {
		case "if", "ifdef", "ifndef":
			stack = append(stack, &chain{})
		case "elif", "elifdef", "elifndef", "else":
			if len(stack) == 0 {
				continue
			}
			closeGroup(stack[len(stack)-1])
		case "endif":
			if len(stack) > 0 {
				closeGroup(stack[len(stack)-1])
				stack = stack[:len(stack)-1]
			}
			continue
		default:
			continue
		}
		c := stack[len(stack)-1]
		c.macros = uniq(append(c.macros, mentioned...))
		if len(c.macros) > 0 && !inComment { // a marker after the line would be inside the comment
			col := strings.Index(l.text, "#") + 1
			c.open = &group{pos: pgas.Pos{File: name, Line: l.start, Col: max(col, 1)}, after: i, macros: c.macros}
		}
	}
	for _, c := range stack {
		closeGroup(c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].after < out[j].after })
	return out
}

// stripComments removes comments from one logical line, carrying the
// state of a block comment to the next line. String literals are skipped
// so that "/*" inside one opens nothing.
func stripComments(s string, inComment *bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case *inComment:
			if strings.HasPrefix(s[i:], "*/") {
				*inComment = false
				i++
				b.WriteByte(' ')
			}
		case strings.HasPrefix(s[i:], "/*"):
			*inComment = true
			i++
		case strings.HasPrefix(s[i:], "//"):
			return b.String()
		case s[i] == '"' || s[i] == '\'':
			q := s[i]
			b.WriteByte(q)
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					b.WriteByte(s[i])
					i++
				}
				b.WriteByte(s[i])
			}
			if i < len(s) {
				b.WriteByte(q)
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
