package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Exit codes as each command's help states them: only those it can give.
const (
	exitsVerdict = "exit codes: 0 robust, 1 not robust, 2 usage or input error (also a reachable run-time error),\n" +
		"3 unknown (a budget ran out, or interrupted), 4 internal error (a witness failed its replay)"
	exitsCheck    = "exit codes: 0 the program is fine, 2 usage error or a mistake in the program, 4 internal error of the C front end"
	exitsVersion  = "exit codes: 0, 2 usage error"
	exitsDifftest = "exit codes: 0 no disagreement, 1 a disagreement, 2 usage or input error,\n" +
		"3 nothing could be compared (every program skipped) or interrupted, 4 internal error"
	exitsTSO = "exit codes: 0 robust, 1 not robust, 2 usage or input error, 3 unknown (a budget ran out,\n" +
		"or interrupted; with --fences also: no certified fence set), 4 internal error (a witness failed its replay)"
)

// newFlags returns a flag set that reports errors instead of exiting, with
// a usage text in one style for every command: the command line, a
// description, the flags and the exit codes the command can give.
func newFlags(name, synopsis, description, exits string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: pgasrob %s\n\n%s\n\nflags:\n%s", synopsis, description, fs.FlagUsages())
		fmt.Fprintf(stderr, "\n%s\n", exits)
	}
	return fs
}

// parseFlags parses args; it returns done=true with the exit code when the
// command must stop: help was asked for (the usage text is already
// printed), or the flags were wrong (the error is printed here, since a
// ContinueOnError flag set only returns it).
func parseFlags(fs *pflag.FlagSet, args []string) (done bool, code int) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return true, exitRobust
		}
		fmt.Fprintf(fs.Output(), "pgasrob %s: %v\nRun \"pgasrob %s --help\" for usage.\n", fs.Name(), err, fs.Name())
		return true, exitUsage
	}
	return false, 0
}

// parseRange reads "4" or "2..6".
func parseRange(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "..")
	lo, err = strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, fmt.Errorf("-n %q: not a number or a range like 2..6", s)
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("-n %q: not a number or a range like 2..6", s)
		}
	}
	if lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("-n %q: need 1 <= N, and lo <= hi in a range", s)
	}
	return lo, hi, nil
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// isTerminal reports whether f is a character device, the cheap test for
// "a person is watching" without a terminal library.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine prints progress to a terminal at most every 200ms, after the
// first second.
type progressLine struct {
	w       io.Writer
	on      bool
	start   time.Time
	last    time.Time
	printed bool
}

func newProgress(stderr io.Writer) *progressLine {
	f, ok := stderr.(*os.File)
	return &progressLine{w: stderr, on: ok && isTerminal(f), start: time.Now()}
}

func (p *progressLine) show(format string, args ...any) {
	if !p.on || time.Since(p.start) < time.Second || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.printed = true
	fmt.Fprintf(p.w, "\r\033[K"+format, args...)
}

func (p *progressLine) clear() {
	if p.printed {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
