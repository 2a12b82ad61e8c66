package cfront

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// Options tune the translation.
type Options struct {
	// Values is |DOM| for the program (the .pgas `values`); 0 infers it
	// from the constants of the program (at least 2).
	Values int
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
	ast, values, err := parseC(name, src)
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

// parseC runs cc's preprocessor, parser and type checker on src with our
// headers only. It also returns the domain set by "#pragma pgasrob values
// K" (0 if none).
func parseC(name string, src []byte) (*cc.AST, int, error) {
	abi, err := cc.NewABI("linux", "amd64")
	if err != nil {
		return nil, 0, err
	}
	values := 0
	var perr error
	cfg := &cc.Config{
		ABI:             abi,
		FS:              headerFS(),
		FSOnly:          true,
		SysIncludePaths: []string{includeDir},
		IncludePaths:    []string{includeDir},
		// A few hundred bytes of macros can expand for hours; programs of
		// the subset need little.
		ExpansionLimit: 1 << 20,
		PragmaHandler: func(toks []cc.Token) error {
			if v, ok, err := valuesPragma(toks); ok && perr == nil {
				values, perr = v, err
			}
			return nil
		},
	}
	ast, err := translateC(cfg, name, src)
	if err == nil {
		err = perr
	}
	if err != nil {
		return nil, 0, cErrors(name, err)
	}
	return ast, values, nil
}

// valuesPragma reads "#pragma pgasrob values K": the data domain of the
// program, as `values K` in .pgas. Other pragmas are ignored.
func valuesPragma(toks []cc.Token) (int, bool, error) {
	var words []string
	for _, t := range toks {
		if s := strings.TrimSpace(t.SrcStr()); s != "" {
			words = append(words, s)
		}
	}
	if len(words) == 0 || words[0] != "pgasrob" {
		return 0, false, nil
	}
	p := toks[0].Position()
	v, err := strconv.Atoi(strings.Join(words[2:], ""))
	if len(words) != 3 || words[1] != "values" || err != nil || v < 2 || v > maxValues {
		return 0, true, fmt.Errorf("%s:%d:%d: #pragma pgasrob: expected \"values K\" with 2 <= K <= %d", p.Filename, p.Line, p.Column, maxValues)
	}
	return v, true, nil
}

// sentinel is appended to every file. cc v4.31.0 loops for ever when the
// file ends inside a pointer declarator ("int *" at the end of a file, or
// "^^"): its qualifier loop shifts the end of file again and again. A
// declaration after the user's text ends that loop at a name; it is
// skipped by the translation (names starting with __ are ours).
const sentinel = "\n;int __cfront_sentinel;\n"

// parseTimeout bounds cc's work on one file, for the loops the sentinel
// does not reach (the file ends inside a comment, say).
var parseTimeout = 20 * time.Second

// translateC calls cc.Translate, turning a panic of cc on hostile input
// into an error, and a parse that does not finish into one: bad C must
// never crash or hang the tools. (A parse that does not finish leaves its
// goroutine running; the command exits on the error.)
func translateC(cfg *cc.Config, name string, src []byte) (*cc.AST, error) {
	type result struct {
		ast *cc.AST
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{nil, fmt.Errorf("%s:1:1: the C parser failed on this file (%v)", name, r)}
			}
		}()
		sources := []cc.Source{{Name: "<predefined>", Value: predefined}, {Name: name, Value: string(src) + sentinel}}
		// The sentinel helps only if the parser reaches it: a file
		// ending inside a macro call would swallow it.
		var pp bytes.Buffer
		if err := cc.Preprocess(cfg, sources, &pp); err != nil {
			done <- result{nil, err}
			return
		}
		if tail := pp.Bytes()[max(0, pp.Len()-100):]; !bytes.Contains(tail, []byte("__cfront_sentinel")) {
			done <- result{nil, fmt.Errorf("%s:%d:1: the file ends inside a macro call or a preprocessor construct", name, bytes.Count(src, []byte("\n"))+1)}
			return
		}
		ast, err := cc.Translate(cfg, sources)
		done <- result{ast, err}
	}()
	select {
	case r := <-done:
		return r.ast, r.err
	case <-time.After(parseTimeout):
		return nil, fmt.Errorf("%s:%d:1: the C parser did not finish within %v; the file probably ends in the middle of a declaration or comment", name, bytes.Count(src, []byte("\n"))+1, parseTimeout)
	}
}

// cErrors turns cc's error text ("file:line:col: msg" per line) into a
// pgas.ErrorList, so that C errors print and sort like .pgas ones.
func cErrors(name string, err error) error {
	var list pgas.ErrorList
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		list = append(list, &pgas.Error{Pos: leadingPos(name, &line), Msg: line})
		if len(list) == pgas.MaxErrors {
			break
		}
	}
	if len(list) == 0 {
		return errors.New(name + ": the C parser failed")
	}
	return list
}

// leadingPos splits "file:line:col: msg" (file may contain colons) into a
// position and the message; without one, the position is the file's start.
func leadingPos(name string, line *string) pgas.Pos {
	parts := strings.SplitN(*line, ": ", 2)
	if len(parts) == 2 {
		f := strings.Split(parts[0], ":")
		if len(f) >= 3 {
			l, e1 := strconv.Atoi(f[len(f)-2])
			c, e2 := strconv.Atoi(f[len(f)-1])
			if e1 == nil && e2 == nil {
				*line = parts[1]
				return pgas.Pos{File: strings.Join(f[:len(f)-2], ":"), Line: l, Col: c}
			}
		}
	}
	return pgas.Pos{File: name, Line: 1, Col: 1}
}
