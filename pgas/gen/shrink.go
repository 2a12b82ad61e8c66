package gen

import (
	"slices"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// Shrink reduces p while fails keeps reporting the failure, and returns
// the smallest program found. It tries, in order: deleting a statement,
// dropping a jump target or a handle, replacing an expression by one of
// its operands or by 0, dropping a declaration, and lowering values to 2.
// A candidate must compile before fails sees it. maxTries bounds the calls
// of fails (0 means 2000), so shrinking always ends.
func Shrink(p *Program, fails func(*Program) bool, maxTries int) *Program {
	if maxTries <= 0 {
		maxTries = 2000
	}
	cur := p.Clone()
	tries := 0
	for progress := true; progress && tries < maxTries; {
		progress = false
		for _, cand := range candidates(cur) {
			if tries >= maxTries {
				break
			}
			if !compiles(cand) {
				continue
			}
			tries++
			if fails(cand) {
				cur, progress = cand, true
				break
			}
		}
	}
	return cur
}

func compiles(p *Program) bool {
	_, err := pgas.Compile("shrink.pgas", []byte(p.String()))
	return err == nil
}

// Size is a rough measure used by tests: statements plus expression nodes
// plus declarations.
func (p *Program) Size() int {
	n := len(p.Addrs) + len(p.Regs) + len(p.Queues) + len(p.Contexts) + p.Values
	for _, s := range p.Stmts {
		n++
		for _, a := range s.Args {
			n += a.size()
		}
	}
	return n
}

func (e *Expr) size() int {
	if e == nil {
		return 0
	}
	return 1 + e.L.size() + e.R.size()
}

// candidates lists the one-step simplifications of p, biggest first.
func candidates(p *Program) []*Program {
	var out []*Program
	for i := range p.Stmts {
		out = append(out, deleteStmt(p, i))
	}
	for i, s := range p.Stmts {
		if s.Kind == SGoto && len(s.Targets) > 1 {
			for j := range s.Targets {
				c := p.Clone()
				c.Stmts[i].Targets = slices.Delete(c.Stmts[i].Targets, j, j+1)
				out = append(out, c)
			}
		}
		if s.Handle != "" && (s.Kind == SRead || s.Kind == SWrite) {
			c := p.Clone()
			c.Stmts[i].Handle = ""
			c.dropWaits(s.Handle)
			out = append(out, c)
		}
		if s.Kind == SBarrier && s.Set != "" {
			// a barrier over a set: first over every rank, then unguarded
			c := p.Clone()
			c.Stmts[i].Set, c.Stmts[i].Member = "", ""
			out = append(out, c)
			if s.Member != "" {
				c := p.Clone()
				c.Stmts[i].Member = ""
				out = append(out, c)
			}
		}
		if s.Kind == SGet || s.Kind == SPut {
			c := p.Clone()
			c.Stmts[i].Kind = map[Kind]Kind{SGet: SRead, SPut: SWrite}[s.Kind]
			out = append(out, c)
		}
		for j, a := range s.Args {
			for _, r := range simpler(a) {
				c := p.Clone()
				c.Stmts[i].Args[j] = r
				out = append(out, c)
			}
		}
	}
	for _, list := range []func(*Program) *[]string{
		func(q *Program) *[]string { return &q.Addrs },
		func(q *Program) *[]string { return &q.Regs },
		func(q *Program) *[]string { return &q.Queues },
		func(q *Program) *[]string { return &q.Contexts },
	} {
		for j := range *list(p) {
			c := p.Clone()
			l := list(c)
			*l = slices.Delete(*l, j, j+1)
			out = append(out, c)
		}
	}
	if p.Values > 2 && p.Hi == 0 {
		c := p.Clone()
		c.Values = 2
		out = append(out, c)
	}
	return out
}

// deleteStmt removes statement i; its labels move to the next statement
// so that jumps to it stay defined, and deleting an operation with a
// handle deletes the waits on it.
func deleteStmt(p *Program, i int) *Program {
	c := p.Clone()
	s := c.Stmts[i]
	c.Stmts = slices.Delete(c.Stmts, i, i+1)
	if i < len(c.Stmts) {
		c.Stmts[i].Labels = append(s.Labels, c.Stmts[i].Labels...)
	} else {
		c.EndLabels = append(s.Labels, c.EndLabels...)
	}
	if s.Handle != "" && s.Kind != SWait {
		c.dropWaits(s.Handle)
	}
	return c
}

func (p *Program) dropWaits(h string) {
	for i := 0; i < len(p.Stmts); i++ {
		if s := p.Stmts[i]; s.Kind == SWait && s.Handle == h {
			*p = *deleteStmt(p, i)
			i--
		}
	}
}

// simpler lists replacements of e: each operand of each operator node,
// and a constant for a leaf (1 for rank and N, 0 otherwise).
func simpler(e *Expr) []*Expr {
	var out []*Expr
	if e.isLeaf() {
		switch {
		case e.Leaf == "rank" || e.Leaf == "N":
			out = append(out, num(1)) // a rank that is valid for every N
		case e.Leaf != "0":
			out = append(out, num(0)) // a literal, register, address or queue
		}
		return out
	}
	out = append(out, e.L.clone())
	if e.R != nil {
		out = append(out, e.R.clone())
		for _, l := range simpler(e.L) {
			out = append(out, &Expr{Op: e.Op, L: l, R: e.R.clone()})
		}
		for _, r := range simpler(e.R) {
			out = append(out, &Expr{Op: e.Op, L: e.L.clone(), R: r})
		}
	}
	return out
}

// ShrinkSource reduces arbitrary source text (a user's program, which has
// no Program tree) by deleting lines while fails
// keeps failing and the text still compiles. maxTries bounds the calls of
// fails (0 means 2000).
func ShrinkSource(src string, fails func(string) bool, maxTries int) string {
	if maxTries <= 0 {
		maxTries = 2000
	}
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	tries := 0
	ok := func(ls []string) bool {
		text := strings.Join(ls, "\n") + "\n"
		if _, err := pgas.Compile("shrink.pgas", []byte(text)); err != nil {
			return false
		}
		tries++
		return fails(text)
	}
	for progress := true; progress && tries < maxTries; {
		progress = false
		for i := len(lines) - 1; i >= 0 && tries < maxTries; i-- {
			cand := slices.Delete(slices.Clone(lines), i, i+1)
			if ok(cand) {
				lines, progress = cand, true
			}
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
