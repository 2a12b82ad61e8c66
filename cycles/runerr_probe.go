package cycles

import (
	"context"
	"errors"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// widenProbe bounds the depth-first probe of probeWiden, in states.
const widenProbe = 50_000

// probeWiden runs before the breadth-first run-time error check of a
// program whose value domain a front end inferred (pgas.Program.Widen).
// There a value that leaves the domain is no error of the program but
// decide's cue to widen the domain and decide again
// (cmd/pgasrob/widen.go), and any such value will do, not only the one
// nearest the start; the breadth-first check walks every level before a
// deep one (workqueue-nolock at N = 4: 140,623 states on its inferred
// 0..3, where a depth-first search meets a value outside after 1,942). So
// such a check first searches depth-first, within widenProbe states: a
// value or atomic result outside the domain ends the check with it (done);
// so does the end of the search, which then visited every state the
// breadth-first check would (no error is reachable). Any other outcome
// (the budget, an error of another kind, whose shortest computation the
// user should see) leaves the answer to the breadth-first check; the
// probe's work is returned to be counted.
func probeWiden(ctx context.Context, sys errSystem, sc *normalform.Y, opt Options, maxBytes int64) (*RuntimeError, automata.Stats, bool) {
	if sc.P.Widen == nil || opt.MaxStates > 0 && opt.MaxStates <= widenProbe {
		return nil, automata.Stats{}, false
	}
	r := automata.Search(sys, automata.Options{Context: ctx, Strategy: automata.DepthFirst,
		Budget: automata.Budget{MaxStates: widenProbe, MaxBytes: maxBytes}})
	switch r.Outcome {
	case automata.Empty:
		return nil, r.Stats, true
	case automata.NonEmpty:
		rerr := runtimeErrorOf(sc, r.Path)
		var re *pgas.RangeError
		if errors.As(rerr.Err, &re) && (re.What == "value" || re.What == "atomic") {
			return rerr, r.Stats, true
		}
	}
	return nil, r.Stats, false
}
