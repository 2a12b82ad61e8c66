package pgas

import (
	"fmt"
	"strconv"
	"strings"
)

// keywords may not be used as names of addresses, registers, queues,
// handles or labels.
var keywords = map[string]bool{
	"program": true, "values": true, "address": true, "register": true, "queue": true,
	"mem": true, "rank": true, "N": true, "read": true, "write": true, "get": true,
	"put": true, "barrier": true, "assume": true, "assert": true, "goto": true, "if": true,
	"wait": true, "waitq": true, "quiet": true, "while": true, "else": true,
	// OpenSHMEM (docs/shmem-calculus.md).
	"context": true, "fence": true, "when": true,
}

func init() {
	for name := range shmemCalls {
		keywords[name] = true
	}
	for name := range fetchCalls {
		keywords[name] = true
	}
}

// maxDepth bounds the nesting of expressions, so that the recursive descent
// parser and the checker use bounded stack on any input.
const maxDepth = 64

// maxOperators bounds the binary operators of one line: a chain a + b + c
// ... nests as deeply as it is long in the tree the checker walks
// recursively, and a megabyte of it took hundreds of megabytes (issue 29).
const maxOperators = 1024

type parser struct {
	src []byte
	// lx lexes on demand; lx.out holds the tokens from the last one
	// consumed on, and i indexes the current one in it.
	lx   *lexer
	i    int
	errs *ErrorList
	f    *file
	// pending holds labels seen on lines without a statement; they label
	// the next statement (or the end of the program).
	pending []ident
	depth   int
	ops     int     // binary operators on the current line
	blocks  []block // open if/else/while blocks, innermost last
	nblocks int
}

// block is an open "if e {" or "while e {". Blocks are compiled away as
// they are parsed, into conditional jumps and gotos to hidden labels
// ("$K.else", "$K.end", "$K.top"), which no user label can clash with.
type block struct {
	kind string // "if", "else" or "while"
	id   int
	pos  Pos
}

// bail unwinds the parse of one line after a syntax error.
type bail struct{}

func parse(filename string, src []byte, errs *ErrorList) *file {
	p := &parser{src: src, errs: errs, f: &file{}}
	if len(src) > MaxSourceBytes {
		errs.add(Pos{File: filename, Line: 1, Col: 1}, fmt.Sprintf("larger than %d MiB, the limit for a program", MaxSourceBytes>>20))
		return p.f
	}
	p.lx = newLexer(filename, src, errs)
	for p.tok().kind != tEOF {
		p.line()
	}
	for _, b := range p.blocks {
		errs.add(b.pos, fmt.Sprintf("%s block is not closed (missing })", b.kind))
	}
	p.f.endLabels = p.pending
	return p.f
}

// fill lexes until the token k after the current one is there, or the
// source has ended.
func (p *parser) fill(k int) {
	for p.i+k >= len(p.lx.out) && !p.lx.done {
		p.lx.step()
	}
}

func (p *parser) tok() token {
	p.fill(0)
	return p.lx.out[p.i]
}

func (p *parser) peek(k int) token {
	p.fill(k)
	if out := p.lx.out; p.i+k < len(out) {
		return out[p.i+k]
	}
	return p.lx.out[len(p.lx.out)-1]
}

// prev is the token consumed last.
func (p *parser) prev() token { return p.lx.out[p.i-1] }

func (p *parser) next() token {
	t := p.tok()
	if t.kind != tEOF {
		p.i++
	}
	if p.i > 1024 {
		// Drop the consumed tokens but the last (prev).
		n := copy(p.lx.out, p.lx.out[p.i-1:])
		p.lx.out, p.i = p.lx.out[:n], 1
	}
	return t
}

func (p *parser) fail(pos Pos, format string, args ...any) {
	p.errs.add(pos, fmt.Sprintf(format, args...))
	panic(bail{})
}

func (p *parser) expect(k tokKind, what string) token {
	t := p.tok()
	if t.kind != k {
		p.fail(t.pos, "expected %s, found %s", what, t.describe())
	}
	return p.next()
}

// line parses one line. After a syntax error it skips to the next line,
// so that each line reports at most one syntax error.
func (p *parser) line() {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bail); !ok {
				panic(r)
			}
			for p.tok().kind != tNewline && p.tok().kind != tEOF {
				p.next()
			}
			if p.tok().kind == tNewline {
				p.next()
			}
		}
	}()
	p.ops = 0
	t := p.tok()
	if t.kind == tNewline {
		p.next()
		return
	}
	if t.kind == tIdent {
		switch t.text {
		case "program", "values", "address", "register", "queue", "context":
			if len(p.f.stmts) > 0 || len(p.pending) > 0 {
				p.fail(t.pos, "declaration %q after the first statement; declarations come first", t.text)
			}
			p.decl()
			p.endLine()
			return
		}
	}
	// Labels: NAME ":" ...
	for p.tok().kind == tIdent && p.peek(1).kind == tColon {
		t := p.next()
		p.next()
		if keywords[t.text] {
			p.fail(t.pos, "keyword %q cannot be a label", t.text)
		}
		p.pending = append(p.pending, ident{t.text, t.pos})
	}
	if p.tok().kind == tNewline {
		p.next()
		return
	}
	if p.tok().kind == tRBrace {
		p.closeBlock()
		p.endLine()
		return
	}
	s := p.stmt()
	p.add(s)
	if s.kind == sIf && s.negate {
		p.expect(tLBrace, "{")
	}
	p.endLine()
}

// add appends a statement, which takes the pending labels, user labels
// first so that they name its control state.
func (p *parser) add(s *stmt) {
	var user, hidden []ident
	for _, l := range p.pending {
		if strings.HasPrefix(l.name, "$") {
			hidden = append(hidden, l)
		} else {
			user = append(user, l)
		}
	}
	s.labels = append(user, hidden...)
	p.pending = nil
	p.f.stmts = append(p.f.stmts, s)
}

func hiddenLabel(id int, part string, pos Pos) ident {
	return ident{fmt.Sprintf("$%d.%s", id, part), pos}
}

// openBlock turns "if e {" into "if !(e) goto $K.else" and "while e {"
// into "$K.top: if !(e) goto $K.end".
func (p *parser) openBlock(s *stmt, kind string) {
	p.nblocks++
	b := block{kind: kind, id: p.nblocks, pos: s.pos}
	p.blocks = append(p.blocks, b)
	s.kind, s.negate = sIf, true
	if kind == "while" {
		p.pending = append(p.pending, hiddenLabel(b.id, "top", s.pos))
		s.targets = []ident{hiddenLabel(b.id, "end", s.pos)}
	} else {
		s.targets = []ident{hiddenLabel(b.id, "else", s.pos)}
	}
}

// closeBlock handles "}" and "} else {".
func (p *parser) closeBlock() {
	t := p.next()
	if len(p.blocks) == 0 {
		p.fail(t.pos, "} without an open block")
	}
	b := &p.blocks[len(p.blocks)-1]
	if p.tok().kind == tIdent && p.tok().text == "else" {
		e := p.next()
		if b.kind != "if" {
			p.fail(e.pos, "else after %s block", b.kind)
		}
		p.expect(tLBrace, "{ after else")
		// The then-branch jumps over the else-branch.
		p.add(&stmt{kind: sGoto, pos: t.pos, text: "}", hasGoto: true, targets: []ident{hiddenLabel(b.id, "end", t.pos)}})
		p.pending = append(p.pending, hiddenLabel(b.id, "else", t.pos))
		b.kind = "else"
		return
	}
	p.blocks = p.blocks[:len(p.blocks)-1]
	switch b.kind {
	case "if":
		p.pending = append(p.pending, hiddenLabel(b.id, "else", t.pos))
	case "else":
		p.pending = append(p.pending, hiddenLabel(b.id, "end", t.pos))
	case "while":
		p.add(&stmt{kind: sGoto, pos: t.pos, text: "}", hasGoto: true, targets: []ident{hiddenLabel(b.id, "top", t.pos)}})
		p.pending = append(p.pending, hiddenLabel(b.id, "end", t.pos))
	}
}

func (p *parser) endLine() {
	t := p.tok()
	if t.kind != tNewline {
		p.fail(t.pos, "expected end of line, found %s", t.describe())
	}
	p.next()
}

func (p *parser) name(what string) ident {
	t := p.expect(tIdent, what)
	if keywords[t.text] {
		p.fail(t.pos, "keyword %q cannot be used as %s", t.text, what)
	}
	return ident{t.text, t.pos}
}

func (p *parser) integer(what string) (int64, Pos) {
	t := p.expect(tInt, what)
	v, err := strconv.ParseInt(t.text, 10, 64)
	if err != nil {
		p.fail(t.pos, "bad number %q: %s", t.text, numErr(err))
	}
	return v, t.pos
}

// signedInteger is an integer with an optional leading minus.
func (p *parser) signedInteger(what string) (int64, Pos) {
	if t := p.tok(); t.kind == tMinus {
		p.next()
		v, _ := p.integer(what)
		return -v, t.pos
	}
	return p.integer(what)
}

func numErr(err error) string {
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return "too large"
	}
	return "not a decimal integer"
}

func (p *parser) decl() {
	kw := p.next()
	f := p.f
	switch kw.text {
	case "program":
		if f.name.name != "" {
			p.fail(kw.pos, "program name given twice")
		}
		f.name = p.name("a program name")
	case "values":
		if f.hasValues {
			p.fail(kw.pos, "values declared twice")
		}
		f.values, f.valuesPos = p.signedInteger("the number of values, or a window LO..HI")
		if p.tok().kind == tDotDot {
			p.next()
			f.valuesLo, f.valuesWin = f.values, true
			f.values, _ = p.signedInteger("the largest value HI of LO..HI")
		}
		f.hasValues = true
	case "address":
		for {
			d := addrDecl{name: p.name("an address name"), size: 1}
			if p.tok().kind == tLBrack {
				p.next()
				n, pos := p.integer("an array size")
				if n < 1 || n > MaxAddrs {
					p.fail(pos, "array size %d outside 1..%d", n, MaxAddrs)
				}
				d.size = int(n)
				p.expect(tRBrack, "]")
			}
			f.addrs = append(f.addrs, d)
			if p.tok().kind != tComma {
				break
			}
			p.next()
		}
	case "register", "queue", "context":
		for {
			id := p.name("a " + kw.text + " name")
			if kw.text == "register" {
				f.regs = append(f.regs, id)
			} else {
				f.queues = append(f.queues, id)
				f.isCtx = append(f.isCtx, kw.text == "context")
			}
			if p.tok().kind != tComma {
				break
			}
			p.next()
		}
	}
}

// stmt parses a statement and its optional "; goto" suffix.
func (p *parser) stmt() *stmt {
	start := p.tok()
	s := &stmt{pos: start.pos}
	end := p.command(s)
	s.text = strings.TrimSpace(string(p.src[start.lo:end]))
	if p.tok().kind == tSemi {
		if s.kind == sGoto || s.kind == sIf {
			p.fail(p.tok().pos, "%s cannot have a \"; goto\" suffix", map[stmtKind]string{sGoto: "a goto", sIf: "an if"}[s.kind])
		}
		p.next()
		kw := p.expect(tIdent, "goto")
		if kw.text != "goto" {
			p.fail(kw.pos, "expected goto after \";\", found %s", kw.describe())
		}
		s.targets = p.labels()
		s.hasGoto = true
	}
	return s
}

func (p *parser) labels() []ident {
	var ls []ident
	for {
		ls = append(ls, p.name("a label"))
		if p.tok().kind != tComma {
			return ls
		}
		p.next()
	}
}

// command parses the command part of a statement and returns the end
// offset of its text.
func (p *parser) command(s *stmt) int {
	t := p.tok()
	if t.kind == tIdent && t.text == "mem" {
		s.kind = sStore
		s.lhs = p.expr()
		if _, ok := s.lhs.(*memRef); !ok {
			p.fail(t.pos, "expected mem[address] <- value")
		}
		p.expect(tAssignArrow, "<-")
		s.x = p.expr()
		return s.x.base().hi
	}
	if t.kind != tIdent {
		p.fail(t.pos, "expected a statement, found %s", t.describe())
	}
	switch t.text {
	case "assume", "assert":
		p.next()
		s.kind = sAssume
		if t.text == "assert" {
			s.kind = sAssert
		}
		s.x = p.expr()
		return s.x.base().hi
	case "read", "write", "get", "put":
		p.next()
		s.kind = map[string]stmtKind{"read": sRead, "write": sWrite, "get": sGet, "put": sPut}[t.text]
		end := p.callArgs(s)
		if p.tok().kind == tHandleArrow {
			arrow := p.next()
			if s.kind != sRead && s.kind != sWrite {
				p.fail(arrow.pos, "only read and write take a handle (%s already waits)", t.text)
			}
			s.handle = p.name("a handle name")
			end = p.prev().hi
		}
		return end
	case "barrier":
		p.next()
		s.kind = sBarrier
		if p.tok().kind == tLBrace {
			return p.rankSet(s)
		}
		return t.hi
	case "wait":
		p.next()
		s.kind = sWait
		s.handle = p.name("a handle name")
		return p.prev().hi
	case "waitq", "quiet", "fence":
		p.next()
		s.kind, s.call = sWaitq, t.text
		if t.text == "fence" {
			s.kind = sFence
		}
		s.x = p.expr()
		return s.x.base().hi
	case "goto":
		p.next()
		s.kind = sGoto
		s.targets = p.labels()
		s.hasGoto = true
		return p.prev().hi
	case "if", "while":
		p.next()
		s.kind = sIf
		s.x = p.expr()
		if p.tok().kind == tLBrace || t.text == "while" {
			if p.tok().kind != tLBrace {
				p.fail(p.tok().pos, "expected { after the condition of while, found %s", p.tok().describe())
			}
			p.openBlock(s, t.text)
			return s.x.base().hi
		}
		kw := p.expect(tIdent, "goto")
		if kw.text != "goto" {
			p.fail(kw.pos, "expected goto or { after the condition of if, found %s", kw.describe())
		}
		s.targets = []ident{p.name("a label")}
		return p.prev().hi
	}
	if shmemCalls[t.text] != nil {
		p.next()
		s.kind, s.call = sShmem, t.text
		return p.callArgs(s)
	}
	if fetchCalls[t.text] != nil {
		p.fail(t.pos, "%s returns the old value: write r <- %s(...)", t.text, t.text)
	}
	if keywords[t.text] {
		p.fail(t.pos, "unexpected keyword %q at the start of a statement", t.text)
	}
	s.kind = sAssign
	s.reg = ident{t.text, t.pos}
	p.next()
	p.expect(tAssignArrow, "<-")
	var end int
	if r := p.tok(); r.kind == tIdent && fetchCalls[r.text] != nil {
		p.next()
		s.call = r.text
		end = p.callArgs(s)
	} else {
		s.x = p.expr()
		end = s.x.base().hi
	}
	if w := p.tok(); w.kind == tIdent && w.text == "when" {
		p.next()
		s.guard = p.expr()
		end = s.guard.base().hi
	}
	return end
}

// rankSet parses the set of a barrier, "{e, e..e, ...}", into s.set and
// returns the end offset of the closing brace.
func (p *parser) rankSet(s *stmt) int {
	open := p.expect(tLBrace, "{")
	s.setPos = open.pos
	for p.tok().kind != tRBrace {
		var it setItem
		it.first = p.expr()
		if p.tok().kind == tDotDot {
			p.next()
			it.last = p.expr()
		}
		s.set = append(s.set, it)
		if p.tok().kind != tComma {
			break
		}
		p.next()
	}
	if len(s.set) == 0 {
		p.fail(open.pos, "a barrier's set names at least one rank: barrier {1, 3..N}")
	}
	return p.expect(tRBrace, "}").hi
}

// callArgs parses "(e, e, ...)" into s.args and returns the end offset of
// the closing parenthesis.
func (p *parser) callArgs(s *stmt) int {
	p.expect(tLParen, "(")
	for p.tok().kind != tRParen {
		s.args = append(s.args, p.expr())
		if p.tok().kind != tComma {
			break
		}
		p.next()
	}
	return p.expect(tRParen, ")").hi
}

// Expressions: precedence climbing over the C levels.
var binPrec = map[tokKind]int{
	tOr: 1, tAnd: 2, tEq: 3, tNe: 3, tLt: 4, tLe: 4, tGt: 4, tGe: 4,
	tPlus: 5, tMinus: 5, tStar: 6, tSlash: 6, tPercent: 6,
}

func (p *parser) expr() exprNode { return p.binary(1) }

func (p *parser) binary(min int) exprNode {
	x := p.unary()
	for {
		op := p.tok()
		prec, ok := binPrec[op.kind]
		if !ok || prec < min {
			return x
		}
		p.next()
		if p.ops++; p.ops > maxOperators {
			p.fail(op.pos, "more than %d operators on one line", maxOperators)
		}
		y := p.binary(prec + 1)
		x = &binary{node{pos: x.base().pos, lo: x.base().lo, hi: y.base().hi}, op.kind, x, y}
	}
}

func (p *parser) enter(pos Pos) {
	p.depth++
	if p.depth > maxDepth {
		p.fail(pos, "expression nested too deeply (limit %d)", maxDepth)
	}
}

func (p *parser) unary() exprNode {
	t := p.tok()
	p.enter(t.pos)
	defer func() { p.depth-- }()
	switch t.kind {
	case tMinus, tNot:
		p.next()
		x := p.unary()
		return &unary{node{pos: t.pos, lo: t.lo, hi: x.base().hi}, t.kind, x}
	case tPlus:
		p.fail(t.pos, "unary + is not an operator of .pgas")
	case tLParen:
		p.next()
		x := p.binary(1)
		r := p.expect(tRParen, ")")
		// The span includes the parentheses, so that an enclosing
		// expression's source reads as written.
		b := x.base()
		if b.bare == [2]int{} {
			b.bare = [2]int{b.lo, b.hi}
		}
		b.lo, b.hi, b.pos = t.lo, r.hi, t.pos
		return x
	case tInt:
		v, _ := p.integer("a number")
		return &intLit{node{pos: t.pos, lo: t.lo, hi: t.hi}, v}
	case tIdent:
		p.next()
		switch t.text {
		case "rank":
			return &rankRef{node{pos: t.pos, lo: t.lo, hi: t.hi}}
		case "N":
			return &nRef{node{pos: t.pos, lo: t.lo, hi: t.hi}}
		case "mem":
			p.expect(tLBrack, "[ after mem")
			a := p.binary(1)
			r := p.expect(tRBrack, "]")
			return &memRef{node{pos: t.pos, lo: t.lo, hi: r.hi}, a}
		}
		if keywords[t.text] {
			p.fail(t.pos, "keyword %q cannot be used in an expression", t.text)
		}
		return &nameRef{node{pos: t.pos, lo: t.lo, hi: t.hi}, t.text}
	}
	p.fail(t.pos, "expected an expression, found %s", t.describe())
	return nil
}
