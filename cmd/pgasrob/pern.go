package main

// A C program whose memory depends on N (shmem_malloc(npes *
// sizeof(long)), an array of npes elements) has one translation per N:
// with a range -n LO..HI, decide and cycles translate it once for each N
// of the range, and decide each N on its own translation. A program that
// does not depend on N keeps its one translation for every N.

import (
	"context"
	"errors"
	"fmt"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// needsPerN says whether err, the error of a translation for no
// particular N, asks for one translation per N of lo..hi.
func needsPerN(err error, lo, hi int) bool {
	return lo < hi && errors.Is(err, cfront.ErrNeedsN)
}

// translatePerN translates the C program src (named name) for each N of
// lo..hi under the budgets of b: the first error stops it, said for its N.
func translatePerN(name string, src []byte, b frontBudget, lo, hi int) (map[int]*pgas.Program, error) {
	progs := map[int]*pgas.Program{}
	for n := lo; n <= hi; n++ {
		p, err := compileForN(name, src, b, n)
		if err != nil {
			var list pgas.ErrorList
			if errors.As(err, &list) {
				return nil, err // positioned: the messages say what to change
			}
			return nil, fmt.Errorf("N = %d: %w", n, err)
		}
		progs[n] = p
	}
	return progs, nil
}

// compileForN is loadIn's compilation of a C program for one N, from the
// source already read (standard input cannot be read twice).
func compileForN(name string, src []byte, b frontBudget, n int) (*pgas.Program, error) {
	ctx, stop := b.context()
	defer stop()
	if b.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, b.timeout, fmt.Errorf("time budget of %v reached", b.timeout))
		defer cancel()
	}
	c := b.c
	c.N, c.Context = n, ctx
	p, err := compileC(name, src, c)
	var be *cfront.BudgetError
	if errors.As(err, &be) {
		return nil, &budgetStop{phase: be.Phase + " the C program", cause: be.Cause}
	}
	return p, err
}

// progFor is the program N is decided on: its own translation when the
// program depends on N, else the one translation.
func (j *job) progFor(n int) *pgas.Program {
	if p, ok := j.perN[n]; ok {
		return p
	}
	return j.prog
}

// setProg keeps p, N's program after a decision widened its domain.
func (j *job) setProg(n int, p *pgas.Program) {
	if j.perN != nil {
		j.perN[n] = p
		return
	}
	j.prog = p
}
