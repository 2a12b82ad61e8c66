package main

import (
	"context"
	"fmt"
	"time"

	"pgasrob/cycles"
	"pgasrob/pgas"
	"pgasrob/pgas/oracle"
	"pgasrob/pgas/translate"
	"pgasrob/tso"
)

// This file compares the two routes to PGAS robustness on one program:
// the exact procedure (cycles.Decide, checked by the brute-force oracle of
// X(P,N)) and the instrumentation route (the translation run through
// tso.Check under the framework's semantics, checked by tso.Oracle). The
// relation they must obey is in docs/translate.md: a violation of the
// translation is a violation of the PGAS program; the converse fails, for
// the documented causes of translate.Explain.

type routeBudget struct {
	states, nodes int64
	timeout       time.Duration
	ctx           context.Context
}

// routeStatus is the outcome of one comparison.
type routeStatus int

const (
	routesAgree   routeStatus = iota
	routesDiffer              // PGAS not robust, translation robust: Cause says why
	routesBug                 // a relation that must hold does not
	routesSkipped             // a budget ran out, a run-time error, or no translation
)

type routeComparison struct {
	Status       routeStatus
	PGAS, Instr  string // verdicts of the two routes
	Cause        translate.Cause
	Detail       string
	DecideStates int64
	InstrStates  int64
}

func compareRoutes(p *pgas.Program, n int, b routeBudget) routeComparison {
	var c routeComparison
	tr, err := translate.Translate(p, n)
	if err != nil {
		c.Status, c.Detail = routesSkipped, "no translation: "+err.Error()
		return c
	}
	tp, err := tso.ParseProgram("translation", tr.Text)
	if err != nil {
		c.Status, c.Detail = routesBug, "the translation does not parse: "+err.Error()
		return c
	}
	ob := oracle.Bounds{MaxQueue: 4, MaxNodes: b.nodes, Timeout: b.timeout, Context: b.ctx}
	o := oracle.Explore(p, n, ob)
	d, err := cycles.Decide(p, n, cycles.Options{Jobs: 1, MaxStates: b.states, Timeout: b.timeout, CacheBytes: -1, Procedure: cycles.Automata})
	if err != nil {
		c.Status, c.Detail = routesBug, "decide: "+err.Error()
		return c
	}
	c.DecideStates = d.Stats.States
	if d.Verdict == cycles.RunError || o.RangeErr != nil {
		c.Status, c.Detail = routesSkipped, "a run-time error is reachable in X(P,N); the translation blocks there instead"
		return c
	}
	ir := tso.Check(tp, tso.PSO, tso.Options{Jobs: 1, MaxStates: b.states, Timeout: b.timeout, Context: b.ctx})
	c.InstrStates = ir.Stats.States
	to := tso.Oracle(tp, tso.PSO, tso.OracleBudget{MaxNodes: b.nodes, Timeout: b.timeout, Context: b.ctx})
	c.PGAS, c.Instr = d.Verdict.String(), ir.Verdict.String()
	if ir.Verdict != tso.Unknown && to.Verdict != tso.Unknown && ir.Verdict != to.Verdict {
		c.Status, c.Detail = routesBug, fmt.Sprintf("on the translation, tso.Check says %v and tso.Oracle %v", ir.Verdict, to.Verdict)
		return c
	}
	pgasNR, pgasKnown := d.Verdict == cycles.NotRobust, d.Verdict != cycles.Unknown
	if !pgasKnown && (o.Violation != nil || o.Complete) {
		pgasNR, pgasKnown = o.Violation != nil, true
		c.PGAS = map[bool]string{true: "NOT ROBUST", false: "ROBUST"}[pgasNR]
	}
	instrNR, instrKnown := ir.Verdict == tso.NotRobust, ir.Verdict != tso.Unknown
	if !instrKnown && to.Verdict != tso.Unknown {
		instrNR, instrKnown = to.Verdict == tso.NotRobust, true
		c.Instr = to.Verdict.String()
	}
	switch {
	case !pgasKnown || !instrKnown:
		c.Status, c.Detail = routesSkipped, "a budget ran out"
	case instrNR && !pgasNR:
		c.Status, c.Detail = routesBug, "the translation has a violation that X(P,N) has not"
		if ir.Witness != nil {
			c.Detail += "\n" + ir.Witness.Format(tp)
		}
	case pgasNR && !instrNR:
		evs := o.Violation
		if evs == nil && d.Witness != nil {
			evs = d.Witness.Computation
		}
		c.Status, c.Cause = routesDiffer, translate.Explain(p, n, evs)
		if c.Cause == translate.CauseUnexplained {
			c.Status, c.Detail = routesBug, "X(P,N) has a violation that no documented difference explains"
		}
	}
	return c
}
