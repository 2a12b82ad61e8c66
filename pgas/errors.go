package pgas

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Error is a static error in a .pgas file: a syntax error or a violated
// rule of the checker.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is the error Compile returns for user mistakes: every error it
// found, sorted by position, one per line when printed.
type ErrorList []*Error

func (l *ErrorList) add(pos Pos, msg string) {
	if len(*l) >= maxKept {
		// A megabyte of bad bytes is a million errors of which only
		// maxErrors are shown (issue 29).
		return
	}
	*l = append(*l, &Error{Pos: pos, Msg: clipMessage(msg)})
}

// maxKept bounds the errors kept. They are found mostly in source order,
// so the first maxErrors by position are among them.
const maxKept = 1000

// maxMessage bounds one error message: a message quotes the offending
// token, which may be a megabyte long.
const maxMessage = 200

// clipMessage keeps msg within maxMessage bytes, the note that says it
// was cut included, cutting at a rune.
func clipMessage(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	note := fmt.Sprintf("... (message of %d bytes cut)", len(msg))
	cut := maxMessage - len(note)
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + note
}

// MaxErrors keeps the output readable when a file is not .pgas at all.
const MaxErrors = 30

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i == MaxErrors {
			b.WriteString("\ntoo many errors")
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// sortDedup orders the errors by position and drops exact repeats, which
// arise when one mistake is seen from two statements.
func (l *ErrorList) sortDedup() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i].Pos, s[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	out := s[:0]
	for i, e := range s {
		if i > 0 && e.Pos == s[i-1].Pos && e.Msg == s[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// err returns the list as an error, or nil when it is empty.
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	l.sortDedup()
	return l
}
