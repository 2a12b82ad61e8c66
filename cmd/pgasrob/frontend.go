package main

// Reading and compiling a program under the budgets (issue 34, item 3):
// --timeout, --max-memory and SIGINT bound the front end as they bound the
// search, and what stops it is UNKNOWN (exit 3) with the phase named. The
// language of the input is its extension, --lang, or for standard input
// its content where that is unambiguous.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// frontBudget is what bounds reading and compiling: the command's
// --timeout (0: none) and --max-memory (MiB, 0: no guard), and --lang.
type frontBudget struct {
	timeout   time.Duration
	maxMemory int64
	lang      string         // "", "c" or "pgas"
	n         int            // the N to translate a C program for (0: any; cfront.Options.N)
	c         cfront.Options // -I, -D, --args and the like (cflags.go)
}

// budgetStop is the front end's UNKNOWN: a budget or a signal stopped it
// in phase.
type budgetStop struct {
	phase string
	cause error
}

func (e *budgetStop) Error() string { return fmt.Sprintf("UNKNOWN: %v while %s", e.cause, e.phase) }

// loadGuarded reads path ("-": standard input) and compiles it under b.
// Neither cc nor a read of standard input can be interrupted from inside:
// each runs in its own goroutine, and a budget's end returns at once
// (the command then exits, leaving the goroutine to the process's end).
func loadGuarded(path string, b frontBudget) (*pgas.Program, []byte, error) {
	ctx, stop := b.context()
	defer stop()
	c := b.c
	c.N = b.n
	return loadIn(ctx, path, b.lang, b.timeout, c)
}

// context is a context that the memory budget of b and SIGINT/SIGTERM
// end, with the budget as its cause; stop releases it. (The time budget
// is the C front end's alone: loadIn.)
func (b frontBudget) context() (context.Context, func()) {
	ctx, stop := interruptContext()
	stops := []func(){stop}
	if b.maxMemory > 0 {
		var unguard func()
		ctx, unguard = memoryGuard(ctx, b.maxMemory)
		stops = append(stops, unguard)
	}
	return ctx, func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
}

// loadIn reads and compiles path under ctx, and a C program also under
// timeout (0: none), from the start when its name or lang says it is C.
// A .pgas program is not timed: its compiler is linear in the file, with
// limits of its own (docs/language.md), and --timeout keeps its meaning
// of a bound on each N's search.
func loadIn(ctx context.Context, path, lang string, timeout time.Duration, copt cfront.Options) (*pgas.Program, []byte, error) {
	timed := false
	withTimeout := func() {
		if timeout > 0 && !timed {
			timed = true
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeoutCause(ctx, timeout, fmt.Errorf("time budget of %v reached", timeout))
			// released with the context of the command; a timer alone
			_ = cancel
		}
	}
	if lang == "c" || lang == "" && cfront.IsC(inputName(path)) {
		withTimeout()
	}
	src, err := guarded(ctx, "reading the program", func() ([]byte, error) { return readSource(path) })
	if err != nil {
		return nil, nil, err
	}
	name := inputName(path)
	lang, err = languageOf(name, lang, src)
	if err != nil {
		return nil, src, err
	}
	var p *pgas.Program
	if lang == "c" {
		withTimeout()
		copt.Context = ctx
		p, err = compileC(name, src, copt)
		var be *cfront.BudgetError
		if errors.As(err, &be) {
			return nil, src, &budgetStop{phase: be.Phase + " the C program", cause: be.Cause}
		}
	} else {
		p, err = guarded(ctx, "compiling the .pgas program", func() (*pgas.Program, error) { return pgas.Compile(name, src) })
	}
	if err == nil && ctx.Err() != nil {
		err = &budgetStop{phase: "compiling the program", cause: context.Cause(ctx)}
	}
	return p, src, err
}

// compileC is cfront.Compile; a test replaces it to reach the path of an
// internal error of the front end, which no input is known to take.
var compileC = cfront.Compile

// guarded runs f, returning early with a budgetStop when ctx ends.
func guarded[T any](ctx context.Context, phase string, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, &budgetStop{phase: phase, cause: context.Cause(ctx)}
	}
}

// languageOf is the language of an input: --lang, else the extension,
// else (standard input) the content where it says which.
func languageOf(name, lang string, src []byte) (string, error) {
	switch lang {
	case "c", "pgas":
		return lang, nil
	case "":
	default:
		return "", fmt.Errorf("--lang must be c or pgas, not %q", lang)
	}
	if cfront.IsC(name) {
		return "c", nil
	}
	if name == stdinName && sniffC(src) {
		return "c", nil
	}
	return "pgas", nil
}

var (
	// a C preprocessor directive, or main's definition
	cDirectiveRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*(include|define|ifdef|ifndef|pragma)\b|\bint[ \t]+main[ \t]*\(`)
	// a .pgas program: its first line that is not a comment starts with
	// "program"
	pgasStartRE = regexp.MustCompile(`^(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*program\b`)
)

// sniffC reports whether src is unmistakably C: it has a C directive or a
// main, and does not start as a .pgas program does.
func sniffC(src []byte) bool {
	return cDirectiveRE.Match(src) && !pgasStartRE.Match(src)
}

// langFlagHelp is the usage text of --lang.
const langFlagHelp = "language of FILE: c or pgas (default: by the extension, .c for C; for standard input, C when the text is unmistakably C, else .pgas)"
