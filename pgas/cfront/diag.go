// Diagnostics: errors of the C parser turned into positioned pgas errors.

package cfront

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

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
