package main

import (
	"context"
	"fmt"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
	"github.com/pgasrob/pgasrob/pgas/translate"
	"github.com/pgasrob/pgasrob/tso"
	tsooracle "github.com/pgasrob/pgasrob/tso/oracle"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// This file compares the two routes to PGAS robustness on one program:
// the exact procedure (cycles.Decide, checked by the brute-force oracle of
// X(P,N)) and the instrumentation route (the translation run through
// tso.Check under the framework's semantics, checked by
// tso/oracle.Robustness). The relation they must obey is in
// docs/translate.md: a violation of the translation is a violation of the
// PGAS program; the converse fails, for the documented causes of
// translate.Explain.

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
	Status      routeStatus
	PGAS, Instr string // verdicts of the two routes
	Cause       translate.Cause
	Detail      string
}

func compareRoutes(p *pgas.Program, n int, b routeBudget) routeComparison {
	var c routeComparison
	tr, err := translate.Translate(p, n)
	if err != nil {
		c.Status, c.Detail = routesSkipped, "no translation: "+err.Error()
		return c
	}
	tp, err := tsoprog.ParseProgram("translation", tr.Text)
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
	if d.Verdict == cycles.RunError || o.RangeErr != nil {
		c.Status, c.Detail = routesSkipped, "a run-time error is reachable in X(P,N); the translation blocks there instead"
		return c
	}
	ir, err := tso.Check(tp, tsoprog.PSO, tso.Options{Jobs: 1, MaxStates: b.states, Timeout: b.timeout, Context: b.ctx})
	if err != nil {
		c.Status, c.Detail = routesBug, "tso.Check: "+err.Error()
		return c
	}
	if ir.WitnessErr != nil {
		c.Status, c.Detail = routesBug, "tso.Check: a witness of the translation failed its replay: "+ir.WitnessErr.Error()
		return c
	}
	to := tsooracle.Robustness(tp, tsoprog.PSO, tsooracle.Budget{MaxNodes: b.nodes, Timeout: b.timeout, Context: b.ctx})
	c.PGAS, c.Instr = d.Verdict.String(), ir.Verdict.String()
	// Four deciders, two per side; a side's verdict is its procedure's,
	// or its oracle's when the procedure ran out of budget.
	pg := []sideVerdict{{"decide", d.Verdict == cycles.NotRobust, d.Verdict != cycles.Unknown},
		{"the X(P,N) oracle", o.Violation != nil, o.Violation != nil || o.Complete}}
	fw := []sideVerdict{{"tso.Check", ir.Verdict == tsoprog.NotRobust, ir.Verdict != tsoprog.Unknown},
		{"tso.Oracle", to.Verdict == tsoprog.NotRobust, to.Verdict != tsoprog.Unknown}}
	for _, side := range [][]sideVerdict{pg, fw} {
		if a, b := side[0], side[1]; a.known && b.known && a.nr != b.nr {
			c.Status, c.Detail = routesBug, fmt.Sprintf("%s and %s disagree (not robust: %v, %v)", a.who, b.who, a.nr, b.nr)
			return c
		}
	}
	// The relation: a violation of the translation is one of X(P,N).
	for _, f := range fw {
		for _, g := range pg {
			if f.known && f.nr && g.known && !g.nr {
				c.Status, c.Detail = routesBug, fmt.Sprintf("%s finds a violation of the translation, %s none in X(P,N)", f.who, g.who)
				if ir.Witness != nil {
					c.Detail += "\n" + ir.Witness.Format(tp)
				}
				return c
			}
		}
	}
	pgasNR, pgasKnown := pick(pg)
	instrNR, instrKnown := pick(fw)
	c.PGAS, c.Instr = verdictWordOf(pgasNR, pgasKnown), verdictWordOf(instrNR, instrKnown)
	switch {
	case !pgasKnown || !instrKnown:
		c.Status, c.Detail = routesSkipped, "a budget ran out"
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

type sideVerdict struct {
	who       string
	nr, known bool
}

func pick(vs []sideVerdict) (nr, known bool) {
	for _, v := range vs {
		if v.known {
			return v.nr, true
		}
	}
	return false, false
}

func verdictWordOf(nr, known bool) string {
	switch {
	case !known:
		return "UNKNOWN"
	case nr:
		return "NOT ROBUST"
	}
	return "ROBUST"
}
