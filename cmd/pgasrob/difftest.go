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

	"github.com/spf13/pflag"

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
	// SkipReasons counts, by reason, the programs skipped for something
	// other than a budget: with --instrumentation, "context" and "await"
	// (programs with OpenSHMEM commands or a user's await, which the
	// instrumentation route refuses).
	SkipReasons map[string]int `json:"skip_reasons,omitempty"`
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

const difftestDescription = `Generate small random .pgas programs (or read every .pgas file in --dir) and
decide each with the automata procedure (Theorem 16) and with the
brute-force oracle over the plain semantics X(P,N). Print every
disagreement with a shrunken reproducer, written to --out. The random
programs use the OpenSHMEM constructs too (docs/shmem-calculus.md);
--shmem=false generates the programs of the generator before them.

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
the translation misses is counted under its cause (docs/translate.md).
Programs with OpenSHMEM commands or a user's await, which the
instrumentation route refuses, are skipped and counted under skip_reasons
("context", "await"); so --instrumentation generates the programs of
--shmem=false unless --shmem is given.`

// difftestCmd is the flag set of difftest.
type difftestCmd struct {
	fs                                    *pflag.FlagSet
	seed                                  *uint64
	count, ranks, workers                 *int
	dir, out, criterion                   *string
	loops, shmem, wide, noSym, depthFirst *bool
	tso, instr, reduceOracle              *bool
	strict, commuting, atomics            *bool
	asJSON                                *bool
	states, nodes, maxMem                 *int64
	timeout                               *time.Duration
	explore                               *cycles.Exploration
	shard                                 *shardFlags
}

func newDifftestCmd(stderr io.Writer) *difftestCmd {
	fs := newFlags("difftest", "difftest [--seed S] [--count K] [--ranks N] [--dir DIR] [--out DIR] [--loops] [--shmem=false] [--wide] [--no-symmetry] [--tso] [--json]",
		difftestDescription, exitsDifftest, stderr)
	c := &difftestCmd{fs: fs, explore: ptr(cycles.Shared)}
	c.seed = fs.Uint64("seed", 1, "first `seed`; program i uses seed+i")
	c.count = fs.Int("count", 100, "number of random programs")
	c.ranks = fs.Int("ranks", 2, "number of ranks N")
	c.dir = fs.String("dir", "", "check every .pgas file in `DIR` instead of random programs")
	c.out = fs.String("out", "", "write each shrunken reproducer to `DIR`")
	c.loops = fs.Bool("loops", false, "also generate programs with loops (the oracle may then be incomplete)")
	c.shmem = fs.Bool("shmem", true, "generate programs with OpenSHMEM contexts too (docs/shmem-calculus.md); --shmem=false: the generator of before, program for program (the default with --instrumentation, whose route refuses them)")
	c.wide = fs.Bool("wide", false, "generate programs whose values are a window LO..HI with negative values and sentinels up to C's int range (-1, 1337, INT_MAX; pgas/gen Config.Wide)")
	c.states = fs.Int64("max-states", cycles.DefaultCompareBudget.DecideStates, "decision procedure: states per cycle type and program")
	c.nodes = fs.Int64("oracle-nodes", cycles.DefaultCompareBudget.Oracle.MaxNodes, "oracle: states per program")
	c.timeout = fs.Duration("timeout", cycles.DefaultCompareBudget.DecideTime, "per side and program")
	c.reduceOracle = fs.Bool("reduce-oracle", false, "oracle: with its partial-order reduction (the one the portfolio of decide uses), to check it against the decision procedure")
	c.noSym = fs.Bool("no-symmetry", false, "decision procedure: search every cycle type, without rank symmetry")
	c.strict = fs.Bool("strict-conflicts", false, "both sides: "+strictFlagHelp)
	c.commuting = fs.Bool("commuting-atomics", false, commutingAliasHelp)
	c.atomics = fs.Bool("atomics", false, "with --shmem: make most OpenSHMEM statements non-fetching atomics on one cell, so that commuting updates are common (pgas/gen Config.Atomics)")
	fs.Var(c.explore, "exploration", "decision procedure: shared (the default of decide) or per-type")
	c.depthFirst = fs.Bool("depth-first", false, "decision procedure: search each cycle type depth-first (decide --depth-first)")
	c.workers = fs.Int("workers", 0, "decision procedure: run every search on this many goroutines from its first state (the parallel frontier; 0 or 1: one)")
	c.tso = fs.Bool("tso", false, "Trencher-format programs: compare the TSO/PSO checker with its oracle")
	c.criterion = fs.String("criterion", "robustness", "with --tso: the criterion compared, robustness (under TSO and PSO), persistence or trf (under TSO), or all")
	c.instr = fs.Bool("instrumentation", false, "compare decide with the instrumentation route (pgasrob translate + tso --model pso), and both oracles")
	c.asJSON = fs.Bool("json", false, "print one JSON object instead of text")
	c.maxMem = fs.Int64("max-memory", defaultMemoryMiB(), memoryFlagHelp)
	c.shard = addShardFlags(fs, false)
	return c
}

// difftestModes: .pgas programs against the oracle, Trencher programs
// against the tso oracles, or the two routes to PGAS robustness. The
// flags of the decision procedure mean nothing to the other two, which
// accept them as before (docs/cli.md).
const difftestCommon = "seed count dir out max-states oracle-nodes timeout json max-memory shard"

var difftestModes = modeTable{
	cmd:     "difftest",
	needs:   map[string]string{"criterion": "tso"},
	choices: []string{"criterion", "exploration"},
	modes: []mode{
		{key: "instrumentation", when: "instrumentation", name: "--instrumentation", uses: flagList("instrumentation ranks loops shmem wide", difftestCommon),
			ignores: flagList("no-symmetry exploration depth-first workers")},
		{key: "tso", when: "tso", name: "--tso", uses: flagList("tso criterion", difftestCommon),
			ignores: flagList("ranks loops wide no-symmetry exploration depth-first workers")},
		{key: "pgas", name: "difftest", uses: flagList("ranks loops shmem wide atomics strict-conflicts commuting-atomics no-symmetry exploration depth-first workers reduce-oracle", difftestCommon)},
	},
}

// resolve checks the flags against the mode they select and reads the
// criteria --tso compares; an error is a usage error.
func (c *difftestCmd) resolve() (mode string, crits []tso.Criterion, err error) {
	m, err := difftestModes.resolve(c.fs)
	if err != nil {
		return "", nil, err
	}
	if c.fs.NArg() != 0 || *c.count < 1 || *c.maxMem < 1 || *c.ranks < 1 || *c.ranks > maxDecideRanks || *c.states < 0 || *c.nodes < 0 || *c.timeout < 0 {
		return "", nil, fmt.Errorf("bad arguments (need --count >= 1, 1 <= --ranks <= %d, non-negative budgets, no positional arguments)", maxDecideRanks)
	}
	if err := conflictFlagsError(*c.strict, *c.commuting); err != nil {
		return "", nil, err
	}
	crits = tso.Criteria()
	if m.key == "tso" && *c.criterion != "all" {
		crit, err := tso.ParseCriterion(*c.criterion)
		if err != nil {
			return "", nil, err
		}
		crits = []tso.Criterion{crit}
	}
	return m.key, crits, nil
}

func runDifftest(args []string, stdout, stderr io.Writer) int {
	c := newDifftestCmd(stderr)
	if done, code := parseFlags(c.fs, args); done {
		return code
	}
	mode, crits, err := c.resolve()
	if err != nil {
		return usageError(stderr, "difftest", err)
	}
	sh, err := c.shard.parse(os.Getenv)
	if err != nil {
		return usageError(stderr, "difftest", err)
	}
	if *c.out != "" {
		if err := os.MkdirAll(*c.out, 0o755); err != nil {
			fmt.Fprintln(stderr, "pgasrob difftest:", err)
			return exitUsage
		}
	}
	run := &diffRun{shard: sh, settings: settingsOf(c.fs, "out"), start: time.Now(), asJSON: *c.asJSON || sh.Count > 0}
	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, *c.maxMem)
	defer unguard()
	if *c.workers > 1 {
		// Small programs' searches would otherwise end before the
		// workers start (automata.ParallelAfter).
		automata.ParallelAfter = 0
	}
	a := pgasArgs{seed: *c.seed, count: *c.count, ranks: *c.ranks, dir: *c.dir, out: *c.out, loops: *c.loops, shmem: *c.shmem, wide: *c.wide, atomics: *c.atomics}
	if mode == "instrumentation" && !c.fs.Changed("shmem") {
		// Its route refuses every program with a context: generated
		// ones would all be skipped.
		a.shmem = false
	}
	switch mode {
	case "instrumentation":
		return difftestPGAS(ctx, run, a, routesComparer(routeBudget{states: *c.states, nodes: *c.nodes, timeout: *c.timeout, ctx: ctx}), stdout, stderr)
	case "tso":
		return difftestTSO(ctx, run, crits, *c.seed, *c.count, *c.dir, *c.out, *c.states, *c.nodes, *c.timeout, stdout, stderr)
	}
	return difftestPGAS(ctx, run, a, decideComparer(cycles.CompareBudget{
		DecideStates: *c.states, DecideTime: *c.timeout,
		Oracle:     oracle.Bounds{MaxQueue: 4, MaxNodes: *c.nodes, Timeout: *c.timeout, Reduce: *c.reduceOracle},
		NoSymmetry: *c.noSym, Exploration: *c.explore, DepthFirst: *c.depthFirst, Workers: *c.workers,
		Commuting: !*c.strict,
	}), stdout, stderr)
}

// generated is program i of a generated run, reproducible from seed+i.
// Without shmem the generator draws exactly what it drew before contexts
// existed, so old seeds give the programs they gave.
func generated(seed uint64, i int, loops, shmem, wide bool, atomics ...bool) *gen.Program {
	s := seed + uint64(i)
	r := rand.New(rand.NewPCG(s, 0))
	c := gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4, Loops: loops && r.IntN(2) == 0}
	c.Shmem, c.Wide = shmem, wide
	c.Atomics = shmem && len(atomics) > 0 && atomics[0]
	c.SubsetBarriers = shmem // the OpenSHMEM programs have barriers over part of the ranks too
	gp := gen.Generate(r, c)
	gp.Name = fmt.Sprintf("seed%d", s)
	return gp
}

// compileCase compiles a case for N ranks. A user's file that fails is a
// usage error; a generated program that fails is the generator's bug.
func compileCase(name, src string, ranks int, fromDir bool, stderr io.Writer) (*pgas.Program, int) {
	p, err := compileProgramN(name, []byte(src), ranks)
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
	return readSourceFiles(files, stderr)
}
