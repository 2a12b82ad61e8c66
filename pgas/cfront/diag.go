// Diagnostics: errors of the C parser turned into positioned pgas errors
// in our words (no file:line of a dependency, no name of its types), and
// the error types of the front end: a budget that ran out, an internal
// error.

package cfront

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// BudgetError is returned when the context of Options ends the work: a
// time or memory budget, or a signal. The commands answer UNKNOWN (exit
// 3) and name the phase.
type BudgetError struct {
	Phase string // "preprocessing", "parsing and type-checking", "translating", ...
	Cause error  // the context's cause
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%v while %s the C program", e.Cause, e.Phase)
}

func (e *BudgetError) Unwrap() error { return e.Cause }

// InternalError is a fault of the front end itself (please report): the
// commands exit 4 on it, never 2.
type InternalError struct {
	Pos pgas.Pos
	Msg string
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("%v: internal error of the C front end (please report): %s", e.Pos, e.Msg)
}

// cErrors turns cc's error text ("file:line:col: msg" per line) into a
// pgas.ErrorList, so that C errors print and sort like .pgas ones.
func cErrors(name string, err error) error {
	var list pgas.ErrorList
	seen := map[string]bool{}
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		pos := leadingPos(name, &line)
		msg := cleanMessage(line)
		if msg == "" || seen[pos.String()+msg] {
			continue
		}
		seen[pos.String()+msg] = true
		list = append(list, &pgas.Error{Pos: pos, Msg: msg})
		if len(list) == pgas.MaxErrors {
			break
		}
	}
	if len(list) == 0 {
		return pgas.ErrorList{{Pos: pgas.Pos{File: name, Line: 1, Col: 1}, Msg: "the C parser cannot read this file"}}
	}
	return list
}

var (
	// "(check.go:5317:check:)", "(cpp.go:12:)": where in cc a message
	// was made.
	goSiteRE = regexp.MustCompile(`\s*\(?[A-Za-z0-9_]+\.go:[0-9]+(:[A-Za-z0-9_.]*)*:?\)?`)
	// "strconv.ParseUint: parsing "99999999999999999999": value out of range"
	strconvRE = regexp.MustCompile(`strconv\.Parse[A-Za-z]+: parsing ("[^"]*"): (.*)`)
	// "macro expansion limit exceeded (Config.ExpansionLimit 4194304)"
	expansionRE = regexp.MustCompile(`macro expansion limit exceeded.*`)
	// "TODO *cc.PrimaryExpression missed/failed type check"
	todoRE = regexp.MustCompile(`TODO\s+\*?cc\.[A-Za-z]+.*`)
	// any other name of cc's types: "*cc.Declarator", "cc.Token"
	ccTypeRE = regexp.MustCompile(`\*?cc\.[A-Z][A-Za-z]*`)
)

// cleanMessage rewrites one message of cc in our words; "" drops it (a
// follow-up of an error already reported at the same place).
func cleanMessage(msg string) string {
	if m := strconvRE.FindStringSubmatch(msg); m != nil {
		why := "not a valid number"
		if strings.Contains(m[2], "out of range") {
			why = "out of the range of every integer type"
		}
		msg = strings.Replace(msg, m[0], "integer constant "+m[1]+" is "+why, 1)
	}
	if expansionRE.MatchString(msg) {
		return expansionRE.ReplaceAllString(msg, fmt.Sprintf("the macros expand to more than %d tokens by here, pgasrob's limit for one file: simplify the macros or check fewer instances of them", expansionLimit))
	}
	if todoRE.MatchString(msg) {
		return ""
	}
	msg = goSiteRE.ReplaceAllString(msg, "")
	msg = ccTypeRE.ReplaceAllString(msg, "construct")
	msg = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(msg), ":"))
	if msg == "" {
		return ""
	}
	return msg
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

// sortErrors orders errors by position (file, line, column), stably.
func sortErrors(l pgas.ErrorList) {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// isBudget reports whether err is a budget's end.
func isBudget(err error) bool {
	var b *BudgetError
	return errors.As(err, &b)
}
