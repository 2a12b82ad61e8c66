// Structural checks before cc reads a file: the shapes on which cc's time
// or memory grows far faster than the file (an 800 KB line, ten thousand
// nested parentheses) are refused by name, at their position, in one
// linear scan. Programs of the subset are far inside both limits.

package cfront

import (
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
