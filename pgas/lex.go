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
)

var tokNames = [...]string{
	tEOF: "end of file", tNewline: "end of line", tIdent: "name", tInt: "number",
	tAssignArrow: "<-", tHandleArrow: "->", tColon: ":", tSemi: ";", tComma: ",",
	tLParen: "(", tRParen: ")", tLBrack: "[", tRBrack: "]", tPlus: "+", tMinus: "-",
	tStar: "*", tSlash: "/", tPercent: "%", tNot: "!", tLt: "<", tLe: "<=", tGt: ">",
	tGe: ">=", tEq: "==", tNe: "!=", tAnd: "&&", tOr: "||",
	tLBrace: "{", tRBrace: "}",
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
func lex(filename string, src []byte, errs *ErrorList) []token {
	var toks []token
	line, lineStart := 1, 0
	pos := func(off int) Pos { return Pos{File: filename, Line: line, Col: off - lineStart + 1} }
	emit := func(k tokKind, lo, hi int) {
		toks = append(toks, token{kind: k, pos: pos(lo), lo: lo, hi: hi, text: string(src[lo:hi])})
	}
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			emit(tNewline, i, i+1)
			i++
			line, lineStart = line+1, i
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case isLetter(c):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			emit(tIdent, i, j)
			i = j
			continue
		case isDigit(c):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			emit(tInt, i, j)
			i = j
			continue
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
				i += size
				continue
			}
		}
		emit(k, i, i+n)
		i += n
	}
	emit(tNewline, len(src), len(src))
	toks = append(toks, token{kind: tEOF, pos: pos(len(src)), lo: len(src), hi: len(src)})
	return toks
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
