package cfront

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// Options tune the translation.
type Options struct {
	// Values is |DOM| for the program (the .pgas `values K`: 0..K-1), as
	// "#pragma pgasrob values K" sets it; 0 infers the domain (domain.go).
	Values int
	// N is the number of PEs the translation is for; 0 leaves it open,
	// and a program whose memory depends on it (shmem_malloc(npes *
	// sizeof(long))) is then refused with a message asking for one N.
	N int
	// Context bounds the work (a time or memory budget, a signal): when
	// it ends, Translate and Compile return a *BudgetError naming the
	// phase. nil is context.Background().
	Context context.Context
	// Lo..Hi is the domain when Declared ("#pragma pgasrob values LO..HI").
	// Otherwise, when Hi > 0, it is a window the inferred domain must
	// contain: the decision's retry with a wider domain
	// (cmd/pgasrob/widen.go).
	Lo, Hi   int64
	Declared bool
	// Args are the words of the command line after the program's name:
	// main's argc and argv (libc_args.go). None by default.
	Args []string
	// IncludeDirs are searched for #include "..." and <...> after the
	// file's directory and before our headers (cc's -I).
	IncludeDirs []string
	// Defines are NAME or NAME=VALUE, as cc's -D, in order.
	Defines []string
	// NoDeadChecks turns the dead-check law off (tailcheck.go,
	// docs/deviations.md entry 18): every comparison is evaluated.
	NoDeadChecks bool
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
	// Warnings are facts that make an answer weaker than it looks (code
	// removed by a macro we predefine, no SHMEM communication); Compile
	// puts them in Program.Warnings.
	Warnings []pgas.Diag
	// Assumptions are the modelling choices the program exercises
	// (warnings.go: the memory layout's and the C library model's too);
	// Compile puts them in Program.Assumptions.
	Assumptions []pgas.Assumption
	// Elems maps the .pgas name of a buffer the collapse law shrank to the
	// C index of each element kept (buffer_plan.go).
	Elems map[string][]int64
	// Widen is nil when "#pragma pgasrob values" set the domain; otherwise
	// the domain is inferred, and Widen bounds its widening
	// (pgas.Program.Widen).
	Widen *pgas.Widening
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
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	pr, err := parseC(opt.Context, name, src, opt)
	if err != nil {
		return nil, err
	}
	if pr.domain.set && opt.Values == 0 && !opt.Declared {
		opt.Lo, opt.Hi, opt.Declared = pr.domain.lo, pr.domain.hi, true
	}
	// At most three translations: again without the statics plan when it
	// does not hold (statics.go), again with the blocking puts whose
	// symmetric source other PEs write issued in every order (api_rma.go,
	// sourceOrder).
	var res *Result
	srOff, srcAny := false, map[pgas.Pos]bool(nil)
	for {
		t := newTranslator(name, src, opt)
		t.buf, t.srOff, t.srcAny = planFor(pr.ast, opt.N, !opt.NoDeadChecks), srOff, srcAny
		res, err = t.run(pr.ast)
		if !srOff && t.sr != nil && t.sr.bad != "" {
			srOff = true
			continue
		}
		if err == nil && srcAny == nil && len(t.srcRetry) > 0 {
			srcAny = t.srcRetry
			continue
		}
		break
	}
	if err != nil {
		return nil, err
	}
	if err := nbiCheck(res); err != nil { // api_amo_nbi.go
		return nil, err
	}
	res.Warnings = append(pr.warnings, res.Warnings...)
	return res, nil
}

// Compile translates the C program and compiles the translation with
// pgas.Compile, then points every transition at the C source: Pos and
// Text are the C position and construct, Program.File is the C file and
// Program.Dialect is "c".
func Compile(name string, src []byte, opt Options) (*pgas.Program, error) {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	res, err := Translate(name, src, opt)
	if err != nil {
		return nil, err
	}
	p, err := pgas.Compile(name+".pgas", res.Source)
	if uerr := res.declaredValueErrors(err); uerr != nil {
		return nil, uerr
	}
	if err != nil {
		// at the C construct whose translation fails, if known
		ie := &InternalError{Pos: pgas.Pos{File: name, Line: 1, Col: 1}, Msg: "the translation does not compile: " + firstLine(err.Error())}
		var list pgas.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			if o, ok := res.Origin(list[0].Pos.Line); ok && o.Pos.Line > 0 {
				ie.Pos = o.Pos
				ie.Msg = "the translation of " + o.Text + " does not compile: " + list[0].Msg
			}
		}
		return nil, ie
	}
	if err := opt.Context.Err(); err != nil {
		return nil, &BudgetError{Phase: "compiling the translation of", Cause: context.Cause(opt.Context)}
	}
	res.apply(p, name)
	p.Warnings = append(res.Warnings, silentWarnings(p, name)...)
	p.Assumptions = programAssumptions(p, res, src)
	if res.Widen != nil {
		w := *res.Widen
		w.From = [2]int64{p.Lo, p.Hi()}
		p.Widen = &w
	}
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
				s[i] = c + "[" + r.elemSuffix(base, "0") + "]"
			case arrays[base]:
				s[i] = c + "[" + r.elemSuffix(base, suffix) + "]"
			default:
				s[i] = c
			}
		}
	}
	rename(p.Addrs)
	rename(p.Regs)
	rename(p.Queues)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
