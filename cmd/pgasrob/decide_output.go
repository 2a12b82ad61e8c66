package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// The output formats of decide beyond text and --json (docs/cli.md):
// --format gcc (compiler diagnostics on standard output), --sarif FILE
// and --html FILE (files written beside the usual output). The renderers
// are in cycles/report; this file reads the flags and writes the files.

const outputFlagNames = "format sarif html sarif-fixes"

type outputFlags struct {
	cmd    string // the command, in messages ("": decide)
	format *string
	sarif  *string
	html   *string
	fixes  *bool
	// isTTY says whether standard output is a terminal (--format auto);
	// tests set it.
	isTTY func() bool
}

func addOutputFlags(fs *pflag.FlagSet) *outputFlags {
	o := &outputFlags{isTTY: func() bool { return isTerminal(os.Stdout) }}
	o.format = fs.String("format", "text", "standard output: text (for people), gcc (compiler diagnostics FILE:LINE:COL: error: ..., with a note per step of the cycle), or auto (gcc when standard output is not a terminal, text when it is)")
	o.sarif = fs.String("sarif", "", "also write the results as SARIF 2.1.0 to `FILE` (code scanning; \"-\": standard output, instead of the text)")
	o.html = fs.String("html", "", "also write the witness of a violation as a self-contained HTML page to `FILE` (a lane per PE, the cycle drawn over the events, the source beside)")
	o.fixes = fs.Bool("sarif-fixes", false, "with --sarif: repair each program found not robust (as pgasrob repair does, default costs, the same budgets) and give the insertions as the results' fixes")
	return o
}

// fixer returns the repair of a job whose outcomes have a violation, for
// --sarif-fixes; nil when not asked for or nothing to repair.
func (o *outputFlags) fixer(j *job) func([]outcome) *repair.Result {
	if o == nil || !*o.fixes {
		return nil
	}
	return func(outs []outcome) *repair.Result {
		var ns []int
		for _, x := range outs {
			if x.Res != nil && x.Res.Verdict == cycles.NotRobust {
				ns = append(ns, x.N)
			}
		}
		if len(ns) == 0 {
			return nil
		}
		opt := repair.Options{Decide: j.opt, Costs: repair.DefaultCosts(),
			Oracle: oracle.Bounds{MaxQueue: 4, MaxNodes: oracle.DefaultMaxNodes, Timeout: j.opt.Timeout, Commuting: j.opt.Commuting}}
		opt.Decide.Progress = nil
		var res *repair.Result
		var err error
		if cfront.IsC(j.file) {
			res, err = repairC(j.file, j.src, ns, j.copt, opt, false)
		} else {
			res, err = repair.Repair(j.file, j.src, ns, opt)
		}
		if err != nil || res == nil || res.Verdict != repair.Repaired {
			return nil // no fix to offer; the result stands without one
		}
		return res
	}
}

// check refuses combinations that cannot be honoured, before anything long
// starts.
func (o *outputFlags) check(asJSON bool, input string) error {
	switch *o.format {
	case "text", "gcc", "auto":
	default:
		return fmt.Errorf("--format must be text, gcc or auto, not %q", *o.format)
	}
	if asJSON && *o.format == "gcc" {
		return fmt.Errorf("--json and --format gcc both choose standard output; give one")
	}
	if *o.sarif == "-" && (asJSON || *o.format != "text") {
		return fmt.Errorf("--sarif - writes standard output, which --json or --format takes already")
	}
	if *o.fixes && *o.sarif == "" {
		return fmt.Errorf("--sarif-fixes goes with --sarif")
	}
	if *o.html == "-" {
		return fmt.Errorf("--html needs a file name")
	}
	for _, f := range []string{*o.sarif, *o.html} {
		if err := notAnInput(f, []string{input}); f != "" && f != "-" && err != nil {
			return err
		}
	}
	return nil
}

func (o *outputFlags) name() string {
	if o.cmd == "" {
		return "decide"
	}
	return o.cmd
}

// gcc says whether standard output takes compiler diagnostics.
func (o *outputFlags) gcc() bool {
	if o == nil {
		return false
	}
	return *o.format == "gcc" || *o.format == "auto" && !o.isTTY()
}

// sarifStdout says whether the SARIF log is the standard output ("--sarif
// -"), which then carries nothing else.
func (o *outputFlags) sarifStdout() bool { return o != nil && *o.sarif == "-" }

// write writes the SARIF and HTML files of one decided file; false when
// one could not be written (the message is printed).
func (o *outputFlags) write(f report.File, stdout, stderr io.Writer) bool {
	if o == nil {
		return true
	}
	ok := o.writeSARIF([]report.File{f}, stdout, stderr, f.Path)
	if *o.html != "" {
		var b bytes.Buffer
		if err := report.WriteHTML(&b, f); err != nil {
			fmt.Fprintf(stderr, "pgasrob decide: --html: %v\n", err)
			return false
		}
		if err := writeOutput(*o.html, b.Bytes(), stdout, f.Path); err != nil {
			fmt.Fprintf(stderr, "pgasrob decide: %v\n", err)
			return false
		}
	}
	return ok
}

func (o *outputFlags) writeSARIF(files []report.File, stdout, stderr io.Writer, inputs ...string) bool {
	if *o.sarif == "" {
		return true
	}
	var b bytes.Buffer
	if err := report.WriteSARIF(&b, files, version); err != nil {
		fmt.Fprintf(stderr, "pgasrob %s: --sarif: %v\n", o.name(), err)
		return false
	}
	b.WriteByte('\n')
	if err := writeOutput(*o.sarif, b.Bytes(), stdout, inputs...); err != nil {
		fmt.Fprintf(stderr, "pgasrob %s: %v\n", o.name(), err)
		return false
	}
	return true
}

// inputError writes what the formats say about a file that could not be
// compiled: a diagnostic (--format gcc is already the error's own format
// on standard error) and a SARIF result.
func (o *outputFlags) inputError(file string, ie *inputError, stdout, stderr io.Writer) {
	if *o.sarif == "" {
		return
	}
	errs := errorsToJSON(file, ie)
	for i := range errs {
		errs[i].Msg = strings.TrimPrefix(errs[i].Msg, file+": ")
	}
	o.writeSARIF([]report.File{{Path: file, Errors: errs}}, stdout, stderr, file)
}
