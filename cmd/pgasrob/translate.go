package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/translate"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

func init() {
	register(subcommand{name: "translate", summary: "compile a .pgas program for N ranks into the store-atomic framework (tso's input format)", run: runTranslate})
}

const translateDescription = `Compile FILE for N ranks into a program of the store-atomic framework of
locality-singularity.md, in the Trencher text format that "pgasrob tso"
reads (docs/translate.md gives every rule with an example). Run it with
"pgasrob tso OUT --model pso": that is what "pgasrob decide --via
instrumentation" does. The two routes do not decide the same notion of
robustness; docs/translate.md says where they differ and which verdicts
carry over.

The output is parsed back before it is written. Exit 0 on success, 2 for a
usage or input error (also an expression the framework cannot express:
division or remainder of a register).`

const exitsTranslate = "exit codes: 0 translated, 2 usage or input error, 4 internal error (the output does not parse)"

// translateJSON is the --json output of translate (docs/cli.md).
type translateJSON struct {
	Schema  string `json:"schema"`
	File    string `json:"file"`
	N       int    `json:"n"`
	Fences  bool   `json:"address_list_fences"`
	Threads int    `json:"threads"`
	Program string `json:"program"`
}

func runTranslate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("translate", "translate FILE -n N [--out F] [--json]", translateDescription, exitsTranslate, stderr)
	nArg := stringOnceP(fs, "n", "n", "number of ranks `N` (required)")
	out := fs.StringP("out", "o", "", "write the program to `FILE` instead of standard output")
	asJSON := fs.Bool("json", false, "print one JSON object (schema pgasrob/translate/v1) holding the program")
	cf := addCFlags(fs)
	if done, code := parseFlags(fs, args); done {
		return code
	}
	if err := cf.apply(fs.Arg(0)); err != nil {
		fmt.Fprintf(stderr, "pgasrob translate: %v\n%s\n", err, usageHint("translate"))
		return exitUsage
	}
	n, err := strconv.Atoi(*nArg)
	if fs.NArg() != 1 || err != nil {
		fmt.Fprintf(stderr, "pgasrob translate: want one FILE and -n N\n%s\n", usageHint("translate"))
		return exitUsage
	}
	if *out != "" {
		if err := notAnInput(*out, fs.Args()); err != nil {
			fmt.Fprintln(stderr, "pgasrob translate:", err)
			return exitUsage
		}
	}
	tr, _, code := translateFile(fs.Arg(0), n, stderr)
	if tr == nil {
		return code
	}
	if *out != "" {
		if err := writeOutput(*out, tr.Text, stdout, fs.Arg(0)); err != nil {
			fmt.Fprintln(stderr, "pgasrob translate:", err)
			return exitUsage
		}
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(translateJSON{Schema: "pgasrob/translate/v1", File: inputName(fs.Arg(0)), N: n, Fences: tr.Fences, Threads: n, Program: string(tr.Text)})
	case *out == "":
		stdout.Write(tr.Text)
	}
	return exitRobust
}

// translateFile loads, checks and translates a .pgas file and parses the
// result back as a framework program.
func translateFile(path string, n int, stderr io.Writer) (*translate.Result, *tsoprog.Program, int) {
	p, err := loadProgram(path)
	if err == nil {
		err = pgas.CheckN(p, n)
	}
	if err != nil {
		var list pgas.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				fmt.Fprintln(stderr, e)
			}
		} else {
			fmt.Fprintln(stderr, err)
		}
		return nil, nil, exitUsage
	}
	return translateProgram(p, n, stderr)
}

func translateProgram(p *pgas.Program, n int, stderr io.Writer) (*translate.Result, *tsoprog.Program, int) {
	tr, err := translate.Translate(p, n)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, nil, exitUsage
	}
	tp, err := tsoprog.ParseProgram(p.File+".tso", tr.Text)
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob: internal error: the translation does not parse: %v\n", err)
		return nil, nil, exitInternal
	}
	return tr, tp, exitRobust
}
