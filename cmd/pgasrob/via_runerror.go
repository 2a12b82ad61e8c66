package main

import (
	"context"
	"fmt"
	"io"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/pgas"
)

// viaRunError runs, for decide --via instrumentation, the run-time error
// check that starts the exact route: a search of the program's
// sequentially consistent runs (cycles.Decide searching no cycle type).
// The translation blocks where the program would fail (docs/translate.md),
// so the framework alone would report a reachable error as UNKNOWN, or
// as a violation of a program whose robustness is not defined. It returns
// nil when no error is reachable; otherwise the result for N (RUN-TIME
// ERROR, exit 2, or UNKNOWN, exit 3, when a budget stopped the check) and
// its exit code.
func viaRunError(ctx context.Context, j *job, n int) (*viaResultJSON, []pgas.Event, int) {
	opt := j.opt
	opt.Context, opt.Only, opt.All, opt.Procedure = ctx, []cycles.CycleType{}, false, cycles.Automata
	var res *cycles.Result
	var err error
	var p *pgas.Program
	p, res, err = decideWidened(j.progFor(n), n, opt)
	j.setProg(n, p)
	o := outcomeOf(n, res, err)
	r := &viaResultJSON{N: n, FrameworkVerdict: "not run", Attacker: "none", Witness: []viaStepJSON{}}
	switch {
	case o.Err != nil:
		r.Verdict, r.Reason = "INTERNAL ERROR", o.Err.Error()
		return r, nil, exitInternal
	case res.Verdict == cycles.RunError:
		re := report.ResultToJSON(p, o).RuntimeError
		r.Verdict, r.Reason, r.RuntimeError = "RUN-TIME ERROR", res.RunError.Err.Error(), re
	case res.Verdict == cycles.Unknown:
		r.Verdict, r.Reason = "UNKNOWN", res.Reason
	default:
		return nil, nil, exitRobust
	}
	r.States, r.ElapsedMS = res.Stats.States, res.Elapsed.Milliseconds()
	if res.RunError != nil {
		return r, res.RunError.Path, exitUsage
	}
	return r, nil, exitUnknown
}

// writeViaRunError prints what viaRunError found, as the exact route does.
func writeViaRunError(w io.Writer, file string, p *pgas.Program, r *viaResultJSON, path []pgas.Event) {
	fmt.Fprintf(w, "%s, N = %d, via instrumentation: %s: %s (run-time error check of the exact route; %d states, %dms)\n",
		file, r.N, r.Verdict, r.Reason, r.States, r.ElapsedMS)
	if r.RuntimeError == nil {
		return
	}
	report.WritePath(w, report.NewPath(p, path))
}
