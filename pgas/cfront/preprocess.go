// Preprocessing and parsing: cc's configuration, our predefined macros,
// pragmas, the structural checks that keep cc away from its slow and
// looping inputs, and the budget (a context) around cc's work.

package cfront

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// parsed is what the preprocessor and parser leave for the translation.
type parsed struct {
	ast      *cc.AST
	domain   pragmaDomain // "#pragma pgasrob values K" or "values LO..HI"
	warnings []pgas.Diag  // code removed by a predefined macro (predef.go)
}

// parseC runs cc's preprocessor, parser and type checker on src with our
// headers only, under ctx: a cancelled context ends the wait with a
// *BudgetError naming the phase (cc itself cannot be interrupted; its
// goroutine is left to the process's exit).
func parseC(ctx context.Context, name string, src []byte, opt Options) (*parsed, error) {
	if err := precheck(name, src); err != nil {
		return nil, err
	}
	abi, err := cc.NewABI("linux", "amd64")
	if err != nil {
		return nil, &InternalError{Pos: pgas.Pos{File: name, Line: 1, Col: 1}, Msg: err.Error()}
	}
	quoted, angle, roots := searchPaths(opt)
	if dir := filepath.Dir(name); name != "" {
		roots = append(roots, filepath.Clean(dir)) // for "@", the file's own directory
	}
	defs, err := defines(opt)
	if err != nil {
		return nil, err
	}
	pr := &pragmas{file: name, src: src}
	cfg := &cc.Config{
		ABI:             abi,
		FS:              hostFS{mem: headerFS(), roots: roots},
		FSOnly:          true,
		SysIncludePaths: angle,
		IncludePaths:    quoted,
		// A few hundred bytes of macros can expand for hours; programs of
		// the subset need little.
		ExpansionLimit: 1 << 21,
		PragmaHandler:  pr.handle,
	}
	var phase atomic.Value
	phase.Store("preprocessing")
	type result struct {
		p   *parsed
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := translateC(cfg, name, src, predefined+defs, &phase)
		done <- result{p, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return nil, &BudgetError{Phase: phase.Load().(string), Cause: context.Cause(ctx)}
	}
	var list pgas.ErrorList
	list = append(list, pr.errs...)
	if r.err != nil {
		if l, ok := cErrors(name, r.err).(pgas.ErrorList); ok {
			list = append(list, l...)
		} else {
			return nil, r.err
		}
	}
	if len(list) > 0 {
		sortErrors(list)
		return nil, capErrors(list)
	}
	r.p.domain = pr.domain
	return r.p, nil
}

// capErrors keeps the first pgas.MaxErrors errors, as the .pgas compiler
// does.
func capErrors(list pgas.ErrorList) pgas.ErrorList {
	if len(list) > pgas.MaxErrors {
		list = list[:pgas.MaxErrors]
	}
	return list
}

// pragmas collects what the pragmas of the user's file say: the domain of
// "#pragma pgasrob values K" (or LO..HI), and a refusal for every pragma we do not
// interpret, which would otherwise change the program's meaning unseen.
type pragmas struct {
	file   string
	src    []byte
	domain pragmaDomain
	errs   pgas.ErrorList
	ops    []pgas.Pos // the _Pragma operators of the file, in order
	nops   int        // how many of them were met
}

// hashCol is the column of the "#" that starts the directive whose first
// word after "pragma" is at line:col, or col when it cannot be found.
func (pr *pragmas) hashCol(line, col int) int {
	l := 1
	for i := 0; i < len(pr.src); i++ {
		if l == line {
			rest := pr.src[i:]
			if j := bytes.IndexByte(rest, '\n'); j >= 0 {
				rest = rest[:j]
			}
			if h := bytes.IndexByte(rest, '#'); h >= 0 && h < col {
				return h + 1
			}
			return col
		}
		if pr.src[i] == '\n' {
			l++
		}
	}
	return col
}

// operatorPos is the position of the next _Pragma operator of the file:
// cc keeps none for the pragma it makes of one. Operators are met in the
// order of the text, except those inside a macro, which are then placed
// at the last operator of the file.
func (pr *pragmas) operatorPos() pgas.Pos {
	if pr.ops == nil {
		pr.ops = codeOccurrences(pr.file, pr.src, "_Pragma")
		if len(pr.ops) == 0 {
			pr.ops = []pgas.Pos{{File: pr.file, Line: 1, Col: 1}}
		}
	}
	p := pr.ops[min(pr.nops, len(pr.ops)-1)]
	pr.nops++
	return p
}

func (pr *pragmas) handle(toks []cc.Token) error {
	var words []string
	for _, t := range toks {
		if s := strings.TrimSpace(t.SrcStr()); s != "" {
			words = append(words, s)
		}
	}
	if len(words) == 0 {
		return nil
	}
	p := toks[0].Position()
	pos := pgas.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
	if p.Filename == "_Pragma_" || p.Filename == "" {
		pos = pr.operatorPos()
	} else if strings.HasPrefix(p.Filename, includeDir) {
		return nil // our own headers
	} else if p.Filename == pr.file {
		pos.Col = pr.hashCol(p.Line, p.Column)
	}
	if words[0] == "pgasrob" {
		var lo, hi int64
		ok := len(words) >= 3 && words[1] == "values"
		if ok {
			lo, hi, ok = parseWindow(strings.Join(words[2:], ""))
		}
		if !ok {
			pr.errs = append(pr.errs, &pgas.Error{Pos: pos, Msg: fmt.Sprintf("#pragma pgasrob: expected \"values K\" (0..K-1, 2 <= K <= %d) or \"values LO..HI\" (LO <= 0 < HI, within %d..%d)", int64(pgas.MaxValue), int64(pgas.MinValue), int64(pgas.MaxValue))})
			return nil
		}
		pr.domain = pragmaDomain{lo: lo, hi: hi, set: true}
		return nil
	}
	if msg := pragmaRefusal(words); msg != "" {
		pr.errs = append(pr.errs, &pgas.Error{Pos: pos, Msg: msg})
	}
	return nil
}

// pragmaRefusal says why a pragma is refused, or "" for the pragmas whose
// meaning the translation keeps: the STDC pragmas act on floating point
// only (outside the subset, refused where used), and diagnostic and
// message pragmas change what a compiler prints, not what the program
// does.
func pragmaRefusal(words []string) string {
	text := "#pragma " + strings.Join(words, " ")
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	second := ""
	if len(words) > 1 {
		second = words[1]
	}
	switch {
	case words[0] == "STDC", words[0] == "message",
		(words[0] == "GCC" || words[0] == "clang") && (second == "diagnostic" || second == "warning"):
		return ""
	case words[0] == "omp":
		return fmt.Sprintf("OpenMP threads are not modelled: %s would run this code on several threads of one PE, which the checker does not see; remove the pragma to check the program with one thread per PE (a verdict about that program only)", text)
	case words[0] == "acc":
		return fmt.Sprintf("OpenACC offloading is not modelled: %s; remove the pragma to check the program as it runs on the host", text)
	case words[0] == "once":
		return "#pragma once in the checked file itself has no meaning here; remove it"
	}
	return fmt.Sprintf("%s is not interpreted by pgasrob and could change what the program does (packing, unrolling, threads); remove it to check the program without it", text)
}

// sentinel is appended to every file. cc v4.31.0 loops for ever when its
// parser reaches the end of the file inside a type-qualifier list ("int *"
// at the end of a file, or "^^"): the loop in typeQualifierList shifts the
// end of file again and again. The sentinel's identifier ends that loop,
// and its final ";" is the last token, so no pointer declarator can be at
// the end of the token stream: translateC checks that the preprocessed
// stream does end with the sentinel's tokens (a file ending inside a
// comment or a macro call swallows them) before cc parses it. That is a
// structural guarantee, not a timeout. The declaration is skipped by the
// translation (names starting with __ are ours).
const sentinel = "\n;int __cfront_sentinel;\n"

// translateC calls cc.Translate, turning a panic of cc on hostile input
// into an error: bad C must never crash the tools. phase names the work in
// progress for a budget's message.
func translateC(cfg *cc.Config, name string, src []byte, pre string, phase *atomic.Value) (p *parsed, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, pgas.ErrorList{{Pos: pgas.Pos{File: name, Line: 1, Col: 1}, Msg: "the C parser cannot read this file; check that it is C and that every bracket and comment is closed"}}
		}
	}()
	sources := []cc.Source{{Name: "<predefined>", Value: pre}, {Name: name, Value: string(src) + sentinel}}
	var pp bytes.Buffer
	if err := cc.Preprocess(cfg, sources, &pp); err != nil {
		return nil, err
	}
	if !endsWithSentinel(pp.Bytes()) {
		return nil, fmt.Errorf("%s:%d:1: the file ends inside a comment, a macro call or a preprocessor construct", name, bytes.Count(src, []byte("\n"))+1)
	}
	warnings := predefWarnings(cfg, name, src, pre)
	phase.Store("parsing and type-checking")
	ast, err := cc.Translate(cfg, sources)
	if err != nil {
		return nil, err
	}
	return &parsed{ast: ast, warnings: warnings}, nil
}

// endsWithSentinel reports whether the preprocessed text ends with the
// sentinel's tokens. The sentinel starts a line, so no string or character
// literal of the file reaches into it; a comment or a macro call that is
// still open swallows it.
func endsWithSentinel(pp []byte) bool {
	tail := strings.Join(strings.Fields(string(pp[max(0, len(pp)-200):])), "")
	return strings.HasSuffix(tail, ";int__cfront_sentinel;")
}

// pragmaDomain is what "#pragma pgasrob values" declares: 0..K-1 for
// "values K", LO..HI for "values LO..HI".
type pragmaDomain struct {
	lo, hi int64
	set    bool
}
