package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

func init() {
	register(subcommand{name: "merge", summary: "combine the shard files of a run split with --shard (Slurm job arrays)", run: runMerge})
}

const mergeDescription = `Combine the files written by the shards of one run (decide, cycles, tso or
difftest with --shard I/K or --shard slurm) into the output and exit code
the same command gives without --shard: NOT ROBUST with its witness if
any shard found one (replayed and certified again here, not taken on
trust), a run-time error if a shard met one, UNKNOWN naming the shards
that are missing or ran out of their budget, ROBUST only when every part
of the work is covered. Shards of different inputs, settings, K or
pgasrob versions are refused. See docs/cluster.md.

The exit code is that of the merged command (see its --help); 2 also
when the shard files do not belong together or are damaged.`

const exitsMerge = "exit codes: as the merged command gives them: 0 robust (difftest: no disagreement), 1 not robust\n" +
	"(difftest: a disagreement), 2 usage or input error (also shard files that are damaged or not of one run,\n" +
	"and a run-time error), 3 unknown (a shard missing or out of budget), 4 internal error (a witness failed its replay)"

func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("merge", "merge SHARD.json... [--json] [--dot FILE]", mergeDescription, exitsMerge, stderr)
	asJSON := fs.Bool("json", false, "print the merged command's JSON object instead of text")
	dot := fs.String("dot", "", "decide or tso: write the witness as a Graphviz graph to `FILE`, as the command's --dot does")
	if done, code := parseFlags(fs, args); done {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "pgasrob merge: %s\n", fmt.Sprintf(format, a...))
		return exitUsage
	}
	if fs.NArg() == 0 {
		return fail("no shard files given\nRun \"pgasrob merge --help\" for usage.")
	}
	shards, empty, err := readShards(fs.Args())
	if err != nil {
		return fail("%v", err)
	}
	first := slices.IndexFunc(shards, func(s *shardJSON) bool { return s != nil })
	if first < 0 {
		// Nothing says what the run was: no verdict to give but UNKNOWN.
		fmt.Fprintf(stderr, "pgasrob merge: UNKNOWN: every shard file is empty (%s): the shards were stopped before they wrote; run them again\n", strings.Join(empty, ", "))
		return exitUnknown
	}
	h := shards[first]
	switch h.Command {
	case "decide", "cycles":
		return mergeDecide(h, shards, empty, *asJSON, *dot, stdout, stderr)
	case "tso":
		return mergeTSO(h, shards, empty, *asJSON, *dot, stdout, stderr)
	case "difftest":
		return mergeDifftest(h, shards, empty, *asJSON, stdout, stderr)
	}
	return fail("shards of an unknown command %q", h.Command)
}

// readShards reads shard files and checks that they are the parts of one
// run; it returns them by index (nil where a part is missing), and the
// files that are empty: what a shard killed outright (Slurm's time limit,
// the kernel's OOM killer) leaves, a missing part rather than a damaged
// file (docs/cluster.md).
func readShards(files []string) (byIndex []*shardJSON, empty []string, err error) {
	var first *shardJSON
	for _, f := range files {
		b, err := readCapped(f, 1<<30)
		if err != nil {
			return nil, nil, err
		}
		if len(bytes.TrimSpace(b)) == 0 {
			empty = append(empty, f)
			continue
		}
		s := &shardJSON{}
		if err := json.Unmarshal(b, s); err != nil || s.Schema != shardSchema {
			return nil, nil, fmt.Errorf("%s: not a shard file (schema %s): run the command with --shard", f, shardSchema)
		}
		if first == nil {
			first = s
			if s.Count < 1 || s.Count > maxShards {
				return nil, nil, fmt.Errorf("%s: shard count %d out of range", f, s.Count)
			}
			byIndex = make([]*shardJSON, s.Count)
		}
		if err := sameRun(first, s); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", f, err)
		}
		if s.Index < 1 || s.Index > s.Count {
			return nil, nil, fmt.Errorf("%s: shard %d/%d out of range", f, s.Index, s.Count)
		}
		if byIndex[s.Index-1] != nil {
			return nil, nil, fmt.Errorf("%s: shard %d/%d given twice", f, s.Index, s.Count)
		}
		if sha256Hex([]byte(s.Source)) != s.InputSHA256 && s.Command != "difftest" {
			return nil, nil, fmt.Errorf("%s: the program text does not match its hash (damaged file)", f)
		}
		byIndex[s.Index-1] = s
	}
	if len(byIndex) == 0 {
		byIndex = []*shardJSON{nil} // every file empty
	}
	return byIndex, empty, nil
}

// sameRun says why s is not a part of the run of first.
func sameRun(first, s *shardJSON) error {
	switch {
	case s.Version != first.Version:
		return fmt.Errorf("written by pgasrob %s, the first shard by %s", s.Version, first.Version)
	case s.Command != first.Command:
		return fmt.Errorf("a shard of %s, the first shard is of %s", s.Command, first.Command)
	case s.Count != first.Count:
		return fmt.Errorf("one of %d shards, the first shard is one of %d", s.Count, first.Count)
	case s.InputSHA256 != first.InputSHA256:
		return fmt.Errorf("input %s differs from the first shard's input %s (sha256)", s.Input, first.Input)
	case !slices.Equal(s.Settings, first.Settings):
		return fmt.Errorf("settings %q differ from the first shard's %q", s.Settings, first.Settings)
	case s.CostsSHA256 != first.CostsSHA256:
		return fmt.Errorf("balanced by another --shard-costs file than the first shard")
	}
	return nil
}

// missingWhy says why shard i has no part for what is merged; empty are
// the empty files given, one of which is likely this shard's.
func missingWhy(s *shardJSON, what string, empty []string) string {
	if s == nil && len(empty) > 0 {
		return fmt.Sprintf("missing (empty file %s: a shard stopped before it wrote)", strings.Join(empty, ", "))
	}
	if s == nil {
		return "missing"
	}
	if s.Reason != "" {
		return fmt.Sprintf("has no result for %s (%s)", what, s.Reason)
	}
	return "has no result for " + what
}

// parseSettings applies a shard's settings to the command's flag set.
func parseSettings(fs *pflag.FlagSet, h *shardJSON) error {
	if err := fs.Parse(h.Settings); err != nil {
		return fmt.Errorf("the shards' settings %q do not parse: %v", h.Settings, err)
	}
	return nil
}

func mergeDecide(h *shardJSON, shards []*shardJSON, empty []string, asJSON bool, dot string, stdout, stderr io.Writer) int {
	var b *budgetFlags
	var pr interface {
		add(outcome)
		finish() int
	}
	var onlyFor func(int) []cycles.CycleType
	all := true
	prog, err := compileProgram(h.Input, []byte(h.Source))
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob merge: the shards' program does not compile: %v\n", err)
		return exitUsage
	}
	if w := prog.Widen; w != nil {
		// The shards may have widened the inferred domain (widen.go):
		// their witnesses are replayed in the widest one the types allow.
		if q, err := prog.WithDomain(w.Lo, w.Hi); err == nil {
			prog = q
		}
	}
	var perr error
	switch h.Command {
	case "decide":
		c := newDecideCmd(io.Discard)
		b, perr = c.b, parseSettings(c.fs, h)
		all = *c.all
		verdictOut := stdout
		if dot == "-" {
			verdictOut = stderr // as decide: the graph alone on stdout
		}
		pr = &decidePrinter{stdout: verdictOut, stderr: stderr, dotOut: stdout, file: h.Input, prog: prog, asJSON: asJSON, dot: dot,
			out: decideJSON{Schema: decideSchema, File: h.Input, NArg: *c.b.n, Results: []nResultJSON{}}}
	default:
		c := newCyclesCmd(io.Discard)
		b, perr = c.b, parseSettings(c.fs, h)
		onlyFor = c.onlyFor
		restricted := len(*c.only) > 0
		pr = &cyclesPrinter{stdout: stdout, stderr: stderr, file: h.Input, asJSON: asJSON, restricted: restricted, prog: prog,
			out: cyclesJSON{Schema: cyclesSchema, File: h.Input, Program: prog.Name, NArg: *c.b.n, Results: []cyclesNJSON{}, Restricted: restricted}}
	}
	lo, hi, err := parseRange(*b.n)
	if perr != nil || err != nil {
		fmt.Fprintf(stderr, "pgasrob merge: %v\n", errors.Join(perr, err))
		return exitUsage
	}
	if dp, ok := pr.(*decidePrinter); ok {
		dp.isRange = lo < hi
		dp.out.NArg = *b.n
	} else if cp, ok := pr.(*cyclesPrinter); ok {
		cp.out.NArg = *b.n
	}
	for n := lo; n <= hi; n++ {
		parts := make([]cycles.Part, len(shards))
		for i, s := range shards {
			parts[i] = cycles.Part{Index: i + 1, Missing: missingWhy(s, fmt.Sprintf("N = %d", n), empty)}
			if s == nil {
				continue
			}
			k := slices.IndexFunc(s.Decide, func(d shardDecideN) bool { return d.N == n })
			if k < 0 {
				continue
			}
			r, err := decodeDecideN(prog, s.Decide[k])
			if err != nil {
				if errors.Is(err, cycles.ErrInternal) {
					pr.add(outcome{N: n, Err: fmt.Errorf("shard %d/%d: %w", i+1, len(shards), err), Code: exitInternal})
					return pr.finish()
				}
				fmt.Fprintf(stderr, "pgasrob merge: shard %d/%d, N = %d: %v (damaged file)\n", i+1, len(shards), n, err)
				return exitUsage
			}
			parts[i].Result = r
		}
		opt := cycles.Options{NoSymmetry: *b.noSymmetry, All: all, Commuting: !*b.strict}
		if onlyFor != nil {
			opt.Only = onlyFor(n)
		}
		res, err := safeMerge(prog, n, opt, len(shards), parts)
		if err != nil && !errors.Is(err, cycles.ErrInternal) {
			fmt.Fprintf(stderr, "pgasrob merge: N = %d: %v\n", n, err)
			return exitUsage
		}
		o := outcomeOf(n, res, err)
		pr.add(o)
		if o.Code == exitInternal {
			break
		}
	}
	return pr.finish()
}

// safeMerge is cycles.Merge with a panic (a damaged file the checks let
// through) turned into an internal error.
func safeMerge(p *pgas.Program, n int, opt cycles.Options, count int, parts []cycles.Part) (res *cycles.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("%w: merge: panic: %v", cycles.ErrInternal, v)
		}
	}()
	return cycles.Merge(p, n, opt, count, parts)
}
