package main

// repair for C programs (docs/shmem.md, "repair"): the repair of the
// translation, mapped back to the C text, re-translated and decided again
// before it is shown.

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// repairC repairs the C program src: repair.Repair on its translation,
// whose insertions (a fence, a quiet, a blocking call, an atomic swap for
// a put) become edits of the C lines they come from. The edited C is
// translated again and must be robust for every N (and pass the oracle)
// before it is returned as res.Source; otherwise the repair is reported
// as one that cannot be written in C.
func repairC(file string, src []byte, ns []int, copt cfront.Options, opt repair.Options, races bool) (*repair.Result, error) {
	window, err := windowFor(file, src, ns, copt, opt.Decide)
	if err != nil {
		return nil, err
	}
	if races {
		if window, err = raceWindowFor(file, src, ns, window, opt); err != nil {
			return nil, err
		}
	}
	tr, err := cfront.Translate(file, src, window)
	if err != nil {
		return nil, err
	}
	fix := repair.Repair
	if races {
		fix = repair.RepairRace
	}
	res, err := fix(file, tr.Source, ns, opt)
	if err != nil || res.Verdict != repair.Repaired {
		return res, err
	}
	fixed, texts, at, err := cEdits(file, src, tr, res.Insertions)
	if err != nil {
		res.Verdict, res.Reason = repair.NoRepair, "the repair of the translation cannot be written in C: "+err.Error()
		return res, nil
	}
	for i := range res.Insertions {
		// positions and texts in C terms, for the text and the JSON
		in := &res.Insertions[i]
		in.Text = texts[i]
		if in.At.Line > 0 {
			in.At = at[i]
		}
		if in.Op.Line > 0 {
			in.Op = at[i]
		}
		if in.Queue != "" {
			if n, ok := tr.Names[in.Queue]; ok {
				in.Queue = n
			}
		}
	}
	p, err := cfront.Compile(file, fixed, window)
	if err != nil {
		return res, fmt.Errorf("%w: the repaired C does not compile: %v", repair.ErrInternal, err)
	}
	res.After, res.Oracle, res.RaceAfter = nil, nil, nil
	if races {
		return res, recheckRaceC(res, p, ns, fixed, texts, opt)
	}
	for _, n := range ns {
		r, err := cycles.Decide(p, n, opt.Decide)
		if err != nil || r.Verdict != cycles.Robust {
			res.Verdict, res.Reason = repair.NoRepair, fmt.Sprintf("the repair written in C is not robust for N = %d (the translation places it differently); the repair of the translation was: %s", n, strings.Join(texts, "; "))
			return res, nil
		}
		res.After = append(res.After, r)
		o := oracle.Explore(p, n, opt.Oracle)
		if o.Violation != nil || o.Err != nil {
			return res, fmt.Errorf("%w: the oracle contradicts the repaired C for N = %d", repair.ErrInternal, n)
		}
		res.Oracle = append(res.Oracle, repair.OracleCheck{N: n, Complete: o.Complete, Truncated: o.Truncated, Explored: o.Explored})
	}
	res.Source = fixed
	return res, nil
}

// cEdit is one edit of the C text: a line inserted before line (from 1),
// or line's text replaced.
type cEdit struct {
	line    int
	insert  string // inserted before line, with line's indentation
	replace string // new text of line, if not empty
}

// cEdits maps the insertions of a repair of the translation tr to edits of
// the C source, and returns the edited source, each insertion in C terms
// and the C line it applies to.
func cEdits(file string, src []byte, tr *cfront.Result, ins []repair.Insertion) ([]byte, []string, []pgas.Pos, error) {
	lines := strings.SplitAfter(string(src), "\n")
	var edits []cEdit
	var texts []string
	var at []pgas.Pos
	for _, in := range ins {
		e, text, err := cEditOf(file, lines, tr, in)
		if err != nil {
			return nil, nil, nil, err
		}
		at = append(at, pgas.Pos{File: file, Line: e.line, Col: 1})
		if e.replace != "" {
			lines[e.line-1] = e.replace
		} else {
			edits = append(edits, e)
		}
		texts = append(texts, text)
	}
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].line > edits[b].line })
	for _, e := range edits {
		l := e.line - 1
		lines = append(lines[:l], append([]string{e.insert}, lines[l:]...)...)
	}
	return []byte(strings.Join(lines, "")), texts, at, nil
}

func cEditOf(file string, lines []string, tr *cfront.Result, in repair.Insertion) (cEdit, string, error) {
	switch in.Kind.String() {
	case "fence", "quiet":
		o, err := cOrigin(file, lines, tr, in.At.Line)
		if err != nil {
			return cEdit{}, "", err
		}
		call, err := cSync(in.Kind.String(), in.Queue, tr)
		if err != nil {
			return cEdit{}, "", err
		}
		line := lines[o.Pos.Line-1]
		if strings.TrimLeft(line, " \t") != line[o.Pos.Col-1:] {
			return cEdit{}, "", fmt.Errorf("%s before %s, which does not start its line %d", call, o.Text, o.Pos.Line)
		}
		if prev := prevCode(lines, o.Pos.Line); prev != "" && !strings.ContainsAny(prev[len(prev)-1:], ";{}:") {
			return cEdit{}, "", fmt.Errorf("%s before line %d would become the body of the statement on the line before it", call, o.Pos.Line)
		}
		indent := line[:o.Pos.Col-1]
		return cEdit{line: o.Pos.Line, insert: indent + call + ";\n"},
			fmt.Sprintf("%s before line %d (%s)", call, o.Pos.Line, o.Text), nil
	case "blocking", "atomic":
		o, err := cOrigin(file, lines, tr, in.Op.Line)
		if err != nil {
			return cEdit{}, "", err
		}
		line := lines[o.Pos.Line-1]
		at := o.Pos.Col - 1
		if !strings.HasPrefix(line[at:], o.Text) {
			return cEdit{}, "", fmt.Errorf("the call at line %d is not written on one line", o.Pos.Line)
		}
		name, rest, ok := strings.Cut(o.Text, "(")
		var fixed string
		switch {
		case !ok:
		case in.Kind.String() == "blocking" && strings.HasSuffix(name, "_nbi"):
			fixed = strings.TrimSuffix(name, "_nbi") + "(" + rest
		case in.Kind.String() == "atomic" && strings.HasSuffix(name, "_p"):
			fixed = strings.TrimSuffix(name, "_p") + "_atomic_swap(" + rest
		}
		if fixed == "" {
			return cEdit{}, "", fmt.Errorf("cannot make %s %s", o.Text, in.Kind)
		}
		return cEdit{line: o.Pos.Line, replace: line[:at] + fixed + line[at+len(o.Text):]},
			fmt.Sprintf("%s in place of %s at line %d", fixed, o.Text, o.Pos.Line), nil
	}
	return cEdit{}, "", fmt.Errorf("%s has no C form", in.Text)
}

// cOrigin is the C construct a line of the translation comes from.
func cOrigin(file string, lines []string, tr *cfront.Result, line int) (cfront.Origin, error) {
	o, ok := tr.Origin(line)
	if !ok || o.Pos.File != file || o.Pos.Line < 1 || o.Pos.Line > len(lines) || o.Pos.Col < 1 ||
		o.Pos.Col > len(lines[o.Pos.Line-1]) || o.Text == filepath.Base(file) {
		return cfront.Origin{}, fmt.Errorf("line %d of the translation has no C statement to go before", line)
	}
	return o, nil
}

// cSync is the C call of a fence or quiet on the context named ctx in the
// translation.
func cSync(kind, ctx string, tr *cfront.Result) (string, error) {
	name, ok := tr.Names[ctx]
	if !ok {
		name = ctx // a context of the program, under its own name
	}
	switch {
	case name == "SHMEM_CTX_DEFAULT":
		return "shmem_" + kind + "()", nil
	case name == "" || strings.HasPrefix(name, "("):
		return "", fmt.Errorf("%s on a context the C program cannot name (%s)", kind, ctx)
	}
	return "shmem_ctx_" + kind + "(" + name + ")", nil
}

// prevCode is the last line before line n with code on it, trimmed and
// without a trailing comment; a preprocessor line counts as ending a
// statement. (A comment-only line is skipped; "//" or "/*" inside a
// string literal would be taken for a comment, which at worst refuses an
// insertion.)
func prevCode(lines []string, n int) string {
	for i := n - 2; i >= 0; i-- {
		s := strings.TrimSpace(lines[i])
		if strings.HasPrefix(s, "#") {
			return ";"
		}
		if j := strings.Index(s, "//"); j >= 0 {
			s = strings.TrimSpace(s[:j])
		}
		for strings.HasSuffix(s, "*/") {
			j := strings.LastIndex(s, "/*")
			if j < 0 {
				return "*/" // the end of a comment begun on an earlier line: refuse
			}
			s = strings.TrimSpace(s[:j])
		}
		if s != "" {
			return s
		}
	}
	return ""
}
