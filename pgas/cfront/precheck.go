// Structural checks before cc reads a file: the shapes on which cc's time
// or memory grows far faster than the file (an 800 KB line, ten thousand
// nested parentheses) are refused by name, at their position, in one
// linear scan. Programs of the subset are far inside both limits.

package cfront

import (
	"bytes"
	"fmt"

	"github.com/pgasrob/pgasrob/pgas"
)

const (
	maxLineBytes = 64 << 10 // bytes in one physical line
	maxNesting   = 256      // open (, [ and { at once
)

// precheck scans src once, outside comments and literals, for a line
// longer than maxLineBytes and for brackets nested deeper than maxNesting.
func precheck(name string, src []byte) error {
	line, col := 1, 0
	lineStart := 0
	depth := 0
	const (
		code = iota
		lineComment
		blockComment
		str
		chr
	)
	state := code
	for i := 0; i < len(src); i++ {
		c := src[i]
		col = i - lineStart + 1
		if c == '\n' {
			if col > maxLineBytes {
				return refuseAt(name, line, 1, fmt.Sprintf("line %d has %d bytes, more than the %d the C front end reads in one line; break it into several lines", line, col-1, maxLineBytes))
			}
			line, lineStart = line+1, i+1
			if state == lineComment || state == str || state == chr {
				state = code
			}
			continue
		}
		switch state {
		case lineComment:
		case blockComment:
			if c == '*' && i+1 < len(src) && src[i+1] == '/' {
				state, i = code, i+1
			}
		case str, chr:
			q := byte('"')
			if state == chr {
				q = '\''
			}
			if c == '\\' && i+1 < len(src) && src[i+1] != '\n' {
				i++
			} else if c == q {
				state = code
			}
		default:
			switch {
			case c == '/' && i+1 < len(src) && src[i+1] == '/':
				state = lineComment
			case c == '/' && i+1 < len(src) && src[i+1] == '*':
				state, i = blockComment, i+1
			case c == '"':
				state = str
			case c == '\'':
				state = chr
			case c == '(' || c == '[' || c == '{':
				if depth++; depth > maxNesting {
					return refuseAt(name, line, col, fmt.Sprintf("more than %d parentheses, brackets and braces open at once; name intermediate results instead of nesting them", maxNesting))
				}
			case c == ')' || c == ']' || c == '}':
				depth = max(0, depth-1)
			}
		}
	}
	if len(src)-lineStart > maxLineBytes {
		return refuseAt(name, line, 1, fmt.Sprintf("line %d has %d bytes, more than the %d the C front end reads in one line; break it into several lines", line, len(src)-lineStart, maxLineBytes))
	}
	return nil
}

func refuseAt(name string, line, col int, msg string) error {
	return pgas.ErrorList{{Pos: pgas.Pos{File: name, Line: line, Col: col}, Msg: msg}}
}

// codeOccurrences lists the positions of word in src outside comments and
// literals, where it is a whole identifier.
func codeOccurrences(name string, src []byte, word string) []pgas.Pos {
	var out []pgas.Pos
	line, lineStart := 1, 0
	inBlock, inLine, quote := false, false, byte(0)
	isID := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line, lineStart, inLine, quote = line+1, i+1, false, 0
		case inLine:
		case inBlock:
			if c == '*' && i+1 < len(src) && src[i+1] == '/' {
				inBlock, i = false, i+1
			}
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			inLine = true
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			inBlock, i = true, i+1
		case c == '"' || c == '\'':
			quote = c
		case bytes.HasPrefix(src[i:], []byte(word)) && (i == 0 || !isID(src[i-1])) && (i+len(word) == len(src) || !isID(src[i+len(word)])):
			out = append(out, pgas.Pos{File: name, Line: line, Col: i - lineStart + 1})
			i += len(word) - 1
		}
	}
	return out
}
