package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// fenceOutput is what tso --fences found, with the options that shaped it.
type fenceOutput struct {
	fr       *tso.FenceResult
	costFile string     // "uniform" or the --cost file
	costs    *tso.Costs // nil for uniform
	written  string     // the --write file, once written
}

func (fo *fenceOutput) costName() string {
	if fo.costs == nil {
		return ""
	}
	return fo.costFile
}

// search runs the fence search (after the check res) and writes the fenced
// program when asked. A non-zero result is the exit code of a failure that
// ends the command (bad cost file, unwritable --write file, a written
// program that does not re-check).
func (fo *fenceOutput) search(prog *tsoprog.Program, src []byte, m tsoprog.Model, res *tso.Result, opt tso.Options, write string, progress *progressLine, stderr io.Writer) int {
	fopt := tso.FenceOptions{Options: opt}
	if fo.costFile != "uniform" {
		csrc, err := pgas.ReadSource(fo.costFile)
		if err == nil {
			fo.costs, err = tso.ParseCosts(fo.costFile, csrc, prog)
		}
		if err != nil {
			fmt.Fprintf(stderr, "pgasrob tso: --cost: %v\n", err)
			return exitUsage
		}
		fopt.Cost = func(f tso.Fence) int64 { return fo.costs.Of(prog, f) }
	}
	if res.Verdict == tsoprog.Robust {
		// The check just made certifies the empty set.
		fo.fr = &tso.FenceResult{Verdict: tsoprog.Robust, Fenced: prog, Certificate: res, Rounds: 1}
	} else {
		fopt.Progress = func(done, total int, states int64) {
			progress.show("fence search: attacks searched %d/%d, states %d", done, total, states)
		}
		var err error
		fo.fr, err = tso.FindFences(prog, m, fopt)
		progress.clear()
		if err != nil {
			// The check before took the same request; this is a usage error.
			fmt.Fprintln(stderr, "pgasrob tso:", err)
			return exitUsage
		}
	}
	if write == "" || fo.fr.Verdict != tsoprog.Robust {
		return 0
	}
	out, err := tso.WriteFenced(src, prog, fo.fr.Fences)
	if err == nil {
		err = recheck(write, out, m, opt)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob tso: --write: %v\n", err)
		switch {
		case errors.Is(err, errRecheck):
			return exitInternal
		case errors.Is(err, errRecheckUnknown):
			return exitUnknown
		}
		return exitUsage
	}
	if err := os.WriteFile(write, out, 0o644); err != nil {
		fmt.Fprintf(stderr, "pgasrob tso: --write: %v\n", err)
		return exitUsage
	}
	fo.written = write
	return 0
}

var (
	errRecheck        = errors.New("internal error: the fenced program as written does not check robust")
	errRecheckUnknown = errors.New("the re-check of the fenced program as written ran out of its budget; nothing written")
)

// recheck parses the text about to be written and checks it again, so
// that the user never keeps a file that would not pass "pgasrob tso".
func recheck(name string, out []byte, m tsoprog.Model, opt tso.Options) error {
	q, err := tsoprog.ParseProgram(name, out)
	if err != nil {
		return fmt.Errorf("%w: %v", errRecheck, err)
	}
	opt.Progress = nil
	r, err := tso.Check(q, m, opt)
	if err != nil {
		return fmt.Errorf("%w: %v", errRecheck, err)
	}
	switch r.Verdict {
	case tsoprog.Unknown:
		return fmt.Errorf("%w: %s", errRecheckUnknown, r.Reason)
	case tsoprog.NotRobust:
		return fmt.Errorf("%w: %v", errRecheck, r.Verdict)
	}
	return nil
}
