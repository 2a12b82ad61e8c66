package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/automata/shard"
)

// diffRun is what a difftest run carries besides its programs: its shard
// (programs i with i mod K = I-1 are this shard's: the deal of
// shard.Assign for equal costs, without a list of ten million costs)
// and the disagreements' positions, so that merge lists them in order.
type diffRun struct {
	shard    shard.Shard
	settings []string
	files    []sourceFile // --dir: hashed into the shard file
	start    time.Time
	asJSON   bool
	index    []int // program index of each disagreement
}

// shardDifftest is the part of a difftest shard.
type shardDifftest struct {
	Total  int          `json:"total"` // programs of the whole run
	Result difftestJSON `json:"result"`
	Index  []int        `json:"disagreement_index"`
}

func (r *diffRun) keep(i int) bool {
	return r.shard.Count == 0 || i%r.shard.Count == r.shard.Index-1
}

// finish prints the summary (or writes the shard file) and returns the
// exit code.
func (r *diffRun) finish(stdout io.Writer, res difftestJSON, total int, tsoMode bool) int {
	res.ElapsedMS = time.Since(r.start).Milliseconds()
	res.ExitCode = difftestCode(res)
	if r.shard.Count > 0 {
		var b strings.Builder
		for _, f := range r.files {
			fmt.Fprintf(&b, "%s\x00%s\x00", f.name, f.src)
		}
		s := newShardJSON("difftest", r.shard, "", []byte(b.String()), r.settings)
		s.Source = "" // the programs are generated again, or read from --dir, not needed to merge
		s.Difftest = &shardDifftest{Total: total, Result: res, Index: append([]int{}, r.index...)}
		return s.finish(stdout, r.start, res.Reason, false)
	}
	printDifftest(stdout, res, total, tsoMode, r.asJSON)
	return res.ExitCode
}

func printDifftest(stdout io.Writer, res difftestJSON, total int, tsoMode, asJSON bool) {
	if asJSON {
		writeJSON(stdout, res)
		return
	}
	elapsed := time.Duration(res.ElapsedMS) * time.Millisecond
	if tsoMode {
		fmt.Fprintf(stdout, "%d Trencher programs x {%s}: %d agree, %d disagree, %d skipped (budget), %v; agreeing runs: %s\n",
			res.Programs, strings.TrimPrefix(res.TSO, "compared under "), res.Agree, res.Disagree, res.Skipped, elapsed, verdictCounts(res.Verdicts))
	} else {
		fmt.Fprintf(stdout, "%d programs (N=%d): %d agree, %d disagree, %d skipped (budget), %v; verdicts: %s\n",
			res.Programs, res.Ranks, res.Agree, res.Disagree, res.Skipped, elapsed, verdictCounts(res.Verdicts))
	}
	if len(res.Differences) > 0 {
		fmt.Fprintf(stdout, "PGAS violations the translation misses, by cause (docs/translate.md): %s\n", verdictCounts(res.Differences))
	}
	if len(res.SkipReasons) > 0 {
		fmt.Fprintf(stdout, "skipped without translation (the instrumentation route refuses OpenSHMEM commands and awaits): %s\n", verdictCounts(res.SkipReasons))
	}
	if res.Interrupted {
		fmt.Fprintf(stdout, "stopped after %d of %d programs: %s\n", res.Programs, total, res.Reason)
	}
}

// printDisagreement prints one disagreement as it is found; ranks is 0
// for Trencher programs.
func printDisagreement(w io.Writer, dc difftestCase, ranks int) {
	if ranks == 0 {
		name, model := dc.Program, ""
		if i := strings.LastIndex(dc.Program, " "); i >= 0 {
			name, model = dc.Program[:i], dc.Program[i+1:]
		}
		fmt.Fprintf(w, "DISAGREEMENT %s under %s\n%s\nshrunken reproducer:\n%s\n", name, model, indent(dc.Detail), indent(dc.Source))
		return
	}
	fmt.Fprintf(w, "DISAGREEMENT %s (N=%d): decide %s, oracle %s\n%s\nshrunken reproducer", dc.Program, ranks, dc.Decide, dc.Oracle, indent(dc.Detail))
	if dc.Repro != "" {
		fmt.Fprintf(w, " (%s)", dc.Repro)
	}
	fmt.Fprintf(w, ":\n%s\n", indent(dc.Source))
}

// mergeDifftest adds the shards' counts up; the run is complete only when
// every shard is there and finished.
func mergeDifftest(h *shardJSON, shards []*shardJSON, empty []string, asJSON bool, stdout, stderr io.Writer) int {
	tsoMode := false
	for _, s := range h.Settings {
		tsoMode = tsoMode || s == "--tso=true"
	}
	type found struct {
		index int
		dc    difftestCase
	}
	var all []found
	res := difftestJSON{Schema: "pgasrob/difftest/v1", Verdicts: map[string]int{}, Disagreements: []difftestCase{}}
	var gaps []string
	total := 0
	for i, s := range shards {
		if s == nil || s.Difftest == nil {
			gaps = append(gaps, fmt.Sprintf("shard %d/%d %s", i+1, len(shards), missingWhy(s, "its programs", empty)))
			continue
		}
		d := s.Difftest.Result
		if len(s.Difftest.Index) != len(d.Disagreements) {
			fmt.Fprintf(stderr, "pgasrob merge: shard %d/%d: %d disagreements but %d positions (damaged file)\n", i+1, len(shards), len(d.Disagreements), len(s.Difftest.Index))
			return exitUsage
		}
		total = s.Difftest.Total
		res.Seed, res.Ranks, res.TSO = d.Seed, d.Ranks, d.TSO
		res.Programs += d.Programs
		res.Agree += d.Agree
		res.Disagree += d.Disagree
		res.Skipped += d.Skipped
		res.ElapsedMS = max(res.ElapsedMS, d.ElapsedMS)
		for v, c := range d.Verdicts {
			res.Verdicts[v] += c
		}
		for why, c := range d.SkipReasons {
			if res.SkipReasons == nil {
				res.SkipReasons = map[string]int{}
			}
			res.SkipReasons[why] += c
		}
		for cause, c := range d.Differences {
			if res.Differences == nil {
				res.Differences = map[string]int{}
			}
			res.Differences[cause] += c
		}
		if d.Interrupted {
			gaps = append(gaps, fmt.Sprintf("shard %d/%d stopped: %s", i+1, len(shards), d.Reason))
		}
		for k, dc := range d.Disagreements {
			all = append(all, found{s.Difftest.Index[k], dc})
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].index < all[b].index })
	for _, f := range all {
		res.Disagreements = append(res.Disagreements, f.dc)
		if !asJSON {
			printDisagreement(stdout, f.dc, map[bool]int{true: 0, false: res.Ranks}[tsoMode])
		}
	}
	if len(gaps) > 0 {
		res.Interrupted, res.Reason = true, strings.Join(gaps, "; ")
	}
	res.ExitCode = difftestCode(res)
	printDifftest(stdout, res, total, tsoMode, asJSON)
	return res.ExitCode
}
