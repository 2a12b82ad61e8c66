package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// What a project adds to one file's decision (decide_project.go): the
// build's flags of each C file from --compile-commands, and --html and
// --dot as directories of one page or graph per file (docs/cli.md,
// "Projects").

// compDBArgs reads the compilation database once and returns the flags
// of each file as decide's arguments (-I, then -D, in the build's order;
// they come before the command's own -I and -D, as for one file). A .pgas
// file has no preprocessor and takes none; a C file the database does not
// compile is that file's input error, not a file decided without its
// build's macros.
func compDBArgs(path string) (func(string) ([]string, error), error) {
	db, err := cfront.ReadCompDB(path)
	if err != nil {
		return nil, fmt.Errorf("--compile-commands: %v", err)
	}
	return func(file string) ([]string, error) {
		if !cfront.IsC(file) {
			return nil, nil
		}
		inc, def, ok, err := db.Flags(file)
		if err != nil {
			return nil, fmt.Errorf("--compile-commands %s: %v", path, err)
		}
		if !ok {
			return nil, fmt.Errorf("--compile-commands %s: no entry for %s (the build does not compile it; decide it alone with -I and -D)", path, file)
		}
		var args []string
		for _, i := range inc {
			args = append(args, "--include-dir="+i)
		}
		for _, d := range def {
			args = append(args, "--define="+d)
		}
		return args, nil
	}, nil
}

// mirrorName is the name of a file's page or graph under the project's
// output directory: the file's path as given, cleaned, without a leading
// '/', each ".." written "__", so that every page stays inside the
// directory.
func mirrorName(file string) string {
	p := filepath.ToSlash(filepath.Clean(file))
	p = strings.TrimLeft(p, "/")
	if v := filepath.VolumeName(p); v != "" {
		p = strings.TrimLeft(strings.TrimPrefix(p, v), "/")
	}
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if s == ".." {
			parts[i] = "__"
		}
	}
	return filepath.FromSlash(strings.Join(parts, "/"))
}

// projectDotPath is where --dot DIR puts a file's graph (report.DotPath
// then adds -N with a range); its directory is made.
func projectDotPath(dir, file string) (string, error) {
	p := filepath.Join(dir, mirrorName(file)+".dot")
	return p, os.MkdirAll(filepath.Dir(p), 0o755)
}

// writeProjectHTML writes --html DIR: a page per decided file, named
// after it (mirrorName + ".html"), and DIR/index.html with the summary
// table linking them. False when something could not be written (the
// message is printed).
func writeProjectHTML(dir string, files []report.File, rows []report.SummaryJSON, inputs []string, errOut *bytes.Buffer) bool {
	pages := map[string]string{}
	ok := true
	for _, f := range files {
		if f.Prog == nil {
			continue // not decided: the index says why
		}
		rel := mirrorName(f.Path) + ".html"
		var b bytes.Buffer
		err := report.WriteHTML(&b, f)
		if err == nil {
			err = writeUnder(dir, rel, b.Bytes(), inputs)
		}
		if err != nil {
			fmt.Fprintf(errOut, "pgasrob decide: --html: %v\n", err)
			ok = false
			continue
		}
		pages[f.Path] = rel
	}
	var b bytes.Buffer
	if err := report.WriteIndexHTML(&b, rows, pages); err != nil || writeUnder(dir, "index.html", b.Bytes(), inputs) != nil {
		fmt.Fprintf(errOut, "pgasrob decide: --html: cannot write %s\n", filepath.Join(dir, "index.html"))
		ok = false
	}
	return ok
}

func writeUnder(dir, rel string, data []byte, inputs []string) error {
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return writeOutput(p, data, nil, inputs...)
}

// projectArgs checks the project's output directories and returns the
// per-file flags: the build's (--compile-commands), then perFileArgs's.
func (c *decideCmd) projectArgs() (func(string) ([]string, error), error) {
	for _, f := range []string{*c.dot, *c.out.html} {
		if f == "-" {
			return nil, fmt.Errorf("with several files, --dot and --html name a directory (a graph or page per file), not \"-\"")
		}
		if st, err := os.Stat(f); f != "" && err == nil && !st.IsDir() {
			return nil, fmt.Errorf("with several files, --dot and --html name a directory (a graph or page per file); %s is a file", f)
		}
	}
	db := func(string) ([]string, error) { return nil, nil }
	if *c.b.c.compdb != "" {
		var err error
		if db, err = compDBArgs(*c.b.c.compdb); err != nil {
			return nil, err
		}
	}
	return func(file string) ([]string, error) {
		a, err := db(file)
		if err != nil {
			return nil, err
		}
		b, err := perFileArgs(file)
		return append(a, b...), err
	}, nil
}
