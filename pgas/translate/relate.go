package translate

import (
	"fmt"

	"github.com/pgasrob/pgasrob/pgas"
)

// The relation between the two routes to PGAS robustness
// (docs/translate.md): a violation of the translation under the
// framework's semantics is a violation of X(P,N); a violation of X(P,N)
// that the translation misses has a documented cause. Relate checks it on
// the answers of four deciders, two per side (a procedure and its oracle);
// the command runs them (pgasrob difftest --instrumentation), this package
// owns what their answers must satisfy.

// Answer is one decider's answer on one program: whether it found a
// violation, and whether it answered at all (a budget may stop it).
type Answer struct {
	Who       string // in messages: "decide", "the X(P,N) oracle"
	NotRobust bool
	Known     bool
}

// Relation is how the two routes' answers stand to each other.
type Relation int

const (
	RoutesAgree     Relation = iota // the same verdict
	RoutesDiffer                    // X(P,N) has a violation the translation misses, for a documented cause
	RoutesBroken                    // a relation that must hold does not: a bug of one side
	RoutesUndecided                 // a side has no answer, or the program is not for this comparison
)

// Comparison is what Relate found.
type Comparison struct {
	Status          Relation
	PGAS, Framework string // the sides' verdicts: ROBUST, NOT ROBUST or UNKNOWN
	Cause           Cause  // RoutesDiffer: the difference that hides the violation
	Detail          string // why, when broken or undecided
}

// Relate checks the answers on (P, N): each side's answers, its procedure's
// first and its oracle's second, must agree where both answered; a
// violation of the translation must be one of X(P,N); a violation of X(P,N)
// the translation misses must have a cause Explain finds in violation, a
// violating computation of X(P,N). witness, the framework's witness as
// text, is added to the detail of a violation of the translation that
// X(P,N) lacks. A side's verdict is its procedure's, or its oracle's when
// the procedure has no answer.
func Relate(p *pgas.Program, n int, pgasSide, framework [2]Answer, violation []pgas.Event, witness string) Comparison {
	c := Comparison{PGAS: verdictWord(pgasSide[0]), Framework: verdictWord(framework[0])}
	for _, side := range [][2]Answer{pgasSide, framework} {
		if a, b := side[0], side[1]; a.Known && b.Known && a.NotRobust != b.NotRobust {
			c.Status, c.Detail = RoutesBroken, fmt.Sprintf("%s and %s disagree (not robust: %v, %v)", a.Who, b.Who, a.NotRobust, b.NotRobust)
			return c
		}
	}
	for _, f := range framework {
		for _, g := range pgasSide {
			if f.Known && f.NotRobust && g.Known && !g.NotRobust {
				c.Status, c.Detail = RoutesBroken, fmt.Sprintf("%s finds a violation of the translation, %s none in X(P,N)", f.Who, g.Who)
				if witness != "" {
					c.Detail += "\n" + witness
				}
				return c
			}
		}
	}
	pg, fw := sideAnswer(pgasSide), sideAnswer(framework)
	c.PGAS, c.Framework = verdictWord(pg), verdictWord(fw)
	switch {
	case !pg.Known || !fw.Known:
		c.Status, c.Detail = RoutesUndecided, "a budget ran out"
	case pg.NotRobust && !fw.NotRobust:
		c.Status, c.Cause = RoutesDiffer, Explain(p, n, violation)
		if c.Cause == CauseUnexplained {
			c.Status, c.Detail = RoutesBroken, "X(P,N) has a violation that no documented difference explains"
		}
	}
	return c
}

// sideAnswer is the first answer of a side that is known.
func sideAnswer(side [2]Answer) Answer {
	for _, a := range side {
		if a.Known {
			return a
		}
	}
	return Answer{}
}

func verdictWord(a Answer) string {
	switch {
	case !a.Known:
		return "UNKNOWN"
	case a.NotRobust:
		return "NOT ROBUST"
	}
	return "ROBUST"
}
