package tso

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/petri"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Parameterized robustness (Section 6 of tso-robustness-attacks.md). A
// program whose threads are marked "thread NAME *" stands for every
// instance with any number of copies of each marked thread; it is robust
// iff every instance is. By Theorem 1 an instance is not robust iff one of
// its attacks is feasible, and its attacks are those of the template
// program with the attacker being one copy. Theorem 4 instruments the
// template program once per attack, the attacker's template acting as
// attacker in the one copy that wins a test-and-set flag and as helper in
// the others; Theorem 5 decides each attack as coverability in the counter
// abstraction of that instrumented program (param_net.go), with the
// backward search of petri.Coverable.

// ParamAttack is what the parameterized check found out about one attack.
type ParamAttack struct {
	Attack  Attack
	Outcome Outcome
	Reason  string
	Stats   ParamStats
}

// ParamStats measure the counter abstraction and its coverability search.
type ParamStats struct {
	// Abstract counts the states of the forward exploration that finds
	// the net; Cut is its cut-off, and Joined says it fell back to the
	// join (param_abs.go).
	Abstract        int
	Cut             int
	Joined          bool
	Globals, Locals int   // places: global states, local states of copies
	NetTransitions  int   // transitions of the Petri net
	Basis           int   // minimal elements left in the backward search's basis
	Markings        int64 // markings the backward search stored
	Bytes           int64 // estimated memory of the net and the search
	Elapsed         time.Duration
}

func (s *ParamStats) add(o ParamStats) {
	s.Abstract += o.Abstract
	s.Joined = s.Joined || o.Joined
	s.Cut = max(s.Cut, o.Cut)
	s.Globals += o.Globals
	s.Locals += o.Locals
	s.NetTransitions += o.NetTransitions
	s.Basis += o.Basis
	s.Markings += o.Markings
	s.Bytes += o.Bytes
	s.Elapsed += o.Elapsed
}

// ParamResult is the answer of CheckParameterized.
type ParamResult struct {
	Verdict prog.Verdict
	Reason  string // for Unknown
	// Counts of attacks, as in Result.
	Generated, RefutedSyntactic, RefutedSearch, Found, Undecided, Skipped int
	Attacks                                                               []ParamAttack
	Stats                                                                 ParamStats // summed over the attacks (Elapsed is CPU time)
	Elapsed                                                               time.Duration

	// NotRobust: Copies[t] is the number of copies of thread t in the
	// instance of the witness (1 for a single thread), Instance that
	// program, and Witness a relaxed computation of it replayed by
	// replayWitness. InstanceCheck is Check run on the instance.
	Copies        []int
	Instance      *prog.Program
	Witness       *Witness
	WitnessErr    error
	InstanceCheck *Result

	// Cut-off evidence for Robust (and Unknown): Check found the instances
	// with 1..Confirmed copies of every replicated thread robust.
	// CutoffReason says why it stopped below the requested bound.
	Confirmed    int
	CutoffReason string
}

// Instance builds the ordinary program with copies[t] copies of every
// replicated thread t (single threads keep their one copy whatever
// copies[t] says). Copy k of NAME is called NAME.k, or NAME_k... when that
// name is taken. It returns, per thread of the instance, the thread of p it
// copies.
func Instance(p *prog.Program, copies []int) (*prog.Program, []int) {
	q := p.Empty()
	taken := map[string]bool{}
	for _, th := range p.Threads {
		taken[th.Name] = true
	}
	var from []int
	for ti, th := range p.Threads {
		if !th.Replicated {
			c := *th
			q.Threads = append(q.Threads, &c)
			from = append(from, ti)
			continue
		}
		for k := 1; k <= copies[ti]; k++ {
			c := *th
			c.Replicated = false
			c.Name = th.Name + "." + strconv.Itoa(k)
			for taken[c.Name] {
				c.Name = c.Name + "_"
			}
			taken[c.Name] = true
			q.Threads = append(q.Threads, &c)
			from = append(from, ti)
		}
	}
	return q, from
}

// uniformCopies is the copy vector with k copies of every replicated thread.
func uniformCopies(p *prog.Program, k int) []int {
	out := make([]int, len(p.Threads))
	for i, th := range p.Threads {
		out[i] = 1
		if th.Replicated {
			out[i] = k
		}
	}
	return out
}

// CheckParameterized decides robustness against TSO of every instance of
// p. Options apply as for Check (MaxStates bounds, per attack, the
// abstract states, places and transitions that build its net, and the
// markings of its search; All, Shard, BreadthFirst
// and ValueBits are not used). instances > 0 also runs Check on the
// instances with 1..instances copies of every replicated thread when the
// verdict is not NOT ROBUST, as cut-off evidence. It decides robustness
// only: another opt.Criterion is an error.
func CheckParameterized(p *prog.Program, opt Options, instances int) (*ParamResult, error) {
	if opt.Criterion != Robustness {
		return nil, fmt.Errorf("parameterized checking decides robustness only, not %s", opt.Criterion)
	}
	return checkParameterized(p, opt, instances), nil
}

func checkParameterized(p *prog.Program, opt Options, instances int) *ParamResult {
	start := time.Now()
	ctx, cancel := opt.context()
	defer cancel()
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = defaultMaxBytes
	}
	attacks, refuted := enumerateAttacks(p, prog.TSO)
	res := &ParamResult{Generated: len(attacks)}
	var found *pnet
	var cov petri.Result
	for i, a := range attacks {
		pa := ParamAttack{Attack: a, Outcome: RefutedSyntactically}
		switch {
		case refuted[i] && !opt.NoPrune:
			res.RefutedSyntactic++
		case found != nil || ctx.Err() != nil:
			pa.Outcome = Undecided
			res.Skipped++
		default:
			n, r := decideParamAttack(ctx, p, a, opt.MaxStates, maxBytes, &pa)
			res.Stats.add(pa.Stats)
			switch pa.Outcome {
			case Feasible:
				res.Found++
				found, cov = n, r
			case Infeasible:
				res.RefutedSearch++
			default:
				res.Undecided++
				if res.Reason == "" {
					res.Reason = fmt.Sprintf("attack %s: %s", a.Format(p), pa.Reason)
				}
			}
		}
		res.Attacks = append(res.Attacks, pa)
		if opt.Progress != nil {
			opt.Progress(i+1, len(attacks), res.Stats.Markings)
		}
	}
	switch {
	case found != nil:
		res.Verdict = prog.NotRobust
		res.paramWitness(found, cov, shareDeadline(opt, ctx))
	case res.Undecided+res.Skipped > 0:
		res.Verdict = prog.Unknown
		if res.Reason == "" {
			res.Reason = automata.StopReason(ctx)
		}
	default:
		res.Verdict = prog.Robust
	}
	if res.Verdict != prog.NotRobust && instances > 0 {
		res.cutoff(p, shareDeadline(opt, ctx), instances)
	}
	res.Elapsed = time.Since(start)
	return res
}

// shareDeadline makes the follow-up checks (the witness instance, the
// cut-off instances) run under the parameterized check's own deadline, so
// that --timeout bounds the whole command.
func shareDeadline(opt Options, ctx context.Context) Options {
	opt.Context, opt.Timeout, opt.Progress = ctx, 0, nil
	return opt
}

func decideParamAttack(ctx context.Context, p *prog.Program, a Attack, maxStates, maxBytes int64, pa *ParamAttack) (*pnet, petri.Result) {
	start := time.Now()
	// The rounds of param_abs.go: cut-off 1, cut-off 2, the join.
	n := newPNet(p, a)
	reason := n.build(ctx, maxStates, maxBytes)
	if reason == errTooPrecise {
		n = newPNet(p, a)
		n.cut = 2
		reason = n.build(ctx, maxStates, maxBytes)
	}
	if reason == errTooPrecise {
		n = newPNet(p, a)
		n.joinOnly = true
		reason = n.build(ctx, maxStates, maxBytes)
	}
	pa.Stats = ParamStats{Abstract: n.absStates, Cut: int(n.cut), Joined: n.joinOnly, Globals: len(n.gs), Locals: len(n.ls), NetTransitions: len(n.net.Trans), Bytes: n.bytes}
	defer func() { pa.Stats.Elapsed = time.Since(start) }()
	if reason != "" {
		pa.Outcome, pa.Reason = Undecided, reason
		return nil, petri.Result{}
	}
	r := petri.Coverable(&n.net, n.targets(), automata.Options{Budget: automata.Budget{MaxStates: maxStates, MaxBytes: maxBytes - n.bytes}, Context: ctx})
	pa.Stats.Basis, pa.Stats.Markings = r.Stats.Basis, r.Stats.Generated
	pa.Stats.Bytes += r.Stats.Bytes
	switch r.Outcome {
	case automata.NonEmpty:
		pa.Outcome = Feasible
		return n, r
	case automata.Empty:
		pa.Outcome = Infeasible
	default:
		pa.Outcome, pa.Reason = Undecided, r.Reason
	}
	return nil, r
}

// cutoff runs Check on the instances with 1..k copies, stopping at the
// first that is not robust (an internal error when the parameterized
// verdict is ROBUST) or undecided.
func (res *ParamResult) cutoff(p *prog.Program, opt Options, k int) {
	for i := 1; i <= k; i++ {
		q, _ := Instance(p, uniformCopies(p, i))
		o := opt
		o.Progress = nil
		r := check(q, prog.TSO, o)
		switch r.Verdict {
		case prog.Robust:
			res.Confirmed = i
			continue
		case prog.NotRobust:
			res.CutoffReason = fmt.Sprintf("the instance with %d copies is NOT ROBUST", i)
			if res.Verdict == prog.Robust {
				res.WitnessErr = fmt.Errorf("the parameterized check says ROBUST but the instance with %d copies is not", i)
				return
			}
			// An undecided parameterized check still gets a verdict
			// when an instance has a certified violation.
			if r.Witness != nil && r.WitnessErr == nil {
				res.Verdict, res.Reason = prog.NotRobust, ""
				res.Copies, res.Instance, res.Witness, res.InstanceCheck = uniformCopies(p, i), q, r.Witness, r
			}
		default:
			res.CutoffReason = fmt.Sprintf("the instance with %d copies: %s", i, r.Reason)
		}
		return
	}
}
