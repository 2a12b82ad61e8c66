package main

import (
	"fmt"
	"slices"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/translate"
)

// compareRoutesFunc is compareRoutes; tests replace it to reach the
// disagreement path.
var compareRoutesFunc = compareRoutes

// routesComparer is "pgasrob difftest --instrumentation": the exact
// procedure against the instrumentation route (routes.go). A PGAS
// violation the translation misses for a documented cause is agreement,
// counted by cause; a broken relation is a disagreement.
func routesComparer(b routeBudget) pgasComparer {
	return pgasComparer{shrinkTries: 300,
		report: difftestJSON{TSO: "instrumentation route: translation checked under the framework's semantics (PSO)", Differences: map[string]int{}},
		compare: func(name string, p *pgas.Program, n int) pgasVerdict {
			if why := untranslatable(p); why != "" {
				return pgasVerdict{status: diffSkipped, skip: why}
			}
			c := compareRoutesFunc(p, n, b)
			switch c.Status {
			case translate.RoutesUndecided:
				return pgasVerdict{status: diffSkipped}
			case translate.RoutesAgree:
				return pgasVerdict{status: diffAgree, verdict: c.PGAS}
			case translate.RoutesDiffer:
				return pgasVerdict{status: diffAgree, verdict: c.PGAS, cause: string(c.Cause)}
			}
			return pgasVerdict{status: diffDisagree,
				dc:     difftestCase{Decide: c.PGAS, Oracle: "instrumentation " + c.Framework, Detail: c.Detail},
				header: fmt.Sprintf("# difftest --instrumentation reproducer for %s, N=%d: decide %s, instrumentation %s\n", name, n, c.PGAS, c.Framework)}
		}}
}

// The skip reasons of --instrumentation, counted in skip_reasons.
const (
	skipContext = "context" // the program uses an OpenSHMEM command
	skipAwait   = "await"   // the program has a user's atomic await
)

// untranslatable says why the instrumentation route has no translation of
// p, which translate.Translate refuses by name (docs/translate.md): an
// OpenSHMEM command, or an await written by the user (a guarded load that
// no sugar produced). "" when there is none of them. A context declared
// and not used changes nothing and is translated.
func untranslatable(p *pgas.Program) string {
	if p.HasCtx() {
		return skipContext
	}
	if slices.ContainsFunc(p.Trans, func(t pgas.Trans) bool { return t.Cmd.Op == pgas.OpLoad && t.Cmd.Guard != nil && t.Sugar == "" }) {
		return skipAwait
	}
	return ""
}
