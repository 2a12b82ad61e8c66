package cfront

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// Options tune the translation.
type Options struct {
	// Values is |DOM| for the program (the .pgas `values`); 0 infers it
	// from the constants of the program (at least 2).
	Values int
	// Args are the words of the command line after the program's name:
	// main's argc and argv (libc_args.go). None by default.
	Args []string
	// IncludeDirs are searched for #include "..." and <...> after the
	// file's directory and before our headers (cc's -I).
	IncludeDirs []string
	// Defines are NAME or NAME=VALUE, as cc's -D, in order.
	Defines []string
}

// Origin is where a generated .pgas line comes from in the C file.
type Origin struct {
	Pos  pgas.Pos
	Text string // the C construct as written, e.g. "shmem_putmem(&buf, &src, 8, 1)"
}

// Result is a translation: the .pgas text and, for each of its lines, the
// C origin.
type Result struct {
	Source []byte
	Lines  []Origin // Lines[i] is the origin of line i+1 of Source
	// Names maps a generated .pgas name to the C name it stands for, where
	// they differ (a keyword renamed, a local of an inlined function).
	Names map[string]string
	// Arrays are the .pgas names of C arrays, whose cells are shown as
	// name[i] rather than name+i.
	Arrays []string
	// Assumptions are the modelling choices of the C library model that
	// the program exercises (libc_mem.go); Compile adds them to the
	// program's.
	Assumptions []pgas.Assumption
}

// Origin returns the C origin of .pgas line line (from 1).
func (r *Result) Origin(line int) (Origin, bool) {
	if line < 1 || line > len(r.Lines) {
		return Origin{}, false
	}
	return r.Lines[line-1], true
}

// IsC reports whether a file name is a C source for the tools.
func IsC(name string) bool { return strings.EqualFold(filepath.Ext(name), ".c") }

// Translate translates the C program src, read from file name, to .pgas.
// A construct outside the subset gives a pgas.ErrorList with positions in
// the C file.
func Translate(name string, src []byte, opt Options) (*Result, error) {
	ast, values, err := parseC(name, src, opt)
	if err != nil {
		return nil, err
	}
	if opt.Values == 0 {
		opt.Values = values
	}
	t := newTranslator(name, src, opt)
	return t.run(ast)
}

// Compile translates the C program and compiles the translation with
// pgas.Compile, then points every transition at the C source: Pos and
// Text are the C position and construct, Program.File is the C file and
// Program.Dialect is "c".
func Compile(name string, src []byte, opt Options) (*pgas.Program, error) {
	res, err := Translate(name, src, opt)
	if err != nil {
		return nil, err
	}
	p, err := pgas.Compile(name+".pgas", res.Source)
	if err != nil {
		return nil, fmt.Errorf("%s: internal error: the translation does not compile (please report):\n%v", name, err)
	}
	res.apply(p, name)
	return p, nil
}

// apply rewrites positions, texts and names of p in C terms.
func (r *Result) apply(p *pgas.Program, name string) {
	p.File = name
	p.Dialect = "c"
	p.Assumptions = append(p.Assumptions, r.Assumptions...)
	for i := range p.Trans {
		tr := &p.Trans[i]
		if o, ok := r.Origin(tr.Pos.Line); ok {
			tr.Pos = o.Pos
			tr.Text = o.Text
			// run-time errors are reported at their expression
			c := &tr.Cmd
			for _, e := range []*pgas.Expr{c.Addr, c.Val, c.Guard, c.Local, c.Rank, c.Remote, c.Queue, c.Val2} {
				if e != nil {
					e.Pos = o.Pos
				}
			}
			// a context operand is a bare name: show the C one
			if c.Queue != nil {
				if n, ok := r.Names[c.Queue.Src]; ok {
					c.Queue.Src = n
				}
			}
		}
	}
	arrays := map[string]bool{}
	for _, a := range r.Arrays {
		arrays[a] = true
	}
	rename := func(s []string) {
		for i, n := range s {
			base, suffix := n, ""
			if j := strings.IndexByte(n, '+'); j > 0 {
				base, suffix = n[:j], n[j+1:]
			}
			c, ok := r.Names[base]
			if !ok {
				c = base
			}
			switch {
			case arrays[base] && suffix == "":
				s[i] = c + "[0]"
			case arrays[base]:
				s[i] = c + "[" + suffix + "]"
			default:
				s[i] = c
			}
		}
	}
	rename(p.Addrs)
	rename(p.Regs)
	rename(p.Queues)
}
