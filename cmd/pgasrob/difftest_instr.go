package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

type instrArgs struct {
	seed         uint64
	count, ranks int
	dir, out     string
	loops        bool
	budget       routeBudget
}

// compareRoutesFunc is compareRoutes; tests replace it to reach the
// disagreement path.
var compareRoutesFunc = compareRoutes

// difftestInstr is "pgasrob difftest --instrumentation": the exact
// procedure against the instrumentation route (routes.go) on generated or
// given .pgas programs.
func difftestInstr(ctx context.Context, run *diffRun, a instrArgs, stdout, stderr io.Writer) int {
	type tcase struct {
		name, src string
		gp        *gen.Program
	}
	var cases []tcase
	total := a.count
	if a.dir != "" {
		files, ok := readSources(a.dir, ".pgas", ".pgas", stderr)
		if !ok {
			return exitUsage
		}
		for _, f := range files {
			cases = append(cases, tcase{name: f.name, src: f.src})
		}
		run.files, total = files, len(files)
	}
	res := difftestJSON{Schema: "pgasrob/difftest/v1", Seed: a.seed, Ranks: a.ranks, Verdicts: map[string]int{}, Disagreements: []difftestCase{},
		TSO: "instrumentation route: translation checked under the framework's semantics (PSO)", Differences: map[string]int{}}
	prog := newProgress(stderr)
	for i := 0; i < total; i++ {
		if !run.keep(i) {
			continue
		}
		if ctx.Err() != nil {
			res.Interrupted, res.Reason = true, automata.StopReason(ctx)
			break
		}
		var tc tcase
		if a.dir != "" {
			tc = cases[i]
		} else {
			gp := generated(a.seed, i, a.loops)
			tc = tcase{name: gp.Name, src: gp.String(), gp: gp}
		}
		prog.show("difftest: %d/%d programs, %d disagreements", i, total, res.Disagree)
		p, code := compileCase(tc.name, tc.src, a.ranks, a.dir != "", stderr)
		if p == nil {
			return code
		}
		res.Programs++
		c := compareRoutesFunc(p, a.ranks, a.budget)
		switch c.Status {
		case routesSkipped:
			res.Skipped++
			continue
		case routesAgree:
			res.Agree++
			res.Verdicts[c.PGAS]++
			continue
		case routesDiffer:
			res.Agree++
			res.Verdicts[c.PGAS]++
			res.Differences[string(c.Cause)]++
			continue
		}
		res.Disagree++
		still := func(src string) bool {
			q, err := pgas.Compile("repro.pgas", []byte(src))
			return err == nil && pgas.CheckN(q, a.ranks) == nil && compareRoutesFunc(q, a.ranks, a.budget).Status == routesBug
		}
		small := tc.src
		if tc.gp != nil {
			small = gen.Shrink(tc.gp, func(g *gen.Program) bool { return still(g.String()) }, 300).String()
		} else {
			small = gen.ShrinkSource(tc.src, still, 300)
		}
		dc := difftestCase{Program: tc.name, Decide: c.PGAS, Oracle: "instrumentation " + c.Instr, Detail: c.Detail, Source: small}
		if a.out != "" {
			if err := os.MkdirAll(a.out, 0o755); err == nil {
				dc.Repro = filepath.Join(a.out, strings.TrimSuffix(filepath.Base(tc.name), ".pgas")+".repro.pgas")
				header := fmt.Sprintf("# difftest --instrumentation reproducer for %s, N=%d: decide %s, instrumentation %s\n", tc.name, a.ranks, c.PGAS, c.Instr)
				if err := os.WriteFile(dc.Repro, []byte(header+small), 0o644); err != nil {
					dc.Repro = ""
				}
			}
		}
		res.Disagreements = append(res.Disagreements, dc)
		run.index = append(run.index, i)
		if !run.asJSON {
			printDisagreement(stdout, dc, a.ranks)
		}
	}
	prog.clear()
	return run.finish(stdout, res, total, false)
}
