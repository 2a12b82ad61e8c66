// The file system the preprocessor sees: our headers (shmem.h and the C
// library, always ours: a build's own shmem.h would declare what the
// translation does not model), then the directory of the file and the
// -I directories, read from the host for "..." and <...> includes that
// our headers do not provide; nothing else of the host is ever read.

package cfront

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
)

// hostFS serves our headers from memory and files under roots from the
// host.
type hostFS struct {
	mem   fstest.MapFS
	roots []string // cleaned directories
}

func (h hostFS) Open(name string) (fs.File, error) {
	if strings.HasPrefix(name, includeDir+"/") {
		return h.mem.Open(name)
	}
	clean := filepath.Clean(filepath.FromSlash(name))
	for _, r := range h.roots {
		if rel, err := filepath.Rel(r, clean); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return os.Open(clean)
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// searchPaths are the include paths for a file: ours first (see above),
// then the file's directory ("@": cc's "directory of the including
// file") for "..." includes, then the -I directories.
func searchPaths(opt Options) (quoted, angle []string, roots []string) {
	quoted = []string{includeDir, "@"}
	angle = []string{includeDir}
	for _, d := range opt.IncludeDirs {
		d = filepath.Clean(d)
		quoted = append(quoted, d)
		angle = append(angle, d)
		roots = append(roots, d)
	}
	return quoted, angle, roots
}

// defines turns -D NAME[=VALUE] into #define lines (VALUE 1 by default,
// as a compiler does).
func defines(opt Options) (string, error) {
	var b strings.Builder
	for _, d := range opt.Defines {
		name, val, ok := strings.Cut(d, "=")
		if !ok {
			val = "1"
		}
		if !isIdent(name) {
			return "", fmt.Errorf("-D %s: not a macro name", d)
		}
		fmt.Fprintf(&b, "#define %s %s\n", name, val)
	}
	return b.String(), nil
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// ours reports whether a position is in our headers or predefined macros,
// whose declarations the translation knows by name; a declaration of the
// program (in its file or in a header of its own) is translated.
func ours(filename string) bool {
	return strings.HasPrefix(filename, includeDir+"/") || filename == "<predefined>"
}
