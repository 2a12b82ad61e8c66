package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// shardTSO is the part of a tso shard: the attacks it searched and the
// witness of its first feasible one, as steps merge replays.
type shardTSO struct {
	Model       string        `json:"model"`
	AttackCount int           `json:"attack_count"`
	ElapsedNS   int64         `json:"elapsed_ns"`
	Attacks     []shardAttack `json:"attacks"`
	Witness     *shardTSOWit  `json:"witness,omitempty"`
}

type shardAttack struct {
	Index   int        `json:"index"` // in the check's list of attacks, from 0
	Thread  int        `json:"thread"`
	Store   int        `json:"store"`
	Last    int        `json:"last"`
	Outcome string     `json:"outcome"`
	Reason  string     `json:"reason,omitempty"`
	Bits    int        `json:"bits"`
	Stats   shardStats `json:"stats"`
}

type shardTSOWit struct {
	Attack     int `json:"attack"` // index
	StoreEvent int `json:"store_event"`
	LastEvent  int `json:"last_event"`
	// Steps: kind, thread, transition, cell, delayed (0/1).
	Steps [][]int `json:"steps"`
}

var tsoOutcomes = []tso.Outcome{tso.RefutedSyntactically, tso.Infeasible, tso.Feasible, tso.Undecided}

func encodeTSO(res *tso.Result) *shardTSO {
	s := &shardTSO{Model: res.Model.String(), AttackCount: len(res.Attacks), ElapsedNS: int64(res.Elapsed), Attacks: []shardAttack{}}
	for i, ar := range res.Attacks {
		if ar.Outcome == tso.OtherShard || ar.Outcome == tso.RefutedSyntactically {
			continue
		}
		s.Attacks = append(s.Attacks, shardAttack{Index: i, Thread: ar.Attack.Thread, Store: ar.Attack.Store, Last: ar.Attack.Last,
			Outcome: ar.Outcome.String(), Reason: ar.Reason, Bits: ar.Bits, Stats: toShardStats(ar.Stats)})
	}
	if w := res.Witness; w != nil {
		sw := &shardTSOWit{Attack: slices.IndexFunc(res.Attacks, func(ar tso.AttackResult) bool { return ar.Attack == w.Attack }),
			StoreEvent: w.StoreEvent, LastEvent: w.LastEvent, Steps: [][]int{}}
		for _, st := range w.Steps {
			d := 0
			if st.Delayed {
				d = 1
			}
			sw.Steps = append(sw.Steps, []int{int(st.Kind), st.Thread, st.Trans, st.Cell, d})
		}
		s.Witness = sw
	}
	return s
}

// decodeTSO rebuilds a shard's Result for tso.Merge; attacks it did not
// list are another shard's (or refuted syntactically, which Merge redoes).
func decodeTSO(s *shardTSO) (*tso.Result, error) {
	if s.AttackCount < 0 || s.AttackCount > 1<<24 {
		return nil, fmt.Errorf("attack_count %d out of range", s.AttackCount)
	}
	r := &tso.Result{Attacks: make([]tso.AttackResult, s.AttackCount), Elapsed: time.Duration(s.ElapsedNS)}
	for i := range r.Attacks {
		r.Attacks[i].Outcome = tso.OtherShard
	}
	for _, a := range s.Attacks {
		if a.Index < 0 || a.Index >= s.AttackCount {
			return nil, fmt.Errorf("attack index %d out of range", a.Index)
		}
		k := slices.IndexFunc(tsoOutcomes, func(o tso.Outcome) bool { return o.String() == a.Outcome })
		if k < 0 {
			return nil, fmt.Errorf("attack %d: unknown outcome %q", a.Index, a.Outcome)
		}
		r.Attacks[a.Index] = tso.AttackResult{Attack: tso.Attack{Thread: a.Thread, Store: a.Store, Last: a.Last},
			Outcome: tsoOutcomes[k], Reason: a.Reason, Bits: a.Bits, Stats: a.Stats.stats()}
	}
	if sw := s.Witness; sw != nil {
		if sw.Attack < 0 || sw.Attack >= s.AttackCount {
			return nil, fmt.Errorf("witness attack %d out of range", sw.Attack)
		}
		w := &tso.Witness{Attack: r.Attacks[sw.Attack].Attack, StoreEvent: sw.StoreEvent, LastEvent: sw.LastEvent}
		for _, v := range sw.Steps {
			if len(v) != 5 || v[0] < 0 || v[0] > int(tso.StepFlush) {
				return nil, fmt.Errorf("a witness step %v is damaged", v)
			}
			w.Steps = append(w.Steps, tso.Step{Kind: tso.StepKind(v[0]), Thread: v[1], Trans: v[2], Cell: v[3], Delayed: v[4] == 1})
		}
		r.Witness = w
	}
	return r, nil
}

func mergeTSO(h *shardJSON, shards []*shardJSON, asJSON bool, dot string, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "pgasrob merge: %s\n", fmt.Sprintf(format, a...))
		return exitUsage
	}
	c := newTSOCmd(io.Discard)
	if err := parseSettings(c.fs, h); err != nil {
		return fail("%v", err)
	}
	m, err := tsoprog.ParseModel(*c.model)
	if err != nil {
		return fail("%v", err)
	}
	prog, err := tsoprog.ParseProgram(h.Input, []byte(h.Source))
	if err != nil {
		return fail("the shards' program does not parse: %v", err)
	}
	parts := make([]tso.Part, len(shards))
	for i, s := range shards {
		parts[i] = tso.Part{Index: i + 1, Missing: missingWhy(s, "the check")}
		if s == nil || s.TSO == nil {
			continue
		}
		if parts[i].Result, err = decodeTSO(s.TSO); err != nil {
			return fail("shard %d/%d: %v (damaged file)", i+1, len(shards), err)
		}
	}
	res, err := safeMergeTSO(prog, m, tso.Options{All: *c.all}, len(shards), parts)
	if err != nil {
		return fail("%v", err)
	}
	return printTSO(stdout, stderr, h.Input, prog, m, res, nil, asJSON, dot)
}

// safeMergeTSO is tso.Merge with a panic (a damaged file the checks let
// through) turned into a witness error, which is exit 4.
func safeMergeTSO(p *tsoprog.Program, m tsoprog.Model, opt tso.Options, count int, parts []tso.Part) (res *tso.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("merge: panic: %v", v)
		}
	}()
	return tso.Merge(p, m, opt, count, parts)
}
