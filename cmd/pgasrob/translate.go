package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/translate"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

func init() {
	register(subcommand{name: "translate", summary: "compile a program (.pgas, or C with OpenSHMEM) for N ranks into the store-atomic framework (tso's input format)", run: runTranslate})
}

const translateDescription = `Compile FILE (a .pgas program, or a C program with OpenSHMEM: a .c file, or
--lang c; "-" reads standard input) for N ranks into a program of the store-atomic framework of
locality-singularity.md, in the Trencher text format that "pgasrob tso"
reads (docs/translate.md gives every rule with an example). Run it with
"pgasrob tso OUT --model pso": that is what "pgasrob decide --via
instrumentation" does. The two routes do not decide the same notion of
robustness; docs/translate.md says where they differ and which verdicts
carry over.

The output is parsed back before it is written. Exit 0 on success, 2 for a
usage or input error (also an expression the framework cannot express:
division or remainder of a register), 3 when --timeout, --max-memory or
SIGINT stopped the work (UNKNOWN, with the phase).`

const exitsTranslate = "exit codes: 0 translated, 2 usage or input error, 3 a budget ran out or interrupted, 4 internal error (the output does not parse)"

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
	timeout := fs.Duration("timeout", 0, "bound on the time of reading, compiling and translating, e.g. 30s (0: none)")
	maxMemory := fs.Int64("max-memory", defaultMemoryMiB(), memoryFlagHelp)
	lang := fs.String("lang", "", langFlagHelp)
	cf := addCFlags(fs)
	if done, code := parseFlags(fs, args); done {
		return code
	}
	copt, err := cf.options(fs.Arg(0))
	if err != nil {
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
	if *timeout < 0 || *maxMemory < 1 || *maxMemory > 1<<20 {
		fmt.Fprintf(stderr, "pgasrob translate: --timeout must not be negative, --max-memory must be in 1..1048576 (MiB)\n%s\n", usageHint("translate"))
		return exitUsage
	}
	b := frontBudget{timeout: *timeout, maxMemory: *maxMemory, lang: *lang}
	ctx, stop := b.context()
	defer stop()
	if *timeout > 0 {
		// translate has no search: the time budget covers all of it
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, *timeout, fmt.Errorf("time budget of %v reached", *timeout))
		defer cancel()
	}
	copt.N = n
	tr, _, code := translateFile(ctx, fs.Arg(0), copt, b.lang, 0, stderr)
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

// translateFile loads, checks and translates a .pgas file (or C file, for
// n PEs) and parses the result back as a framework program, all under ctx.
func translateFile(ctx context.Context, path string, copt cfront.Options, lang string, timeout time.Duration, stderr io.Writer) (*translate.Result, *tsoprog.Program, int) {
	n := copt.N
	p, _, err := loadIn(ctx, path, lang, timeout, copt)
	if err == nil {
		err = pgas.CheckN(p, n)
	}
	if err != nil {
		var list pgas.ErrorList
		switch {
		case errors.As(err, &list):
			for _, e := range list {
				fmt.Fprintln(stderr, e)
			}
		case frontCode(err) == exitUnknown:
			fmt.Fprintf(stderr, "pgasrob translate: %s: %v\n", inputName(path), err)
		default:
			fmt.Fprintln(stderr, err)
		}
		return nil, nil, frontCode(err)
	}
	return translateProgram(ctx, p, n, stderr)
}

// translateProgram translates p for n ranks and parses the result back,
// under ctx: a budget's end is UNKNOWN (exit 3).
func translateProgram(ctx context.Context, p *pgas.Program, n int, stderr io.Writer) (*translate.Result, *tsoprog.Program, int) {
	tr, err := guarded(ctx, "translating for the framework", func() (*translate.Result, error) { return translate.Translate(p, n) })
	if err != nil {
		if frontCode(err) == exitUnknown {
			fmt.Fprintf(stderr, "pgasrob: %s: %v\n", p.File, err)
			return nil, nil, exitUnknown
		}
		fmt.Fprintln(stderr, err)
		return nil, nil, exitUsage
	}
	tp, err := guarded(ctx, "reading the translation back", func() (*tsoprog.Program, error) { return tsoprog.ParseProgram(p.File+".tso", tr.Text) })
	if err != nil {
		if frontCode(err) == exitUnknown {
			fmt.Fprintf(stderr, "pgasrob: %s: %v\n", p.File, err)
			return nil, nil, exitUnknown
		}
		fmt.Fprintf(stderr, "pgasrob: internal error: the translation does not parse: %v\n", err)
		return nil, nil, exitInternal
	}
	return tr, tp, exitRobust
}
