package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/pgas"
)

// shardSchema versions the file a shard writes and "pgasrob merge" reads
// (docs/cluster.md).
const shardSchema = "pgasrob/shard/v1"

// shardJSON is the output of a command run with --shard: everything merge
// needs to rebuild the command's own output, with what must agree between
// the shards of one run.
type shardJSON struct {
	Schema  string `json:"schema"`
	Version string `json:"version"` // of pgasrob: shards of different releases are refused
	Command string `json:"command"`
	Index   int    `json:"index"` // 1..Count
	Count   int    `json:"count"`
	// Input is the file as given; InputSHA256 hashes its bytes (for
	// difftest: the generated programs' parameters or the --dir files),
	// and Source holds them, so that merge needs no access to the file.
	Input       string `json:"input"`
	InputSHA256 string `json:"input_sha256"`
	Source      string `json:"source,omitempty"`
	// Settings lists every flag given that changes the result (budgets
	// included), as --name=value: shards whose settings differ are refused.
	Settings []string `json:"settings"`
	// CostsSHA256 hashes the --shard-costs file, which decides the split.
	CostsSHA256 string `json:"costs_sha256,omitempty"`
	ElapsedMS   int64  `json:"elapsed_ms"`
	// Done is false when the shard was stopped (signal, memory) before it
	// finished its part; what it did is still recorded.
	Done     bool           `json:"done"`
	Reason   string         `json:"reason,omitempty"`
	ExitCode int            `json:"exit_code"`
	Decide   []shardDecideN `json:"decide,omitempty"`
	TSO      *shardTSO      `json:"tso,omitempty"`
	Difftest *shardDifftest `json:"difftest,omitempty"`
}

// shardFlags are --shard and --shard-costs.
type shardFlags struct {
	spec  *string
	costs *string
}

func addShardFlags(fs *pflag.FlagSet, costs bool) *shardFlags {
	s := &shardFlags{spec: fs.String("shard", "", "run only part `I/K` of the work (I from 1), or \"slurm\" for the part of this Slurm array task; writes a shard file for \"pgasrob merge\" (docs/cluster.md)")}
	if costs {
		s.costs = fs.String("shard-costs", "", "balance the shards by the states per cycle type of an earlier `FILE` (pgasrob cycles --json or merge --json of cycles)")
	}
	return s
}

// parse reads --shard; getenv is os.Getenv except in tests.
func (s *shardFlags) parse(getenv func(string) string) (shard.Shard, error) {
	spec := strings.TrimSpace(*s.spec)
	if spec == "" {
		return shard.Shard{}, nil
	}
	if spec == "slurm" {
		return slurmShard(getenv)
	}
	a, b, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	k, err2 := strconv.Atoi(strings.TrimSpace(b))
	sh := shard.Shard{Index: i, Count: k}
	if !ok || err1 != nil || err2 != nil || k < 1 || !sh.Valid() || k > maxShards {
		return shard.Shard{}, fmt.Errorf("--shard %q: want I/K with 1 <= I <= K <= %d, or slurm", spec, maxShards)
	}
	return sh, nil
}

// maxShards bounds K: more parts than that is a mistake, not a cluster.
const maxShards = 1 << 20

// slurmShard takes the part from a Slurm job array task: the task's
// position in the array (ids need not start at 0 or 1, but must be
// consecutive) and the array's size.
func slurmShard(getenv func(string) string) (shard.Shard, error) {
	num := func(name string) (int, error) {
		v := getenv(name)
		if v == "" {
			return 0, fmt.Errorf("--shard slurm: %s is not set (not in a Slurm job array task?)", name)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("--shard slurm: %s=%q is not a number", name, v)
		}
		return n, nil
	}
	id, err := num("SLURM_ARRAY_TASK_ID")
	if err != nil {
		return shard.Shard{}, err
	}
	count, err := num("SLURM_ARRAY_TASK_COUNT")
	if err != nil {
		return shard.Shard{}, err
	}
	lo, err := num("SLURM_ARRAY_TASK_MIN")
	if err != nil {
		return shard.Shard{}, err
	}
	hi, err := num("SLURM_ARRAY_TASK_MAX")
	if err != nil {
		return shard.Shard{}, err
	}
	if step := getenv("SLURM_ARRAY_TASK_STEP"); step != "" && step != "1" || hi-lo+1 != count {
		return shard.Shard{}, fmt.Errorf("--shard slurm: the array must be consecutive ids (like --array=0-%d), got %d..%d with %d tasks", count-1, lo, hi, count)
	}
	sh := shard.Shard{Index: id - lo + 1, Count: count}
	if !sh.Valid() || count > maxShards {
		return shard.Shard{}, fmt.Errorf("--shard slurm: task %d is not in %d..%d", id, lo, hi)
	}
	return sh, nil
}

// settingsOf lists the flags given on the command line as --name=value,
// sorted, leaving out those that cannot change a result.
func settingsOf(fs *pflag.FlagSet, ignore ...string) []string {
	skip := map[string]bool{"shard": true, "json": true, "jobs": true, "dot": true, "help": true}
	for _, n := range ignore {
		skip[n] = true
	}
	out := []string{}
	fs.Visit(func(f *pflag.Flag) {
		if skip[f.Name] {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	sort.Strings(out)
	return out
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// newShardJSON starts the shard file of a command.
func newShardJSON(cmd string, sh shard.Shard, input string, src []byte, settings []string) *shardJSON {
	return &shardJSON{Schema: shardSchema, Version: version, Command: cmd, Index: sh.Index, Count: sh.Count,
		Input: input, InputSHA256: sha256Hex(src), Source: string(src), Settings: settings}
}

// finish records how the shard ended and writes it. A shard that did its
// part exits 0 whatever the part's verdict, so that a Slurm dependency
// afterok starts the merge; the verdict is merge's to give.
func (s *shardJSON) finish(w io.Writer, start time.Time, stopReason string, internal bool) int {
	s.ElapsedMS = time.Since(start).Milliseconds()
	s.Done, s.Reason = stopReason == "", stopReason
	s.ExitCode = exitRobust
	if internal {
		s.ExitCode = exitInternal
	}
	writeJSON(w, s)
	return s.ExitCode
}

// readShardCosts reads the states per cycle type from an earlier cycles
// JSON output (or a merge of one), for --shard-costs.
func readShardCosts(file string) (map[string]int64, string, error) {
	b, err := readCapped(file, 256<<20)
	if err != nil {
		return nil, "", err
	}
	var c struct {
		Schema  string        `json:"schema"`
		Results []cyclesNJSON `json:"results"`
	}
	if err := json.Unmarshal(b, &c); err != nil || c.Schema != cyclesSchema {
		return nil, "", fmt.Errorf("--shard-costs %s: not the --json output of pgasrob cycles (schema %s)", file, cyclesSchema)
	}
	costs := map[string]int64{}
	for _, r := range c.Results {
		for _, t := range r.Types {
			if t.SymmetricTo == nil {
				costs[fmt.Sprintf("%d:%s", r.N, typeKey(t.CycleType))] = t.Stats.States
			}
		}
	}
	return costs, sha256Hex(b), nil
}

// typeKey writes a cycle type as CycleType.String does.
func typeKey(c []int) string {
	parts := make([]string, len(c))
	for i, r := range c {
		parts[i] = strconv.Itoa(r)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// costsFor picks the costs of one N out of readShardCosts' map.
func costsFor(all map[string]int64, n int) map[string]int64 {
	if all == nil {
		return nil
	}
	prefix := fmt.Sprintf("%d:", n)
	out := map[string]int64{}
	for k, v := range all {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			out[rest] = v
		}
	}
	return out
}

// readCapped reads a regular file of at most limit bytes.
func readCapped(file string, limit int64) ([]byte, error) {
	return pgas.ReadLimited(file, limit, "this kind of file")
}
