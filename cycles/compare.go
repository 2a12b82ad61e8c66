package cycles

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// CompareBudget bounds one comparison, so that one slow program cannot stall a
// long differential run.
type CompareBudget struct {
	DecideStates int64         // Options.MaxStates (per cycle type)
	DecideTime   time.Duration // Options.Timeout
	Oracle       oracle.Bounds
	NoSymmetry   bool // Options.NoSymmetry
	// Exploration and DepthFirst are those of Options; the zero
	// values are the per-type, breadth-first search.
	Exploration Exploration
	DepthFirst  bool
	// Workers is Options.Workers: above 1, every search of the
	// decision runs on that many goroutines (the parallel frontier).
	Workers int
	// Commuting compares under cf_c (Options.Commuting, and the oracle's
	// Bounds.Commuting); false is the paper's relation.
	Commuting bool
}

// DefaultCompareBudget suits the programs pgas/gen.Generate makes with its defaults.
var DefaultCompareBudget = CompareBudget{
	DecideStates: 200_000,
	DecideTime:   10 * time.Second,
	Oracle:       oracle.Bounds{MaxQueue: 4, MaxNodes: 200_000, Timeout: 10 * time.Second},
}

// CompareStatus is the outcome of a comparison.
type CompareStatus int

const (
	Agree    CompareStatus = iota // both sides decided and agree
	Disagree                      // both decided and disagree, or a side failed internally
	Skipped                       // a side ran out of budget: no evidence either way
)

func (s CompareStatus) String() string { return [...]string{"agree", "DISAGREE", "skipped"}[s] }

// Comparison is what Compare found.
type Comparison struct {
	Status   CompareStatus
	Decide   string // cycles verdict: ROBUST, NOT ROBUST, UNKNOWN, RUN-TIME ERROR, or "error"
	Oracle   string // ROBUST, NOT ROBUST, RUN-TIME ERROR, or INCOMPLETE
	Detail   string // why it disagrees or was skipped
	Internal bool   // a side reported an internal error (ErrInternal, oracle.Err)
	Elapsed  time.Duration
}

// Compare decides (p, n) with Decide and with the brute-force
// oracle, and compares the answers. The rules follow from the two
// definitions:
//
//   - Decide NOT ROBUST needs an oracle violation;
//   - Decide ROBUST needs a complete oracle run with neither a violation
//     nor a run-time error (an error reachable in X of a robust program is
//     reachable in an SC run, which Decide checks first);
//   - Decide RUN-TIME ERROR (found on an SC run, hence in X) needs an
//     oracle range error or violation (the oracle stops at a violation);
//   - an oracle that is incomplete and found nothing, or a Decide that ran
//     out of budget, gives no evidence: Skipped.
func Compare(p *pgas.Program, n int, b CompareBudget) Comparison {
	start := time.Now()
	var c Comparison
	defer func() { c.Elapsed = time.Since(start) }()
	ob := b.Oracle
	ob.Commuting = b.Commuting
	o := oracle.Explore(p, n, ob)
	switch {
	case o.Err != nil:
		c.Oracle = "error"
	case o.Violation != nil:
		c.Oracle = NotRobust.String()
	case o.RangeErr != nil:
		c.Oracle = RunError.String()
	case o.Complete:
		c.Oracle = Robust.String()
	default:
		c.Oracle = "INCOMPLETE"
	}
	d, err := Decide(p, n, Options{Jobs: 1, MaxStates: b.DecideStates, Timeout: b.DecideTime, CacheBytes: -1, NoSymmetry: b.NoSymmetry,
		Exploration: b.Exploration, DepthFirst: b.DepthFirst, Workers: b.Workers, Commuting: b.Commuting})
	if err != nil {
		c.Decide = "error"
		c.Status, c.Detail = Disagree, "decide: "+err.Error()
		c.Internal = errors.Is(err, ErrInternal)
		return c
	}
	c.Decide = d.Verdict.String()
	if o.Err != nil {
		c.Status, c.Detail, c.Internal = Disagree, "oracle: "+o.Err.Error(), true
		return c
	}
	var why string
	switch d.Verdict {
	case Unknown:
		c.Status, c.Detail = Skipped, "decide: "+d.Reason
		return c
	case NotRobust:
		if o.Violation == nil && o.RangeErr == nil && !o.Complete {
			c.Status, c.Detail = Skipped, "oracle incomplete: "+o.Truncated
			return c
		}
		if o.Violation == nil {
			why = "decide found a certified violation the oracle missed\n" + describeWitness(p, d.Witness)
		}
	case Robust:
		if o.Violation != nil {
			why = "the oracle found a violation:\n" + formatEvents(p, o.Violation, o.Cycle)
		} else if o.RangeErr != nil {
			why = fmt.Sprintf("the oracle reached a run-time error: %v", o.RangeErr)
		} else if !o.Complete {
			c.Status, c.Detail = Skipped, "oracle incomplete: "+o.Truncated
			return c
		}
	case RunError:
		if o.Violation == nil && o.RangeErr == nil {
			if !o.Complete {
				c.Status, c.Detail = Skipped, "oracle incomplete: "+o.Truncated
				return c
			}
			why = fmt.Sprintf("decide reached a run-time error the oracle did not: %v", d.RunError.Err)
		}
	}
	if why != "" {
		c.Status, c.Detail = Disagree, why
	}
	return c
}

func describeWitness(p *pgas.Program, w *Witness) string {
	if w == nil {
		return ""
	}
	return formatEvents(p, w.Computation, w.HB)
}

func formatEvents(p *pgas.Program, evs []pgas.Event, cyc []pgas.HBEdge) string {
	var b strings.Builder
	for i, e := range evs {
		fmt.Fprintf(&b, "  %2d %s\n", i, p.Describe(e))
	}
	if len(cyc) > 0 {
		b.WriteString(pgas.HappensBefore(evs).FormatCycle(p, cyc))
	}
	return b.String()
}
