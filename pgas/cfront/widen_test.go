package cfront_test

import (
	"errors"

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
