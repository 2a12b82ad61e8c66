package cfront_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// The tests decide and explore C programs as "pgasrob decide" does: a
// value leaving the inferred domain widens it (pgas.Program.WidenFor, the
// step of cmd/pgasrob/widen.go) and the search starts again.

// exploreWidened is oracle.Explore with the widening.
func exploreWidened(p *pgas.Program, n int, b oracle.Bounds) oracle.Result {
	for {
		r := oracle.Explore(p, n, b)
		q, err := p.WidenFor(r.RangeErr)
		if err != nil || q == nil {
			return r
		}
		p = q
	}
}

// decideWidened is cycles.Decide with the widening.
func decideWidened(p *pgas.Program, n int, opt cycles.Options) (*cycles.Result, error) {
	for {
		r, err := cycles.Decide(p, n, opt)
		if err != nil || r.Verdict != cycles.RunError || r.RunError == nil {
			return r, err
		}
		var re *pgas.RangeError
		if !errors.As(r.RunError.Err, &re) {
			return r, nil
		}
		q, werr := p.WidenFor(re)
		if werr != nil || q == nil {
			return r, nil
		}
		p = q
	}
}

// agreeReduced is the shape of the front end's differential tests of an
// exact reduction (buffer collapse, blocks, dead checks): it decides the
// reduced and the plain program, each with the widening, reports a
// disagreement, and checks the plain one with the oracle where the oracle
// finishes. It returns the verdict ("" when a budget left either side
// undecided) and whether the oracle confirmed it. what names the case in
// the messages, src is the program shown with them.
func agreeReduced(t *testing.T, what string, reduced, plain *pgas.Program, ranks int, opt cycles.Options, src string) (string, bool) {
	t.Helper()
	a := cbufVerdict(decideWidened(reduced, ranks, opt))
	b := cbufVerdict(decideWidened(plain, ranks, opt))
	if a == "" || b == "" {
		return "", false
	}
	if a != b {
		t.Errorf("%s: reduced %s, plain %s\n%s", what, a, b, src)
		return a, false
	}
	o := exploreWidened(plain, ranks, oracle.Bounds{MaxQueue: 8, MaxNodes: 1_000_000, Timeout: 10 * time.Second})
	if o.Err != nil || o.RangeErr != nil || (o.Violation == nil && !o.Complete) {
		return a, false
	}
	if got := map[bool]string{true: cycles.Robust.String(), false: cycles.NotRobust.String()}[o.Violation == nil]; got != a {
		t.Errorf("%s: decide %s on the reduced program, the oracle %s on the plain one\n%s", what, a, got, src)
	}
	return a, true
}

// caseName is the name agreeReduced's messages give a random case.
func caseName(kind string, seed uint64, ranks, n int) string {
	return fmt.Sprintf("%s, seed %d, N = %d, n = %d", kind, seed, ranks, n)
}
