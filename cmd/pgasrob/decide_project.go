package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// decide on a project: several files, or directories with -r. Each file
// is decided as "pgasrob decide FILE" would be, with the command's flags
// and the file's own (perFileArgs), in parallel within --jobs; then the
// summary table, the most severe exit code, and one SARIF file for all.

// projectSchema versions the --json output of a project.
const projectSchema = "pgasrob/decide-project/v1"

// projectJSON is the --json output of a project (docs/cli.md).
type projectJSON struct {
	Schema   string               `json:"schema"`
	Files    []decideJSON         `json:"files"`
	Summary  []report.SummaryJSON `json:"summary"`
	Verdict  string               `json:"verdict"`
	ExitCode int                  `json:"exit_code"`
}

// projectOnly are decide's flags that concern the whole project, not
// passed on to each file's decision.
var projectOnly = []string{"recursive", "json", "format", "sarif", "html", "jobs", "dot", "compile-commands"}

// perFileArgs gives the flags of one file beyond the command's and its
// build's (--compile-commands, compDBArgs): none; tests set it.
var perFileArgs = func(path string) ([]string, error) { return nil, nil }

// projectFiles says whether args ask for a project, and lists its files:
// more than one FILE, or -r. It parses args on a flag set of its own,
// printing nothing: a wrong flag is reported by the single-file path. A
// directory alone is a project too, so that it is told to give -r.
func projectFiles(args []string) ([]string, bool) {
	c := newDecideCmd(io.Discard)
	if c.fs.Parse(args) != nil {
		return nil, false
	}
	dir := false
	if c.fs.NArg() == 1 {
		st, err := os.Stat(c.fs.Arg(0))
		dir = err == nil && st.IsDir()
	}
	if c.fs.NArg() < 2 && !*c.recursive && !dir {
		return nil, false
	}
	return c.fs.Args(), true
}

// expand lists the programs named by args: files as given, directories
// (with -r) searched for .c and .pgas files, each once, in order.
func expand(args []string, recursive bool) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			add(a) // a missing file is that file's input error
			continue
		}
		if !recursive {
			return nil, fmt.Errorf("%s is a directory: give -r to decide the programs under it", a)
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != a && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if !d.IsDir() && (cfront.IsC(p) || strings.EqualFold(filepath.Ext(p), ".pgas")) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(found)
		for _, f := range found {
			add(f)
		}
	}
	if len(files) == 0 {
		return nil, errors.New("no .c or .pgas file to decide")
	}
	return files, nil
}

// commonArgs writes the flags given, but the project's own, back as
// arguments for each file's decision.
func commonArgs(fs *pflag.FlagSet) []string {
	var out []string
	fs.Visit(func(f *pflag.Flag) {
		if slices.Contains(projectOnly, f.Name) {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return out
}

// fileRun is one file of a project: its decision and what it printed.
type fileRun struct {
	file    report.File
	json    decideJSON
	text    bytes.Buffer // its output, as for one file
	code    int
	elapsed time.Duration
	done    chan struct{}
}

func runDecideProject(args, paths []string, stdout, stderr io.Writer) int {
	c := newDecideCmd(stderr)
	if done, code := parseFlags(c.fs, args); done {
		return code
	}
	if *c.crit != "robustness" && *c.crit != "race" && *c.crit != "all" {
		return usageError(stderr, "decide", fmt.Errorf("--criterion must be robustness, race or all, not %q", *c.crit))
	}
	for _, f := range []string{"shard", "via"} {
		if given(c.fs.Lookup(f)) {
			return usageError(stderr, "decide", fmt.Errorf("--%s goes with one FILE, not a project of %d", f, len(paths)))
		}
	}
	if *c.b.n == "" {
		return usageError(stderr, "decide", fmt.Errorf("missing -n N (the number of ranks, or a range like 2..4)"))
	}
	if *c.b.jobs < 1 || *c.b.jobs > 1024 {
		return usageError(stderr, "decide", fmt.Errorf("--jobs must be in 1..1024"))
	}
	if err := c.out.check(*c.asJSON, ""); err != nil {
		return usageError(stderr, "decide", err)
	}
	files, err := expand(paths, *c.recursive)
	if err != nil {
		return usageError(stderr, "decide", err)
	}
	fileArgs, err := c.projectArgs()
	if err != nil {
		return usageError(stderr, "decide", err)
	}
	common := commonArgs(c.fs)
	workers := min(*c.b.jobs, len(files))
	perFile := max(1, *c.b.jobs/workers)
	runs := make([]*fileRun, len(files))
	for i := range runs {
		runs[i] = &fileRun{done: make(chan struct{})}
	}
	ctx, stop := interruptContext()
	defer stop()
	prog := newProgress(stderr)
	var mu sync.Mutex
	started, finished := 0, 0
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				r := runs[i]
				if ctx.Err() != nil {
					r.interrupted(files[i], automata.StopReason(ctx))
				} else {
					r.decide(files[i], common, perFile, c.out, fileArgs, *c.dot)
				}
				mu.Lock()
				finished++
				prog.step(progressStep{cmd: "decide", what: "files", done: finished, total: len(files), states: -1,
					extra: fmt.Sprintf("%d running", started-finished)})
				mu.Unlock()
				close(r.done)
			}
		})
	}
	go func() {
		for i := range files {
			mu.Lock()
			started++
			mu.Unlock()
			next <- i
		}
		close(next)
	}()
	return finishProject(c, runs, stdout, stderr, prog, &wg, start)
}

// finishProject prints each file's output in the order of the files as
// soon as it is there, then the summary, and writes the SARIF file.
func finishProject(c *decideCmd, runs []*fileRun, stdout, stderr io.Writer, prog *progressLine, wg *sync.WaitGroup, start time.Time) int {
	out := projectJSON{Schema: projectSchema, Files: []decideJSON{}, Summary: []report.SummaryJSON{}}
	var codes []int
	var files []report.File
	for _, r := range runs {
		<-r.done
		if !*c.asJSON && !c.out.sarifStdout() {
			prog.clear()
			_, _ = stdout.Write(r.text.Bytes())
		}
		codes = append(codes, r.code)
		files = append(files, r.file)
		out.Files = append(out.Files, r.json)
	}
	wg.Wait()
	prog.clear()
	out.Summary = report.Summary(files)
	code := overallCode(codes)
	if !c.out.writeSARIF(files, stdout, stderr) && code != exitInternal {
		code = exitUsage
	}
	var htmlErr bytes.Buffer
	if *c.out.html != "" && !writeProjectHTML(*c.out.html, files, out.Summary, nil, &htmlErr) && code != exitInternal {
		code = exitUsage
	}
	_, _ = stderr.Write(htmlErr.Bytes())
	out.Verdict, out.ExitCode = projectVerdict(code, files), code
	if *c.crit == "race" && out.Verdict != "input error" {
		out.Verdict = raceOverallVerdict(code)
	}
	if *c.asJSON {
		writeJSON(stdout, out)
		return code
	}
	if !c.out.gcc() && !c.out.sarifStdout() {
		fmt.Fprintln(stdout)
		report.WriteSummary(stdout, out.Summary)
		noun := "files"
		if len(runs) == 1 {
			noun = "file"
		}
		fmt.Fprintf(stdout, "%d %s, %s; exit code %d (the most severe)\n", len(runs), noun, roundSeconds(time.Since(start)), code)
	}
	return code
}

// projectVerdict is the word of the overall exit code; a 2 that no
// run-time error explains comes from an input error.
func projectVerdict(code int, files []report.File) string {
	if code != exitUsage {
		return overallVerdict(code)
	}
	for _, f := range files {
		for _, o := range f.Outcomes {
			if o.Code == exitUsage {
				return overallVerdict(code)
			}
		}
		for _, o := range f.Races {
			if o.Code == exitUsage {
				return overallVerdict(code)
			}
		}
	}
	return "input error"
}

func roundSeconds(d time.Duration) string { return report.RoundDur(d).String() }

// decide runs the decision of one file as "pgasrob decide FILE" does,
// into r.
func (r *fileRun) decide(path string, common []string, jobs int, of *outputFlags, fileArgs func(string) ([]string, error), dotDir string) {
	gcc := of.gcc()
	t0 := time.Now()
	defer func() { r.elapsed = time.Since(t0); r.file.Elapsed = r.elapsed.Seconds() }()
	r.file.Path = inputName(path)
	extra, err := fileArgs(path)
	if err != nil {
		r.inputFailure(path, err)
		return
	}
	// The build's -I and -D first, then the command's, as for one file.
	args := append(append(append([]string{}, extra...), common...), fmt.Sprintf("--jobs=%d", jobs), path)
	c := newDecideCmd(&r.text)
	var errs bytes.Buffer
	j, ie, code := prepare("decide", c.fs, c.b, decideModes, args, &errs)
	switch {
	case j == nil:
		r.code = code
		r.json = decideJSON{Schema: decideSchema, File: r.file.Path, Results: []nResultJSON{}, Verdict: overallVerdict(code), ExitCode: code}
		r.file.Errors = []checkError{{File: r.file.Path, Msg: strings.TrimSpace(errs.String())}}
		r.inputText(errs.Bytes(), gcc)
		return
	case ie != nil:
		r.code = exitUsage
		r.file.Errors = errorsToJSON(j.file, ie)
		r.json = decideJSON{Schema: decideSchema, File: j.file, NArg: *c.b.n, Results: []nResultJSON{}, Verdict: "input error", ExitCode: exitUsage, Errors: r.file.Errors}
		r.inputText(errs.Bytes(), gcc)
		return
	}
	if j.mode == "race" || j.mode == "all" {
		r.decideCriteria(j, c, of)
		return
	}
	if code := c.exactOptions(j, &r.text); code != 0 {
		r.code = code
		return
	}
	r.file.Prog, r.file.Src = j.prog, j.src
	pr := &decidePrinter{stdout: &r.text, stderr: &r.text, file: j.file, prog: j.prog, progFor: j.progFor, src: j.src, isRange: j.lo < j.hi, outFlags: nil,
		out: decideJSON{Schema: decideSchema, File: j.file, NArg: *c.b.n, Program: j.prog.Name, Results: []nResultJSON{}}}
	if dotDir != "" {
		if pr.dot, err = projectDotPath(dotDir, j.file); err != nil {
			r.inputFailure(path, fmt.Errorf("--dot: %v", err))
			return
		}
	}
	var sink bytes.Buffer
	if gcc {
		pr.stdout = &sink // the outcomes are kept, the text is not printed
	}
	j.decideEach(io.Discard, func(o outcome) {
		failed := pr.dotFailed
		pr.add(o)
		res := report.ResultToJSON(j.progFor(o.N), o)
		if pr.dot != "" && o.Res != nil && o.Res.Witness != nil && pr.dotFailed == failed {
			res.DotFile = report.DotPath(pr.dot, o.N, pr.isRange)
		}
		pr.out.Results = append(pr.out.Results, res)
	})
	r.file.Outcomes = pr.outs
	if fix := of.fixer(j); fix != nil {
		r.file.Fix = fix(pr.outs)
	}
	r.code = overallCode(pr.codes)
	if pr.dotFailed && r.code != exitInternal {
		r.code = exitUsage
	}
	pr.out.Verdict, pr.out.ExitCode = overallVerdict(r.code), r.code
	pr.out.Warnings, pr.out.Assumptions = report.Warnings(j.prog), report.Assumptions(j.prog)
	r.json = pr.out
	if gcc {
		for _, o := range pr.outs {
			report.WriteGCC(&r.text, j.file, j.progFor(o.N), []outcome{o})
		}
	}
}

// inputText prints a file's input errors: as the command printed them,
// or as diagnostics.
func (r *fileRun) inputText(printed []byte, gcc bool) {
	if !gcc {
		r.text.Write(printed)
		return
	}
	for _, e := range r.file.Errors {
		at := e.File
		if e.Line > 0 {
			at = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
		}
		msg := strings.TrimPrefix(strings.TrimPrefix(e.Msg, "pgasrob decide: "), e.File+": ")
		fmt.Fprintf(&r.text, "%s: error: %s [%s]\n", at, msg, report.RuleInput)
	}
}

// inputFailure records a file whose flags could not be had.
func (r *fileRun) inputFailure(path string, err error) {
	r.code = exitUsage
	r.file.Errors = []checkError{{File: path, Msg: err.Error()}}
	r.json = decideJSON{Schema: decideSchema, File: path, Results: []nResultJSON{}, Verdict: "input error", ExitCode: exitUsage, Errors: r.file.Errors}
	fmt.Fprintf(&r.text, "pgasrob decide: %s: %v\n", path, err)
}

// interrupted records a file not started because the run was stopped.
func (r *fileRun) interrupted(path, why string) {
	r.file.Path = inputName(path)
	r.code = exitUnknown
	r.json = decideJSON{Schema: decideSchema, File: r.file.Path, Results: []nResultJSON{}, Verdict: "unknown", ExitCode: exitUnknown}
	fmt.Fprintf(&r.text, "%s: UNKNOWN: not started (%s)\n", r.file.Path, why)
}
