package tso

import (
	"fmt"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// DiffBudget bounds one differential test.
type DiffBudget struct {
	MaxStates   int64         // per attack search of the checker
	OracleNodes int64         // for the oracle
	Timeout     time.Duration // for each of the two sides
}

// DiffTest decides criterion c of p under m twice, by the attack
// instrumentation (Check with Options.Criterion c) and by the criterion's
// own brute-force oracle (package oracle), and compares. It is the hook
// for "pgasrob difftest".
//
// agree is false only on a real disagreement: both sides reached a verdict
// and the verdicts differ, or the checker's witness failed its replay. A
// side that runs out of budget gives no evidence either way, so agree is
// then true and report says which side was undecided. report is a short
// human-readable account in every case (it holds the oracle's violating
// computation when the oracle finds one the checker missed).
func DiffTest(p *prog.Program, m prog.Model, c Criterion, b DiffBudget) (agree bool, report string) {
	agree, report, _, _ = diffTest(p, m, c, b)
	return agree, report
}

func diffTest(p *prog.Program, m prog.Model, crit Criterion, b DiffBudget) (bool, string, prog.Verdict, prog.Verdict) {
	c := check(p, m, Options{MaxStates: b.MaxStates, Timeout: b.Timeout, Jobs: 1, Criterion: crit})
	o := oracleFor(crit, p, m, oracle.Budget{MaxNodes: b.OracleNodes, Timeout: b.Timeout})
	agree, report := compare(p, m, c, o)
	return agree, report, c.Verdict, o.Verdict
}

func compare(p *prog.Program, m prog.Model, c *Result, o oracle.Result) (agree bool, report string) {
	var r strings.Builder
	fmt.Fprintf(&r, "%s %s %s: instrumentation %v (%d attacks, %d states), oracle %v (%d nodes)",
		p.File, m, c.Criterion, c.Criterion.VerdictString(c.Verdict), c.Generated, c.Stats.States, c.Criterion.VerdictString(o.Verdict), o.Nodes)
	if c.Verdict == prog.NotRobust && c.WitnessErr != nil {
		fmt.Fprintf(&r, "\nwitness replay failed: %v", c.WitnessErr)
		return false, r.String()
	}
	if c.Verdict == prog.Unknown || o.Verdict == prog.Unknown {
		fmt.Fprintf(&r, "\nundecided: %s%s", c.Reason, o.Reason)
		return true, r.String()
	}
	if c.Verdict == o.Verdict {
		return true, r.String()
	}
	r.WriteString("\nDISAGREEMENT")
	if o.Verdict == prog.NotRobust {
		r.WriteString("\noracle's violating computation:")
		for _, e := range o.Cycle {
			fmt.Fprintf(&r, "\n  %s --%s--> %s", p.DescribeEvent(o.Events[e.From]), e.Kind, p.DescribeEvent(o.Events[e.To]))
		}
	}
	if c.Witness != nil {
		r.WriteString("\nchecker's witness:\n" + c.Witness.Format(p))
	}
	return false, r.String()
}
