// compile_commands.json: the flags a real build gives a file (the JSON
// compilation database of Clang, written by CMake, Bear, Meson), read for
// the -I and -D the translation needs.

package cfront

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CompileCommand is one entry of a compilation database.
type CompileCommand struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// CompDB is a compilation database.
type CompDB []CompileCommand

// ReadCompDB reads a compile_commands.json file.
func ReadCompDB(path string) (CompDB, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var db CompDB
	if err := json.Unmarshal(b, &db); err != nil {
		return nil, fmt.Errorf("%s: not a compilation database (a JSON array of {directory, file, command or arguments}): %v", path, err)
	}
	return db, nil
}

// Flags returns the include directories (-I, -isystem, -iquote, made
// absolute against the entry's directory) and the macro definitions (-D)
// of file's entry, in order; ok is false when the database has no entry
// for it. Other flags (-std, -O, -W...) do not change the translation and
// are skipped; -U is refused, since the translation defines nothing a
// build could undefine except what -D gave.
func (db CompDB) Flags(file string) (includes, defines []string, ok bool, err error) {
	abs, _ := filepath.Abs(file)
	for _, c := range db {
		f := c.File
		if !filepath.IsAbs(f) {
			f = filepath.Join(c.Directory, f)
		}
		if filepath.Clean(f) != abs {
			continue
		}
		args := c.Arguments
		if len(args) == 0 {
			if args, err = SplitCommand(c.Command); err != nil {
				return nil, nil, true, fmt.Errorf("the command for %s: %v", file, err)
			}
		}
		includes, defines, err = compilerFlags(c.Directory, args)
		return includes, defines, true, err
	}
	return nil, nil, false, nil
}

// compilerFlags picks -I and -D out of a compiler's command line.
func compilerFlags(dir string, args []string) (includes, defines []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, p := range []string{"-I", "-isystem", "-iquote", "-D", "-U"} {
			if !strings.HasPrefix(a, p) {
				continue
			}
			v := strings.TrimPrefix(a, p)
			if v == "" {
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("%s without its argument", p)
				}
				i++
				v = args[i]
			}
			switch p {
			case "-D":
				defines = append(defines, v)
			case "-U":
				return nil, nil, fmt.Errorf("-U%s: undefining a macro is not supported; remove it or give the flags with -I and -D", v)
			default:
				if !filepath.IsAbs(v) {
					v = filepath.Join(dir, v)
				}
				includes = append(includes, v)
			}
			break
		}
	}
	return includes, defines, nil
}

// SplitCommand splits a command line as a POSIX shell does for words:
// blanks separate, single quotes keep everything, double quotes keep all
// but \" and \\, a backslash outside quotes keeps the next character.
func SplitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
