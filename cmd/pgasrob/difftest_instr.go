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
			if isContextProgram(p) {
				return pgasVerdict{status: diffSkipped, skip: skipContext}
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

// skipContext is the skip reason of programs with OpenSHMEM contexts.
const skipContext = "context"

// isContextProgram reports whether p declares or uses an OpenSHMEM
// context: the instrumentation route has no translation for them
// (translate refuses them by name), so there is nothing to compare.
func isContextProgram(p *pgas.Program) bool {
	return p.HasCtx() || slices.Contains(p.Ctx, true)
}
