package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
	"github.com/pgasrob/pgasrob/tso"
)

func init() {
	register(subcommand{name: "difftest", summary: "compare the decision procedure with the brute-force oracle on random or given programs", run: runDifftest})
}

// difftestJSON is the --json output of "pgasrob difftest" (docs/cli.md).
type difftestJSON struct {
	Schema        string         `json:"schema"`
	Seed          uint64         `json:"seed"`
	Ranks         int            `json:"ranks"`
	Programs      int            `json:"programs"`
	Agree         int            `json:"agree"`
	Disagree      int            `json:"disagree"`
	Skipped       int            `json:"skipped"`
	Verdicts      map[string]int `json:"verdicts"` // decide's verdicts over compared programs
	TSO           string         `json:"tso"`      // why the TSO checker did not run
	ElapsedMS     int64          `json:"elapsed_ms"`
	Interrupted   bool           `json:"interrupted"`      // a signal or the memory budget ended the run early
	Reason        string         `json:"reason,omitempty"` // why, when interrupted
	ExitCode      int            `json:"exit_code"`
	Disagreements []difftestCase `json:"disagreements"`
	// Differences counts, with --instrumentation, the programs where PGAS
	// is not robust and the translation is, by documented cause
	// (translate.Causes); disagreements there are the bugs.
	Differences map[string]int `json:"differences,omitempty"`
}

type difftestCase struct {
	Program  string `json:"program"` // generated name (seed) or input file
	Decide   string `json:"decide"`
	Oracle   string `json:"oracle"`
	Detail   string `json:"detail"`
	Internal bool   `json:"internal"`
	Repro    string `json:"repro,omitempty"` // file holding the shrunken reproducer
	Source   string `json:"source"`          // the shrunken reproducer
}

// compare is cycles.Compare; tests replace it to exercise the disagreement
// path, which a correct decision procedure never takes.
var compare = cycles.Compare

func runDifftest(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("difftest", "difftest [--seed S] [--count K] [--ranks N] [--dir DIR] [--out DIR] [--loops] [--no-symmetry] [--tso] [--json]",
		`Generate small random .pgas programs (or read every .pgas file in --dir) and
decide each with the automata procedure (Theorem 16) and with the
brute-force oracle over the plain semantics X(P,N). Print every
disagreement with a shrunken reproducer, written to --out.

Each program gets its own budget; a side that runs out of it gives no
evidence, and the program is counted as skipped. Exit 0 if no program
disagreed, 1 if one did, 3 if nothing could be compared.

With --tso, the programs are Trencher-format programs instead (generated,
or every *.txt file in --dir), and the TSO/PSO attack checker (package
tso) is compared with its own brute-force oracle under TSO and under PSO;
--criterion persistence, trf or all compares those criteria (under TSO)
with their own oracles (docs/criteria.md).
The automata procedure reads .pgas only, so it does not take part then.

With --instrumentation, each .pgas program is also translated
(pgasrob translate) and checked by the instrumentation route; the oracles
of both sides run too. A violation of the translation that X(P,N) lacks,
a PGAS violation that no documented cause explains, or the tso checker
disagreeing with its oracle is a disagreement (a bug); a PGAS violation
the translation misses is counted under its cause (docs/translate.md).`, exitsDifftest, stderr)
	seed := fs.Uint64("seed", 1, "first `seed`; program i uses seed+i")
	count := fs.Int("count", 100, "number of random programs")
	ranks := fs.Int("ranks", 2, "number of ranks N")
	dir := fs.String("dir", "", "check every .pgas file in `DIR` instead of random programs")
	out := fs.String("out", "", "write each shrunken reproducer to `DIR`")
	loops := fs.Bool("loops", false, "also generate programs with loops (the oracle may then be incomplete)")
	states := fs.Int64("max-states", cycles.DefaultCompareBudget.DecideStates, "decision procedure: states per cycle type and program")
	nodes := fs.Int64("oracle-nodes", cycles.DefaultCompareBudget.Oracle.MaxNodes, "oracle: states per program")
	timeout := fs.Duration("timeout", cycles.DefaultCompareBudget.DecideTime, "per side and program")
	noSym := fs.Bool("no-symmetry", false, "decision procedure: search every cycle type, without rank symmetry")
	explore := ptr(cycles.Shared)
	fs.Var(explore, "exploration", "decision procedure: shared (the default of decide) or per-type")
	depthFirst := fs.Bool("depth-first", false, "decision procedure: search each cycle type depth-first (decide --depth-first)")
	workers := fs.Int("workers", 0, "decision procedure: run every search on this many goroutines from its first state (the parallel frontier; 0 or 1: one)")
	useTSO := fs.Bool("tso", false, "Trencher-format programs: compare the TSO/PSO checker with its oracle")
	criterion := fs.String("criterion", "robustness", "with --tso: the criterion compared, robustness (under TSO and PSO), persistence or trf (under TSO), or all")
	useInstr := fs.Bool("instrumentation", false, "compare decide with the instrumentation route (pgasrob translate + tso --model pso), and both oracles")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	maxMem := fs.Int64("max-memory", defaultMemoryMiB(), memoryFlagHelp)
	shardFlag := addShardFlags(fs, false)
	if done, code := parseFlags(fs, args); done {
		if code != exitRobust {
			fmt.Fprintln(stderr, `Run "pgasrob difftest --help" for usage.`)
		}
		return code
	}
	if fs.NArg() != 0 || *count < 1 || *maxMem < 1 || *ranks < 1 || *ranks > maxDecideRanks || *states < 0 || *nodes < 0 || *timeout < 0 {
		fmt.Fprintf(stderr, "pgasrob difftest: bad arguments (need --count >= 1, 1 <= --ranks <= %d, non-negative budgets, no positional arguments)\n", maxDecideRanks)
		return exitUsage
	}
	sh, err := shardFlag.parse(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob difftest: %v\n", err)
		return exitUsage
	}
	run := &diffRun{shard: sh, settings: settingsOf(fs, "out"), start: time.Now(), asJSON: *asJSON || sh.Count > 0}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintln(stderr, "pgasrob difftest:", err)
			return exitUsage
		}
	}
	budget := cycles.CompareBudget{
		DecideStates: *states, DecideTime: *timeout,
		Oracle:     oracle.Bounds{MaxQueue: 4, MaxNodes: *nodes, Timeout: *timeout},
		NoSymmetry: *noSym, Exploration: *explore, DepthFirst: *depthFirst, Workers: *workers,
	}
	if *workers > 1 {
		// Small programs' searches would otherwise end before the
		// workers start (automata.ParallelAfter).
		automata.ParallelAfter = 0
	}

	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, *maxMem)
	defer unguard()
	if fs.Changed("criterion") && !*useTSO {
		fmt.Fprintln(stderr, "pgasrob difftest: --criterion goes with --tso")
		return exitUsage
	}
	if *useInstr && *useTSO {
		fmt.Fprintln(stderr, "pgasrob difftest: --tso and --instrumentation exclude each other")
		return exitUsage
	}
	if *useInstr {
		return difftestInstr(ctx, run, instrArgs{seed: *seed, count: *count, ranks: *ranks, dir: *dir, out: *out, loops: *loops,
			budget: routeBudget{states: *states, nodes: *nodes, timeout: *timeout, ctx: ctx}}, stdout, stderr)
	}
	if *useTSO {
		crits := tso.Criteria()
		if *criterion != "all" {
			c, err := tso.ParseCriterion(*criterion)
			if err != nil {
				fmt.Fprintf(stderr, "pgasrob difftest: %v\n", err)
				return exitUsage
			}
			crits = []tso.Criterion{c}
		}
		return difftestTSO(ctx, run, crits, *seed, *count, *dir, *out, *states, *nodes, *timeout, stdout, stderr)
	}
	// A case is a program with a source text and a way to shrink it.
	type tcase struct {
		name string
		src  string
		gp   *gen.Program // nil for a user's file
	}
	var cases []tcase
	if *dir != "" {
		files, ok := readSources(*dir, ".pgas", ".pgas", stderr)
		if !ok {
			return exitUsage
		}
		for _, f := range files {
			cases = append(cases, tcase{name: f.name, src: f.src})
		}
		run.files = files
	}
	res := difftestJSON{Schema: "pgasrob/difftest/v1", Seed: *seed, Ranks: *ranks, Verdicts: map[string]int{}, Disagreements: []difftestCase{},
		TSO: "not applicable: the TSO/PSO checker reads Trencher programs, not .pgas (see --tso)"}
	prog := newProgress(stderr)
	total := *count
	if *dir != "" {
		total = len(cases)
	}
	for i := 0; i < total; i++ {
		if !run.keep(i) {
			continue
		}
		if ctx.Err() != nil {
			res.Interrupted, res.Reason = true, automata.StopReason(ctx)
			break
		}
		var tc tcase
		if *dir != "" {
			tc = cases[i]
		} else {
			gp := generated(*seed, i, *loops)
			tc = tcase{name: gp.Name, src: gp.String(), gp: gp}
		}
		prog.show("difftest: %d/%d programs, %d disagreements", i, total, res.Disagree)
		p, code := compileCase(tc.name, tc.src, *ranks, *dir != "", stderr)
		if p == nil {
			return code
		}
		res.Programs++
		c := compare(p, *ranks, budget)
		switch c.Status {
		case cycles.Skipped:
			res.Skipped++
			continue
		case cycles.Agree:
			res.Agree++
			res.Verdicts[c.Decide]++
			continue
		}
		res.Disagree++
		still := func(src string) bool {
			q, err := pgas.Compile("repro.pgas", []byte(src))
			return err == nil && pgas.CheckN(q, *ranks) == nil && compare(q, *ranks, budget).Status == cycles.Disagree
		}
		small := tc.src
		if tc.gp != nil {
			small = gen.Shrink(tc.gp, func(g *gen.Program) bool { return still(g.String()) }, 500).String()
		} else {
			small = gen.ShrinkSource(tc.src, still, 500)
		}
		dc := difftestCase{Program: tc.name, Decide: c.Decide, Oracle: c.Oracle, Detail: c.Detail, Internal: c.Internal, Source: small}
		if *out != "" {
			base := strings.TrimSuffix(filepath.Base(tc.name), ".pgas")
			dc.Repro = filepath.Join(*out, base+".repro.pgas")
			header := fmt.Sprintf("# difftest reproducer for %s, N=%d: decide %s, oracle %s\n", tc.name, *ranks, c.Decide, c.Oracle)
			if err := os.WriteFile(dc.Repro, []byte(header+small), 0o644); err != nil {
				fmt.Fprintln(stderr, "pgasrob difftest:", err)
				dc.Repro = ""
			}
		}
		res.Disagreements = append(res.Disagreements, dc)
		run.index = append(run.index, i)
		if !run.asJSON {
			printDisagreement(stdout, dc, *ranks)
		}
	}
	prog.clear()
	return run.finish(stdout, res, total, false)
}

// generated is program i of a generated run, reproducible from seed+i.
func generated(seed uint64, i int, loops bool) *gen.Program {
	s := seed + uint64(i)
	r := rand.New(rand.NewPCG(s, 0))
	c := gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4, Loops: loops && r.IntN(2) == 0}
	gp := gen.Generate(r, c)
	gp.Name = fmt.Sprintf("seed%d", s)
	return gp
}

// compileCase compiles a case for N ranks. A user's file that fails is a
// usage error; a generated program that fails is the generator's bug.
func compileCase(name, src string, ranks int, fromDir bool, stderr io.Writer) (*pgas.Program, int) {
	p, err := pgas.Compile(name, []byte(src))
	if err == nil {
		err = pgas.CheckN(p, ranks)
	}
	switch {
	case err == nil:
		return p, 0
	case fromDir:
		fmt.Fprintln(stderr, err)
		return nil, exitUsage
	}
	fmt.Fprintf(stderr, "pgasrob difftest: internal error: generated program does not compile: %v\n%s", err, src)
	return nil, exitInternal
}

// difftestCode: a disagreement is exit 1 even in a partial run; an
// interrupted run or one where nothing could be compared is exit 3.
func difftestCode(res difftestJSON) int {
	switch {
	case res.Disagree > 0:
		return exitNotRobust
	case res.Interrupted || res.Agree == 0:
		return exitUnknown
	}
	return exitRobust
}

// verdictCounts prints counts by verdict in name order ("none" if empty).
func verdictCounts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// sourceFile is a program read from --dir.
type sourceFile struct{ name, src string }

// readSources reads every file of dir ending in ext, in name order. It
// prints the problem and returns false when there is none or one cannot be
// read.
func readSources(dir, ext, what string, stderr io.Writer) ([]sourceFile, bool) {
	files, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil || len(files) == 0 {
		fmt.Fprintf(stderr, "pgasrob difftest: no %s files in %s\n", what, dir)
		return nil, false
	}
	sort.Strings(files)
	var out []sourceFile
	for _, f := range files {
		b, err := pgas.ReadSource(f)
		if err != nil {
			fmt.Fprintln(stderr, "pgasrob difftest:", err)
			return nil, false
		}
		out = append(out, sourceFile{f, string(b)})
	}
	return out, true
}
