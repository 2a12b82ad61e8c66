package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso"
	tsogen "github.com/pgasrob/pgasrob/tso/gen"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// tsoDiff is tso.DiffTest; tests replace it.
var tsoDiff = tso.DiffTest

// difftestTSO is "pgasrob difftest --tso": the TSO/PSO attack checker
// against its brute-force oracle, through the hook tso.DiffTest, on
// Trencher-format programs. It shares the JSON shape of difftestJSON;
// "verdicts" counts agreeing runs per model (and criterion other than
// robustness, which is compared under TSO only).
func difftestTSO(ctx context.Context, run *diffRun, crits []tso.Criterion, seed uint64, count int, dir, out string, states, nodes int64, timeout time.Duration, stdout, stderr io.Writer) int {
	type pair struct {
		m    tsoprog.Model
		c    tso.Criterion
		name string
	}
	var pairs []pair
	var names []string
	for _, c := range crits {
		for _, m := range []tsoprog.Model{tsoprog.TSO, tsoprog.PSO} {
			name := m.String()
			if c != tso.Robustness {
				if m != tsoprog.TSO {
					continue
				}
				name += " " + c.String()
			}
			pairs, names = append(pairs, pair{m, c, name}), append(names, name)
		}
	}
	type tcase = sourceFile
	var cases []tcase
	var index []int // of each case among all programs of the run
	total := count
	if dir != "" {
		var ok bool
		if cases, ok = readSources(dir, ".txt", ".txt (Trencher)", stderr); !ok {
			return exitUsage
		}
		run.files, total = cases, len(cases)
		var kept []tcase
		for i, c := range cases {
			if run.keep(i) {
				kept, index = append(kept, c), append(index, i)
			}
		}
		cases = kept
	} else {
		for i := 0; i < count; i++ {
			if !run.keep(i) {
				continue
			}
			index = append(index, i)
			s := seed + uint64(i)
			r := rand.New(rand.NewPCG(s, 0))
			// Identical threads for three seeds in four: the TSO search folds
			// them (tso/symmetry.go), and the oracle checks that it may.
			cases = append(cases, tcase{fmt.Sprintf("seed%d", s), tsogen.Generate(r, tsogen.Config{Fences: r.IntN(2) == 0, Twins: s%4 != 0})})
		}
	}
	budget := tso.DiffBudget{MaxStates: states, OracleNodes: nodes, Timeout: timeout}
	res := difftestJSON{Schema: "pgasrob/difftest/v1", Seed: seed, Verdicts: map[string]int{}, Disagreements: []difftestCase{},
		TSO: "compared under " + strings.Join(names, ", ")}
	for k, tc := range cases {
		if ctx.Err() != nil {
			res.Interrupted, res.Reason = true, automata.StopReason(ctx)
			break
		}
		p, err := tsoprog.ParseProgram(tc.name, []byte(tc.src))
		if err != nil {
			if dir != "" {
				fmt.Fprintln(stderr, err)
				return exitUsage
			}
			fmt.Fprintf(stderr, "pgasrob difftest: internal error: generated program does not parse: %v\n%s", err, tc.src)
			return exitInternal
		}
		res.Programs++
		for _, pr := range pairs {
			m := pr.m
			agree, report := tsoDiff(p, m, pr.c, budget)
			switch {
			case agree && strings.Contains(report, "\nundecided:"):
				res.Skipped++
				continue
			case agree:
				res.Agree++
				res.Verdicts[pr.name]++
				continue
			}
			res.Disagree++
			small := shrinkTSO(tc.src, func(src string) bool {
				q, err := tsoprog.ParseProgram("repro", []byte(src))
				if err != nil {
					return false
				}
				ok, _ := tsoDiff(q, m, pr.c, budget)
				return !ok
			})
			dc := difftestCase{Program: tc.name + " " + pr.name, Detail: report, Source: small}
			if out != "" {
				base := strings.TrimSuffix(filepath.Base(tc.name), ".txt")
				dc.Repro = writeRepro(filepath.Join(out, base+"."+strings.ReplaceAll(strings.ToLower(pr.name), " ", ".")+".repro.txt"), small, stderr)
			}
			res.Disagreements = append(res.Disagreements, dc)
			run.index = append(run.index, index[k])
			if !run.asJSON {
				printDisagreement(stdout, dc, 0)
			}
		}
	}
	return run.finish(stdout, res, total, true)
}

// shrinkTSO deletes lines of a Trencher program while it still parses and
// still fails, at most 300 tries.
func shrinkTSO(src string, fails func(string) bool) string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	tries := 0
	for progress := true; progress && tries < 300; {
		progress = false
		for i := len(lines) - 1; i >= 0 && tries < 300; i-- {
			cand := slices.Delete(slices.Clone(lines), i, i+1)
			tries++
			if fails(strings.Join(cand, "\n") + "\n") {
				lines, progress = cand, true
			}
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
