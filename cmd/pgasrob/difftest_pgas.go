package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// The .pgas runs of difftest: plain (decide against the X(P,N) oracle)
// and --instrumentation (the two routes). They share the walk through the
// programs and differ in the comparison, a pgasComparer.

// pgasArgs are what a .pgas run needs besides its comparison.
type pgasArgs struct {
	seed         uint64
	count, ranks int
	dir, out     string
	loops, shmem bool
	wide         bool // gen.Config.Wide: negative and large values
	atomics      bool // gen.Config.Atomics: commuting atomics on one cell
}

type diffStatus int

const (
	diffAgree diffStatus = iota
	diffSkipped
	diffDisagree
)

// pgasVerdict is one comparison of a .pgas program.
type pgasVerdict struct {
	status  diffStatus
	verdict string       // agree: counted in "verdicts"
	cause   string       // agree: a documented difference, counted in "differences"
	skip    string       // skipped for a reason other than a budget, counted in "skip_reasons"
	dc      difftestCase // disagree: the verdicts and the evidence
	header  string       // disagree: the reproducer's first line
}

// pgasComparer is how a mode compares a .pgas program on N ranks.
type pgasComparer struct {
	compare func(name string, p *pgas.Program, n int) pgasVerdict
	// shrinkTries bounds the shrinking of a disagreeing program.
	shrinkTries int
	// report holds the fields of the report particular to the mode.
	report difftestJSON
}

// decideComparer is plain difftest: cycles.Decide against the oracle.
func decideComparer(budget cycles.CompareBudget) pgasComparer {
	return pgasComparer{shrinkTries: 500,
		report: difftestJSON{TSO: "not applicable: the TSO/PSO checker reads Trencher programs, not .pgas (see --tso)"},
		compare: func(name string, p *pgas.Program, n int) pgasVerdict {
			c := compare(p, n, budget)
			switch c.Status {
			case cycles.Skipped:
				return pgasVerdict{status: diffSkipped}
			case cycles.Agree:
				return pgasVerdict{status: diffAgree, verdict: c.Decide}
			}
			return pgasVerdict{status: diffDisagree,
				dc:     difftestCase{Decide: c.Decide, Oracle: c.Oracle, Detail: c.Detail, Internal: c.Internal},
				header: fmt.Sprintf("# difftest reproducer for %s, N=%d: decide %s, oracle %s\n", name, n, c.Decide, c.Oracle)}
		}}
}

// difftestPGAS compares generated programs, or those of --dir, and
// prints the report (or writes the shard file).
func difftestPGAS(ctx context.Context, run *diffRun, a pgasArgs, cmp pgasComparer, stdout, stderr io.Writer) int {
	// A case is a program with a source text and, when generated, a way
	// to shrink it.
	type tcase struct {
		name, src string
		gp        *gen.Program
	}
	var cases []tcase
	total := a.count
	if a.dir != "" {
		files, ok := readProgramSources(a.dir, stderr)
		if !ok {
			return exitUsage
		}
		for _, f := range files {
			cases = append(cases, tcase{name: f.name, src: f.src})
		}
		run.files, total = files, len(files)
	}
	res := cmp.report
	res.Schema, res.Seed, res.Ranks, res.Verdicts, res.Disagreements = "pgasrob/difftest/v1", a.seed, a.ranks, map[string]int{}, []difftestCase{}
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
			gp := generated(a.seed, i, a.loops, a.shmem, a.wide, a.atomics)
			tc = tcase{name: gp.Name, src: gp.String(), gp: gp}
		}
		prog.step(progressStep{cmd: "difftest", what: "programs", done: i, total: total, states: -1, extra: fmt.Sprintf("%d disagreements", res.Disagree)})
		p, code := compileCase(tc.name, tc.src, a.ranks, a.dir != "", stderr)
		if p == nil {
			return code
		}
		res.Programs++
		v := cmp.compare(tc.name, p, a.ranks)
		switch v.status {
		case diffSkipped:
			res.Skipped++
			if v.skip != "" {
				if res.SkipReasons == nil {
					res.SkipReasons = map[string]int{}
				}
				res.SkipReasons[v.skip]++
			}
			continue
		case diffAgree:
			res.Agree++
			res.Verdicts[v.verdict]++
			if v.cause != "" {
				res.Differences[v.cause]++
			}
			continue
		}
		res.Disagree++
		still := func(src string) bool {
			q, err := pgas.Compile("repro.pgas", []byte(src))
			return err == nil && pgas.CheckN(q, a.ranks) == nil && cmp.compare("repro.pgas", q, a.ranks).status == diffDisagree
		}
		dc := v.dc
		dc.Program, dc.Source = tc.name, tc.src
		if tc.gp != nil {
			dc.Source = gen.Shrink(tc.gp, func(g *gen.Program) bool { return still(g.String()) }, cmp.shrinkTries).String()
		} else {
			dc.Source = gen.ShrinkSource(tc.src, still, cmp.shrinkTries)
		}
		if a.out != "" {
			base := strings.TrimSuffix(filepath.Base(tc.name), ".pgas")
			dc.Repro = writeRepro(filepath.Join(a.out, base+".repro.pgas"), v.header+dc.Source, stderr)
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

// writeRepro writes a reproducer and returns its file name, or "" (with
// the error printed) when it cannot be written.
func writeRepro(file, text string, stderr io.Writer) string {
	if err := writeAtomic(file, []byte(text)); err != nil {
		fmt.Fprintln(stderr, "pgasrob difftest:", err)
		return ""
	}
	return file
}
