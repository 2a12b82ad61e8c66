package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/report"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// shardDecideN is one N of a decide or cycles shard: its part's outcome
// in full (stats, every cycle type it searched, witnesses as marked
// letters), enough for merge to rebuild the unsharded result.
type shardDecideN struct {
	N         int          `json:"n"`
	Verdict   string       `json:"verdict"` // of this shard's part
	Reason    string       `json:"reason,omitempty"`
	Error     string       `json:"error,omitempty"` // an internal error
	Stats     shardStats   `json:"stats"`
	ElapsedNS int64        `json:"elapsed_ns"`
	CacheHits int64        `json:"cache_hits"`
	CacheMiss int64        `json:"cache_misses"`
	TypeCount int          `json:"type_count"` // cycle types of the whole decision; 0 if stopped before them
	RunError  *shardRunErr `json:"runtime_error,omitempty"`
	Types     []shardType  `json:"types"` // the cycle types this shard searched itself
	// Streamed, for N beyond cycles.MaxListedTypes: the part's counts
	// (cycles.TypeCounts); type_count is then the number of all cycle
	// types and index a type's position among them (cycles.TypeRank).
	Streamed *shardStreamed `json:"streamed,omitempty"`
}

type shardStreamed struct {
	Searched   int64 `json:"searched"`
	Feasible   int64 `json:"feasible"`
	Infeasible int64 `json:"infeasible"`
	Unknown    int64 `json:"unknown"`
	Symmetric  int64 `json:"symmetric"`
}

type shardStats struct {
	States      int64 `json:"states"`
	Transitions int64 `json:"transitions"`
	Bytes       int64 `json:"bytes"`
	ElapsedNS   int64 `json:"elapsed_ns"`
}

type shardRunErr struct {
	Message string  `json:"message"`
	Path    [][]int `json:"path"` // events, as in shardType.Witness without head and mark
}

type shardType struct {
	Index   int        `json:"index"` // in the decision's list of cycle types, from 0
	Cycle   []int      `json:"cycle_type"`
	Outcome string     `json:"outcome"` // empty (infeasible), nonempty (feasible), unknown
	Reason  string     `json:"reason,omitempty"`
	Checked bool       `json:"checked"`
	Stats   shardStats `json:"stats"`
	// Witness lists σ letter by letter: head, mark, then the event's kind,
	// rank, has-cell (0/1), cell rank, cell address, transition, queue.
	Witness [][]int `json:"witness,omitempty"`
}

func toShardStats(s automata.Stats) shardStats {
	return shardStats{s.States, s.Transitions, s.Bytes, int64(s.Elapsed)}
}

func (s shardStats) stats() automata.Stats {
	return automata.Stats{States: s.States, Transitions: s.Transitions, Bytes: s.Bytes, Elapsed: time.Duration(s.ElapsedNS)}
}

func eventInts(e pgas.Event) []int {
	has := 0
	if e.HasCell {
		has = 1
	}
	return []int{int(e.Kind), e.Rank, has, e.Cell.Rank, e.Cell.Addr, e.Trans, e.Queue}
}

// eventOf decodes an event and checks it against the program, so that a
// damaged file is an error, not a crash in the replay. KAFetch is the last
// kind (pgas/event.go). The Item of a context pop is not in the file:
// cycles.Merge numbers the items when it certifies the witness.
func eventOf(p *pgas.Program, n int, v []int) (pgas.Event, error) {
	if len(v) != 7 {
		return pgas.Event{}, fmt.Errorf("an event has %d numbers, want 7", len(v))
	}
	e := pgas.Event{Kind: pgas.Kind(v[0]), Rank: v[1], HasCell: v[2] == 1, Cell: pgas.Cell{Rank: v[3], Addr: v[4]}, Trans: v[5], Queue: v[6]}
	switch {
	case v[0] < 0 || v[0] > int(pgas.KAFetch), e.Rank < 1 || e.Rank > n, v[2] != 0 && v[2] != 1,
		e.HasCell && (e.Cell.Rank < 1 || e.Cell.Rank > n || e.Cell.Addr < 0 || e.Cell.Addr >= len(p.Addrs)),
		e.Trans < 0 || e.Trans >= len(p.Trans), e.Queue < -1 || e.Queue >= len(p.Queues):
		return pgas.Event{}, fmt.Errorf("event %v is not an event of the program for N = %d", v, n)
	}
	return e, nil
}

func encodeDecideN(o outcome) shardDecideN {
	d := shardDecideN{N: o.N, Verdict: report.VerdictWord(o), Types: []shardType{}}
	if o.Err != nil {
		d.Error = o.Err.Error()
	}
	r := o.Res
	if r == nil {
		return d
	}
	d.Reason, d.Stats, d.ElapsedNS = r.Reason, toShardStats(r.Stats), int64(r.Elapsed)
	d.CacheHits, d.CacheMiss, d.TypeCount = r.CacheHits, r.CacheMiss, len(r.Types)
	if re := r.RunError; re != nil {
		d.RunError = &shardRunErr{Message: re.Err.Error(), Path: [][]int{}}
		for _, e := range re.Path {
			d.RunError.Path = append(d.RunError.Path, eventInts(e))
		}
	}
	if r.Partial {
		k := r.Counts
		d.TypeCount = int(k.Total)
		d.Streamed = &shardStreamed{k.Searched, k.Feasible, k.Infeasible, k.Unknown, k.BySymmetry}
	}
	for i, t := range r.Types {
		if t.SymmetricTo != nil || t.Reason == cycles.OtherShardReason {
			continue
		}
		if r.Partial {
			i = int(cycles.TypeRank(t.Cycle, r.N))
		}
		st := shardType{Index: i, Cycle: append([]int{}, t.Cycle...), Outcome: outcomeWord(t.Outcome), Reason: t.Reason, Checked: t.Checked, Stats: toShardStats(t.Stats)}
		if t.Witness != nil {
			for _, l := range t.Witness.Sigma {
				st.Witness = append(st.Witness, append([]int{l.Head, int(l.Mark)}, eventInts(l.Event)...))
			}
		}
		d.Types = append(d.Types, st)
	}
	return d
}

var outcomeWords = map[automata.Outcome]string{automata.Empty: "empty", automata.NonEmpty: "nonempty", automata.Unknown: "unknown"}

func outcomeWord(o automata.Outcome) string { return outcomeWords[o] }

// decodeDecideN rebuilds a shard's Result for cycles.Merge. Types not
// listed are the other shards' (or copies by symmetry, which Merge
// recomputes).
func decodeDecideN(p *pgas.Program, d shardDecideN) (*cycles.Result, error) {
	if d.Error != "" {
		return nil, fmt.Errorf("%w: %s", cycles.ErrInternal, d.Error)
	}
	r := &cycles.Result{N: d.N, Reason: d.Reason, Stats: d.Stats.stats(), Elapsed: time.Duration(d.ElapsedNS),
		CacheHits: d.CacheHits, CacheMiss: d.CacheMiss}
	if re := d.RunError; re != nil {
		r.Verdict = cycles.RunError
		r.RunError = &cycles.RuntimeError{Err: errors.New(re.Message)}
		for _, v := range re.Path {
			e, err := eventOf(p, d.N, v)
			if err != nil {
				return nil, err
			}
			r.RunError.Path = append(r.RunError.Path, e)
		}
		return r, nil
	}
	if d.TypeCount == 0 {
		r.Verdict = cycles.Unknown
		return r, nil
	}
	if d.Streamed != nil {
		if int64(d.TypeCount) != cycles.TypeCount(d.N) {
			return nil, fmt.Errorf("type_count %d, but N = %d has %d cycle types", d.TypeCount, d.N, cycles.TypeCount(d.N))
		}
		k := d.Streamed
		r.Partial = true
		r.Counts = cycles.TypeCounts{Total: int64(d.TypeCount), Searched: k.Searched, Feasible: k.Feasible, Infeasible: k.Infeasible, Unknown: k.Unknown, BySymmetry: k.Symmetric}
		// A streamed part is covered only when its own verdict says so.
		r.Verdict = cycles.Unknown
		if d.Verdict == "robust" {
			r.Verdict = cycles.Robust
		}
	} else {
		if d.TypeCount < 0 || d.TypeCount > 1<<24 {
			return nil, fmt.Errorf("type_count %d out of range", d.TypeCount)
		}
		r.Types = make([]cycles.TypeResult, d.TypeCount)
		for i := range r.Types {
			r.Types[i] = cycles.TypeResult{Outcome: automata.Unknown, Reason: cycles.OtherShardReason}
		}
	}
	for _, t := range d.Types {
		if t.Index < 0 || t.Index >= d.TypeCount {
			return nil, fmt.Errorf("cycle type index %d out of range", t.Index)
		}
		tr := cycles.TypeResult{Cycle: cycles.CycleType(t.Cycle), Reason: t.Reason, Checked: t.Checked, Stats: t.Stats.stats()}
		found := false
		for o, w := range outcomeWords {
			if w == t.Outcome {
				tr.Outcome, found = o, true
			}
		}
		if !found {
			return nil, fmt.Errorf("cycle type %v: unknown outcome %q", tr.Cycle, t.Outcome)
		}
		if tr.Outcome == automata.NonEmpty {
			// A shard writes every feasible type's witness: none is
			// damage to the file, not a witness that failed its replay.
			if len(t.Witness) == 0 {
				return nil, fmt.Errorf("cycle type %v: feasible without its witness", tr.Cycle)
			}
			sigma := make([]cycles.Letter, 0, len(t.Witness))
			for _, v := range t.Witness {
				if len(v) < 2 || v[0] < 1 || v[0] > normalform.Heads || v[1] < 0 || v[1] > 3 {
					return nil, fmt.Errorf("cycle type %v: a witness letter %v is damaged", tr.Cycle, v)
				}
				e, err := eventOf(p, d.N, v[2:])
				if err != nil {
					return nil, fmt.Errorf("cycle type %v: %v", tr.Cycle, err)
				}
				sigma = append(sigma, cycles.Letter{Head: v[0], Mark: normalform.Mark(v[1]), Event: e})
			}
			tr.Witness = cycles.NewWitness(tr.Cycle, sigma)
		}
		if r.Partial {
			r.Types = append(r.Types, tr)
			continue
		}
		r.Types[t.Index] = tr
	}
	return r, nil
}

// runShard decides this shard's part for every N and writes the shard
// file instead of the command's own output.
func (j *job) runShard(stdout, stderr io.Writer) int {
	start := time.Now()
	s := newShardJSON(j.cmd, j.shard, j.file, j.src, j.settings)
	s.CostsSHA256 = j.costsHash
	internal := false
	outs := j.decideEach(stderr, func(o outcome) {
		if o.Err != nil {
			fmt.Fprintf(stderr, "pgasrob %s: N = %d: %v\n", j.cmd, o.N, o.Err)
			internal = true
		}
		s.Decide = append(s.Decide, encodeDecideN(o))
	})
	reason := ""
	if j.stopped != "" {
		reason = fmt.Sprintf("stopped during N = %d: %s", outs[len(outs)-1].N, j.stopped)
	}
	return s.finish(stdout, start, reason, internal)
}
