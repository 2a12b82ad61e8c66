// Preprocessing and parsing: cc's configuration, our predefined macros,
// pragmas, and the guards around the parser.

package cfront

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"modernc.org/cc/v4"
)

// parseC runs cc's preprocessor, parser and type checker on src with our
// headers only. It also returns the domain set by "#pragma pgasrob values
// K" (0 if none).
func parseC(name string, src []byte, opt Options) (*cc.AST, int, error) {
	abi, err := cc.NewABI("linux", "amd64")
	if err != nil {
		return nil, 0, err
	}
	quoted, angle, roots := searchPaths(opt)
	if dir := filepath.Dir(name); name != "" {
		roots = append(roots, filepath.Clean(dir)) // for "@", the file's own directory
	}
	defs, err := defines(opt)
	if err != nil {
		return nil, 0, err
	}
	values := 0
	var perr error
	cfg := &cc.Config{
		ABI:             abi,
		FS:              hostFS{mem: headerFS(), roots: roots},
		FSOnly:          true,
		SysIncludePaths: angle,
		IncludePaths:    quoted,
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
	ast, err := translateC(cfg, name, src, defs)
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
func translateC(cfg *cc.Config, name string, src []byte, defs string) (*cc.AST, error) {
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
		sources := []cc.Source{{Name: "<predefined>", Value: predefined + defs}, {Name: name, Value: string(src) + sentinel}}
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
