package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// The layers of pgasrob are written down once, as data: the "Imports:"
// line of every package's doc.go says what the package may import. This
// test holds the code to those lines the way go/build/deps_test.go holds
// the standard library to its table, with go list as the judge of what a
// package does import. It lives in the command because the command sits on
// top of every layer.
//
// An Imports line is the sentence after "Imports:" (up to a full stop or a
// semicolon), with anything in parentheses left out as commentary. In it:
//
//   - "the standard library" allows every standard package, and a
//     standard package named by its path ("sync/atomic") allows that one;
//   - a package of the module, written with or without "pgasrob/"
//     ("pgas/oracle", "pgasrob/pgas/oracle"), allows that package;
//   - a path ending in "/..." allows the package and every package under
//     it ("pgasrob/..." is the whole module);
//   - a path whose first element has a dot (github.com/spf13/pflag) allows
//     that third-party package or module and everything under it;
//   - a word with a slash that is none of these is an error, so that a
//     line naming a package that was moved or renamed does not go stale;
//   - other words are prose.
//
// Direct imports are checked; what a package reaches through them is
// checked at their own lines.

const thisModule = "pgasrob"

// allowance is what one Imports line allows.
type allowance struct {
	std   bool
	exact map[string]bool // import paths
	trees []string        // import paths allowed with everything under them
}

func (a allowance) allows(path string, standard bool) bool {
	if a.exact[path] || standard && a.std {
		return true
	}
	if standard {
		return false
	}
	for _, t := range a.trees {
		if path == t || strings.HasPrefix(path, t+"/") {
			return true
		}
	}
	return false
}

// importsSentence returns the sentence of doc after "Imports:", with
// parenthesised commentary removed and "/..." kept whole.
func importsSentence(doc string) (string, bool) {
	_, s, ok := strings.Cut(doc, "Imports:")
	if !ok {
		return "", false
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	const tree = "/\x00" // stands for "/..." while full stops are looked for
	s = strings.ReplaceAll(b.String(), "/...", tree)
	for i, r := range s {
		if r == ';' || r == '.' && (i+1 == len(s) || unicode.IsSpace(rune(s[i+1]))) {
			s = s[:i]
			break
		}
	}
	return strings.ReplaceAll(s, tree, "/..."), true
}

// parseImports reads the Imports line of doc; module lists the packages
// of the module, which bare names are resolved against, and std the
// standard packages the module reaches.
func parseImports(doc string, module, std map[string]bool) (allowance, error) {
	s, ok := importsSentence(doc)
	if !ok {
		return allowance{}, errors.New(`no "Imports:" line`)
	}
	a := allowance{exact: map[string]bool{}}
	a.std = strings.Contains(strings.Join(strings.Fields(s), " "), "standard library")
	resolve := func(w string) (string, bool) {
		switch {
		case module[w] || std[w]:
			return w, true
		case module[thisModule+"/"+w]:
			return thisModule + "/" + w, true
		case strings.Contains(strings.Split(w, "/")[0], "."):
			return w, true // third party
		}
		return "", false
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		w = strings.TrimRight(w, ":")
		if root, ok := strings.CutSuffix(w, "/..."); ok {
			p, ok := resolve(root)
			if root == thisModule {
				p, ok = root, true
			}
			if !ok {
				return a, fmt.Errorf("%q names no package of the module", w)
			}
			a.trees = append(a.trees, p)
			continue
		}
		p, ok := resolve(w)
		switch {
		case ok && (module[p] || std[p]):
			a.exact[p] = true
		case ok:
			a.trees = append(a.trees, p)
		case strings.Contains(w, "/"):
			return a, fmt.Errorf("%q names no package of the module", w)
		}
	}
	return a, nil
}

// listedPackage is what go list says about one package.
type listedPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	Imports    []string
}

// goList runs go list -deps over the whole module, so that every import
// comes with go's own word on whether it is a standard package.
func goList(t *testing.T) []listedPackage {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not available (%v): the layers cannot be listed", err)
	}
	cmd := exec.Command(gocmd, "list", "-deps", "-json=ImportPath,Dir,Standard,GoFiles,Imports", thisModule+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// packageDoc returns the doc comment of the doc.go of p and where its
// Imports line is (file:line, the file named from the module's root).
func packageDoc(p listedPackage) (doc, pos string, err error) {
	name := filepath.Join(p.Dir, "doc.go")
	short := filepath.Join(filepath.FromSlash(strings.TrimPrefix(p.ImportPath, thisModule+"/")), "doc.go")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return "", short, err
	}
	if f.Doc == nil {
		return "", short, errors.New("doc.go has no package comment")
	}
	line := fset.Position(f.Doc.Pos()).Line
	for _, c := range f.Doc.List {
		if strings.Contains(c.Text, "Imports:") {
			line = fset.Position(c.Pos()).Line
		}
	}
	return f.Doc.Text(), fmt.Sprintf("%s:%d", short, line), nil
}

// TestImportsLines checks every package of the module against the Imports
// line of its doc.go.
func TestImportsLines(t *testing.T) {
	pkgs := goList(t)
	standard := map[string]bool{}
	module := map[string]bool{}
	for _, p := range pkgs {
		if p.Standard {
			standard[p.ImportPath] = true
		}
		if p.ImportPath == thisModule || strings.HasPrefix(p.ImportPath, thisModule+"/") {
			module[p.ImportPath] = true
		}
	}
	checked := 0
	for _, p := range pkgs {
		if !module[p.ImportPath] || len(p.GoFiles) == 0 {
			continue // test-only packages (proofs_test) import what they test
		}
		doc, pos, err := packageDoc(p)
		if err != nil {
			t.Errorf("%s: %s: %v", pos, p.ImportPath, err)
			continue
		}
		a, err := parseImports(doc, module, standard)
		if err != nil {
			t.Errorf("%s: %s: Imports line: %v", pos, p.ImportPath, err)
			continue
		}
		var denied []string
		for _, imp := range p.Imports {
			if !a.allows(imp, standard[imp]) {
				denied = append(denied, imp)
			}
		}
		if denied != nil {
			t.Errorf("%s: %s imports %s, which its Imports line does not allow", pos, p.ImportPath, strings.Join(denied, ", "))
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d packages checked: go list did not list the module", checked)
	}
}

// TestImportsLineParse runs the reading of Imports lines, and the verdict
// on an import, on lines that allow too little, too much or name a
// package that does not exist.
func TestImportsLineParse(t *testing.T) {
	module := map[string]bool{"pgasrob/pgas": true, "pgasrob/pgas/oracle": true, "pgasrob/automata": true, "pgasrob/automata/shard": true, "pgasrob/tso": true}
	stdlib := map[string]bool{"fmt": true, "sync": true, "sync/atomic": true}
	type imp struct {
		path     string
		standard bool
	}
	std := imp{"fmt", true}
	tests := []struct {
		line    string
		allowed []imp
		denied  []imp
		bad     bool // the line itself is wrong
	}{
		{line: "Imports: the standard library only.", allowed: []imp{std}, denied: []imp{{"pgasrob/pgas", false}, {"github.com/spf13/pflag", false}}},
		{line: "Imports: pgas (program, automata) and\n the standard library; tso reads what it writes.",
			allowed: []imp{std, {"pgasrob/pgas", false}}, denied: []imp{{"pgasrob/automata", false}, {"pgasrob/tso", false}, {"pgasrob/pgas/oracle", false}}},
		{line: "Imports: pgasrob/pgas/oracle and automata only.", allowed: []imp{{"pgasrob/pgas/oracle", false}, {"pgasrob/automata", false}},
			denied: []imp{std, {"pgasrob/pgas", false}, {"pgasrob/automata/shard", false}}},
		{line: "Imports: automata/..., github.com/bits-and-blooms/bitset and the standard library.",
			allowed: []imp{std, {"pgasrob/automata", false}, {"pgasrob/automata/shard", false}, {"github.com/bits-and-blooms/bitset", false}},
			denied:  []imp{{"pgasrob/pgas", false}, {"github.com/spf13/pflag", false}}},
		{line: "Imports: pgasrob/..., github.com/spf13/pflag and the standard library.",
			allowed: []imp{std, {"pgasrob/tso", false}, {"pgasrob/pgas/oracle", false}, {"github.com/spf13/pflag", false}}},
		{line: "Imports: sync/atomic and pgasrob/automata.", allowed: []imp{{"sync/atomic", true}, {"pgasrob/automata", false}},
			denied: []imp{std, {"sync", true}}},
		{line: "Imports: no package of pgasrob, the standard library only.", allowed: []imp{std}, denied: []imp{{"pgasrob/pgas", false}}},
		{line: "Imports: pgas/gen and the standard library.", bad: true},
		{line: "Imports: tso/oracle/... only.", bad: true},
		{line: "Package x does things.", bad: true},
	}
	for _, tc := range tests {
		a, err := parseImports(tc.line, module, stdlib)
		if (err != nil) != tc.bad {
			t.Errorf("%q: error %v, want an error: %v", tc.line, err, tc.bad)
			continue
		}
		for _, i := range tc.allowed {
			if !a.allows(i.path, i.standard) {
				t.Errorf("%q does not allow %s", tc.line, i.path)
			}
		}
		for _, i := range tc.denied {
			if a.allows(i.path, i.standard) {
				t.Errorf("%q allows %s", tc.line, i.path)
			}
		}
	}
}
