package tso

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// Costs give each fence position a cost for FindFences (FenceOptions.Cost),
// for example how often the location runs in a profile. A cost file has
// one rule per line, "THREAD LABEL COST", where THREAD or LABEL may be *
// (any); # starts a comment. The most specific rule wins (thread and label
// over thread and *, over * and label, over * *); positions no rule
// covers cost 1. Costs are integers from 0 to 10^9.
type Costs struct {
	rules map[[2]string]int64
}

// maxCost bounds one position's cost, so that sums cannot overflow.
const maxCost = 1_000_000_000

// ParseCosts reads a cost file for p; unknown threads and labels are
// errors with their positions.
func ParseCosts(file string, src []byte, p *prog.Program) (*Costs, error) {
	c := &Costs{rules: map[[2]string]int64{}}
	threads := map[string]*prog.Thread{}
	for _, th := range p.Threads {
		threads[th.Name] = th
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), len(src)+1)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		col := func(k int) int {
			// Column of field k, for the message.
			rest, at := text, 1
			for i := 0; ; i++ {
				trimmed := strings.TrimLeft(rest, " \t")
				at += len(rest) - len(trimmed)
				if i == k {
					return at
				}
				at += len(f[i])
				rest = trimmed[len(f[i]):]
			}
		}
		errAt := func(k int, format string, a ...any) error {
			return &prog.Error{Pos: prog.Pos{File: file, Line: line, Col: col(k)}, Msg: fmt.Sprintf(format, a...)}
		}
		if len(f) != 3 {
			return nil, errAt(0, "want THREAD LABEL COST, got %d fields", len(f))
		}
		th, ok := threads[f[0]]
		if f[0] != "*" && !ok {
			return nil, errAt(0, "no thread %q", prog.Clip(f[0]))
		}
		if f[1] != "*" {
			found := false
			for name, t := range threads {
				if f[0] != "*" && name != f[0] {
					continue
				}
				for _, l := range t.Labels {
					found = found || l == f[1]
				}
			}
			if !found {
				where := "any thread"
				if th != nil {
					where = "thread " + th.Name
				}
				return nil, errAt(1, "no label %q in %s", prog.Clip(f[1]), where)
			}
		}
		v, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || v < 0 || v > maxCost {
			return nil, errAt(2, "cost %q is not an integer in 0..%d", prog.Clip(f[2]), maxCost)
		}
		key := [2]string{f[0], f[1]}
		if _, dup := c.rules[key]; dup {
			return nil, errAt(0, "a second rule for %s %s", f[0], f[1])
		}
		c.rules[key] = v
	}
	return c, nil
}

// Of is the cost of fence position f of p.
func (c *Costs) Of(p *prog.Program, f Fence) int64 {
	th := p.Threads[f.Thread]
	for _, key := range [][2]string{{th.Name, th.Labels[f.Label]}, {th.Name, "*"}, {"*", th.Labels[f.Label]}, {"*", "*"}} {
		if v, ok := c.rules[key]; ok {
			return v
		}
	}
	return 1
}

// WriteFenced returns src, the text p was parsed from, with an mfence at
// each position of fs, in the input format, so that the user can keep
// and re-check the fenced program: a fence at location l becomes a line
// "transition l l_fence mfence" just before the first transition leaving
// l, and every transition leaving l now leaves l_fence (the construction
// of insertFences, with its label names). Everything else, comments
// included, stays as it was.
func WriteFenced(src []byte, p *prog.Program, fs []Fence) ([]byte, error) {
	q := insertFences(p, fs)
	lines := strings.SplitAfter(string(src), "\n")
	before := map[int][]string{} // line index -> lines to insert before it
	type edit struct {
		line, col int
		old, new  string
	}
	var edits []edit
	for t, th := range p.Threads {
		fth := q.Threads[t]
		for k := len(th.Trans); k < len(fth.Trans); k++ {
			mf := fth.Trans[k]
			l, lf := th.Labels[mf.From], fth.Labels[mf.To]
			first := 0
			for _, tr := range th.Trans {
				if tr.From == mf.From {
					edits = append(edits, edit{tr.FromPos.Line - 1, tr.FromPos.Col - 1, l, lf})
					if first == 0 || tr.Line < first {
						first = tr.Line
					}
				}
			}
			if first < 1 || first > len(lines) {
				return nil, fmt.Errorf("thread %s: no transition leaves %s, so a fence there does nothing", th.Name, l)
			}
			indent := lines[first-1][:len(lines[first-1])-len(strings.TrimLeft(lines[first-1], " \t"))]
			before[first-1] = append(before[first-1], fmt.Sprintf("%stransition %s %s mfence\n", indent, l, lf))
		}
	}
	// Right to left within a line, so that columns stay valid.
	sort.Slice(edits, func(a, b int) bool {
		return edits[a].line < edits[b].line || edits[a].line == edits[b].line && edits[a].col > edits[b].col
	})
	for _, e := range edits {
		if e.line < 0 || e.line >= len(lines) || e.col < 0 || e.col+len(e.old) > len(lines[e.line]) || lines[e.line][e.col:e.col+len(e.old)] != e.old {
			return nil, fmt.Errorf("the source state %s at line %d is not where the parser saw it (was src the program's text?)", e.old, e.line+1)
		}
		lines[e.line] = lines[e.line][:e.col] + e.new + lines[e.line][e.col+len(e.old):]
	}
	var b strings.Builder
	for i, line := range lines {
		for _, ins := range before[i] {
			b.WriteString(ins)
		}
		b.WriteString(line)
	}
	return []byte(b.String()), nil
}
