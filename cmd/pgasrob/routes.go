package main

import (
	"context"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
	"github.com/pgasrob/pgasrob/pgas/translate"
	"github.com/pgasrob/pgasrob/tso"
	tsooracle "github.com/pgasrob/pgasrob/tso/oracle"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// difftest --instrumentation compares the two routes to PGAS robustness on
// one program: the exact procedure (cycles.Decide, checked by the
// brute-force oracle of X(P,N)) and the instrumentation route (the
// translation run through tso.Check under the framework's semantics,
// checked by tso/oracle.Robustness). What their answers must satisfy is
// translate.Relate's; here they are only run.

type routeBudget struct {
	states, nodes int64
	timeout       time.Duration
	ctx           context.Context
}

// compareRoutes runs the four deciders on (P, N), the exact procedure
// and the X(P,N) oracle on one side, tso.Check and tso.Oracle on the
// translation on the other, and lets translate.Relate judge their answers.
// A program without a translation, or with a reachable run-time error (where
// the translation blocks instead), is not compared.
func compareRoutes(p *pgas.Program, n int, b routeBudget) translate.Comparison {
	undecided := func(why string) translate.Comparison {
		return translate.Comparison{Status: translate.RoutesUndecided, Detail: why}
	}
	broken := func(why string) translate.Comparison {
		return translate.Comparison{Status: translate.RoutesBroken, Detail: why}
	}
	tr, err := translate.Translate(p, n)
	if err != nil {
		return undecided("no translation: " + err.Error())
	}
	tp, err := tsoprog.ParseProgram("translation", tr.Text)
	if err != nil {
		return broken("the translation does not parse: " + err.Error())
	}
	o := oracle.Explore(p, n, oracle.Bounds{MaxQueue: 4, MaxNodes: b.nodes, Timeout: b.timeout, Context: b.ctx})
	d, err := cycles.Decide(p, n, cycles.Options{Jobs: 1, MaxStates: b.states, Timeout: b.timeout, CacheBytes: -1, Procedure: cycles.Automata})
	if err != nil {
		return broken("decide: " + err.Error())
	}
	if d.Verdict == cycles.RunError || o.RangeErr != nil {
		return undecided("a run-time error is reachable in X(P,N); the translation blocks there instead")
	}
	ir, err := tso.Check(tp, tsoprog.PSO, tso.Options{Jobs: 1, MaxStates: b.states, Timeout: b.timeout, Context: b.ctx})
	if err != nil {
		return broken("tso.Check: " + err.Error())
	}
	if ir.WitnessErr != nil {
		return broken("tso.Check: a witness of the translation failed its replay: " + ir.WitnessErr.Error())
	}
	to := tsooracle.Robustness(tp, tsoprog.PSO, tsooracle.Budget{MaxNodes: b.nodes, Timeout: b.timeout, Context: b.ctx})
	pg := [2]translate.Answer{{Who: "decide", NotRobust: d.Verdict == cycles.NotRobust, Known: d.Verdict != cycles.Unknown},
		{Who: "the X(P,N) oracle", NotRobust: o.Violation != nil, Known: o.Violation != nil || o.Complete}}
	fw := [2]translate.Answer{{Who: "tso.Check", NotRobust: ir.Verdict == tsoprog.NotRobust, Known: ir.Verdict != tsoprog.Unknown},
		{Who: "tso.Oracle", NotRobust: to.Verdict == tsoprog.NotRobust, Known: to.Verdict != tsoprog.Unknown}}
	violation := o.Violation
	if violation == nil && d.Witness != nil {
		violation = d.Witness.Computation
	}
	witness := ""
	if ir.Witness != nil {
		witness = ir.Witness.Format(tp)
	}
	return translate.Relate(p, n, pg, fw, violation, witness)
}
