package pgas

import (
	"fmt"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tNewline
	tIdent
	tInt
	tAssignArrow // <- (or ←)
	tHandleArrow // ->
	tColon
	tSemi
	tComma
	tLParen
	tRParen
	tLBrack
	tRBrack
	tPlus
	tMinus
	tStar
	tSlash
	tPercent
	tNot
	tLt
	tLe
	tGt
	tGe
	tEq
	tNe
	tAnd
	tOr
	tLBrace
	tRBrace
	tDotDot // .. (values LO..HI)
)

var tokNames = [...]string{
	tEOF: "end of file", tNewline: "end of line", tIdent: "name", tInt: "number",
	tAssignArrow: "<-", tHandleArrow: "->", tColon: ":", tSemi: ";", tComma: ",",
	tLParen: "(", tRParen: ")", tLBrack: "[", tRBrack: "]", tPlus: "+", tMinus: "-",
	tStar: "*", tSlash: "/", tPercent: "%", tNot: "!", tLt: "<", tLe: "<=", tGt: ">",
	tGe: ">=", tEq: "==", tNe: "!=", tAnd: "&&", tOr: "||",
	tLBrace: "{", tRBrace: "}", tDotDot: "..",
}

func (k tokKind) String() string {
	if int(k) < len(tokNames) {
		return tokNames[k]
	}
	return fmt.Sprintf("token(%d)", k)
}

type token struct {
	kind   tokKind
	pos    Pos
	lo, hi int // byte span in the source
	text   string
}

func (t token) describe() string {
	switch t.kind {
	case tIdent, tInt:
		return fmt.Sprintf("%s %q", t.kind, t.text)
	}
	return fmt.Sprintf("%q", t.kind.String())
}

// lex splits src into tokens. Newlines always end a statement: there are
// no continuation lines, so an unclosed parenthesis is reported on its own
// line instead of swallowing the rest of the file. Bad characters are
// reported and skipped.
// lexer turns the source into tokens on demand: the parser holds only the
// tokens it has not consumed yet (and the last one it did), so that a
// megabyte of operators on one line costs no megabytes of tokens before
// the parser can refuse it (issue 29).
type lexer struct {
	filename        string
	src             []byte
	errs            *ErrorList
	i               int
	line, lineStart int
	done            bool
	out             []token
}

func newLexer(filename string, src []byte, errs *ErrorList) *lexer {
	return &lexer{filename: filename, src: src, errs: errs, line: 1}
}

func (lx *lexer) pos(off int) Pos {
	return Pos{File: lx.filename, Line: lx.line, Col: off - lx.lineStart + 1}
}

func (lx *lexer) emit(k tokKind, lo, hi int) {
	lx.out = append(lx.out, token{kind: k, pos: lx.pos(lo), lo: lo, hi: hi, text: string(lx.src[lo:hi])})
}

// step reads the source up to the next token, or up to a blank or a
// comment, appending what it finds to out; at the end of the source it
// appends the final end of line and end of file.
func (lx *lexer) step() {
	src, errs, i := lx.src, lx.errs, lx.i
	if i >= len(src) {
		lx.emit(tNewline, len(src), len(src))
		lx.out = append(lx.out, token{kind: tEOF, pos: lx.pos(len(src)), lo: len(src), hi: len(src)})
		lx.done = true
		return
	}
	emit, pos := lx.emit, lx.pos
	c := src[i]
	switch {
	case c == '\n':
		emit(tNewline, i, i+1)
		lx.i = i + 1
		lx.line, lx.lineStart = lx.line+1, i+1
		return
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		lx.i = i + 1
		return
	case c == '#':
		for i < len(src) && src[i] != '\n' {
			i++
		}
		lx.i = i
		return
	case isLetter(c) || isDigit(c):
		// A word runs over letters and digits alike; its first character
		// says whether it is a name or a number ("12ab" is a bad number).
		j := i + 1
		for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
			j++
		}
		kind := tInt
		if isLetter(c) {
			kind = tIdent
		}
		emit(kind, i, j)
		lx.i = j
		return
	}
	two := ""
	if i+1 < len(src) {
		two = string(src[i : i+2])
	}
	k, n := tEOF, 0
	switch two {
	case "<-":
		k, n = tAssignArrow, 2
	case "->":
		k, n = tHandleArrow, 2
	case "<=":
		k, n = tLe, 2
	case ">=":
		k, n = tGe, 2
	case "==":
		k, n = tEq, 2
	case "!=":
		k, n = tNe, 2
	case "&&":
		k, n = tAnd, 2
	case "||":
		k, n = tOr, 2
	case "..":
		k, n = tDotDot, 2
	}
	if n == 0 {
		n = 1
		switch c {
		case ':':
			k = tColon
		case ';':
			k = tSemi
		case ',':
			k = tComma
		case '(':
			k = tLParen
		case '[':
			k = tLBrack
		case '{':
			k = tLBrace
		case '}':
			k = tRBrace
		case ')':
			k = tRParen
		case ']':
			k = tRBrack
		case '+':
			k = tPlus
		case '-':
			k = tMinus
		case '*':
			k = tStar
		case '/':
			k = tSlash
		case '%':
			k = tPercent
		case '!':
			k = tNot
		case '<':
			k = tLt
		case '>':
			k = tGt
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == '←' {
				emit(tAssignArrow, i, i+size)
			} else if r == utf8.RuneError && size <= 1 {
				errs.add(pos(i), fmt.Sprintf("invalid byte 0x%02x", c))
			} else {
				errs.add(pos(i), fmt.Sprintf("unexpected character %q", r))
			}
			if size < 1 {
				size = 1
			}
			lx.i = i + size
			return
		}
	}
	emit(k, i, i+n)
	lx.i = i + n
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
