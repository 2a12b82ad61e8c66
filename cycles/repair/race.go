package repair

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles/race"
	raceoracle "github.com/pgasrob/pgasrob/cycles/race/oracle"
	"github.com/pgasrob/pgasrob/pgas"
)

// Repair for the race criterion (repair --criterion race, docs/criteria.md):
// the cheapest set of insertions of the same vocabulary after which no
// computation has a data race, for every N asked.
//
// The robustness repair is guided by the happens-before cycle of each
// witness; a race witness has no cycle to cut, and which insertion orders
// its two accesses depends on completions and synchronisation of other
// ranks. So the sets are decided cheapest first (a best-first enumeration
// of the subsets of the candidates, sorted by cost), and the first
// race-free one is a cheapest repair by construction: minimality is proved
// when no cheaper set ran out of its budget and the enumeration did not
// stop at Options.ProofSets sets.

// RaceN is the race decision of one N.
type RaceN struct {
	N   int
	Res *race.Result
}

// CriterionRace is Result.Criterion of a race repair.
const CriterionRace = "race"

// RepairRace finds a cheapest set of insertions (Candidates, priced by
// opt.Costs) after which the program in src is race-free for every n in
// ns (package race decides). The repaired program is decided again from
// its text and enumerated by the race oracle (cycles/race/oracle) before
// it is returned. Result.Before and After stay empty; RaceBefore and
// RaceAfter hold the decisions.
func RepairRace(file string, src []byte, ns []int, opt Options) (*Result, error) {
	start := time.Now()
	res := &Result{Criterion: CriterionRace}
	defer func() { res.Elapsed = time.Since(start) }()
	p, err := pgas.Compile(file, src)
	if err != nil {
		return nil, err
	}
	r := &repairer{file: file, src: src, ns: ns, opt: opt, a: analyse(p), raceMemo: map[string][]RaceN{}}
	if r.opt.Context == nil {
		r.opt.Context = context.Background()
	}
	before, err := r.raceAll(nil)
	if err != nil {
		return nil, err
	}
	res.RaceBefore = before
	for _, b := range before {
		switch b.Res.Verdict {
		case race.RunTimeError:
			res.Verdict, res.Reason = RunError, fmt.Sprintf("N = %d: %v", b.N, b.Res.RunErr)
			return res, nil
		case race.Unknown:
			res.Verdict, res.Reason = NoRepair, fmt.Sprintf("the input for N = %d: %s", b.N, b.Res.Reason)
			return res, nil
		}
	}
	if raceFree(before, len(ns)) {
		res.Verdict, res.Source, res.RaceAfter = AlreadyRobust, src, before
		res.Minimality = Minimality{Proven: true}
		return res, r.raceOracleCheck(res, p)
	}
	r.universe()
	res.Candidates = len(r.cands)
	set, ok := r.cheapestRaceFree(res)
	if !ok {
		return res, nil
	}
	return res, r.finishRace(res, set)
}

func raceFree(d []RaceN, n int) bool {
	if len(d) != n {
		return false
	}
	for _, x := range d {
		if x.Res.Verdict != race.RaceFree {
			return false
		}
	}
	return true
}

// raceAll decides race freedom with the insertions set for every N,
// stopping at the first N that is not race-free.
func (r *repairer) raceAll(set []Candidate) ([]RaceN, error) {
	key := ""
	for _, c := range set {
		key += c.key() + ";"
	}
	if d, ok := r.raceMemo[key]; ok {
		return d, nil
	}
	p, err := r.build(set)
	if err != nil {
		return nil, err
	}
	var out []RaceN
	for _, n := range r.ns {
		d := race.Decide(p, n, r.raceOptions())
		out = append(out, RaceN{N: n, Res: d})
		if d.Verdict != race.RaceFree {
			break
		}
	}
	r.raceMemo[key] = out
	return out, nil
}

// raceOptions are the budgets of decide's options, applied to a race
// decision.
func (r *repairer) raceOptions() race.Options {
	d := r.opt.Decide
	return race.Options{MaxStates: d.MaxStates, MaxBytes: d.MaxBytes, Timeout: d.Timeout, Context: r.opt.Context}
}

// cheapestRaceFree decides candidate sets cheapest first and returns the
// first race-free one; ok is false with res.Verdict = NoRepair when there
// is none within the budgets. res.Rounds counts the sets decided.
func (r *repairer) cheapestRaceFree(res *Result) (set []int, ok bool) {
	limit := r.opt.ProofSets
	if limit <= 0 {
		limit = 500
	}
	en := newSubsets(len(r.cands), func(k int) int64 { return r.opt.Costs.Of(r.cands[k]) })
	undecided, cheaper := 0, 0
	lastCost := int64(-1)
	for {
		s, cost, more := en.next()
		if !more {
			res.Verdict, res.Reason = NoRepair, "no set of the insertions the vocabulary offers removes every race (a race between accesses no fence, quiet, blocking call or atomic of one PE orders needs synchronisation of the other PE: a barrier, a signal or a flag it waits on)"
			if undecided > 0 {
				res.Reason = fmt.Sprintf("no set of the insertions the vocabulary offers was found race-free; %d sets ran out of their decision budget", undecided)
			}
			return nil, false
		}
		if res.Rounds >= limit {
			res.Verdict, res.Reason = NoRepair, fmt.Sprintf("no race-free set among the %d cheapest sets of insertions (--proof-sets)", limit)
			return nil, false
		}
		if err := r.opt.Context.Err(); err != nil {
			res.Verdict, res.Reason = NoRepair, "stopped: "+automata.StopReason(r.opt.Context)
			return nil, false
		}
		if cost != lastCost {
			cheaper, lastCost = res.Rounds, cost
		}
		res.Rounds++
		if len(s) == 0 {
			continue // the input itself, decided already
		}
		r.progress("set %d: trying %s", res.Rounds, describe(r.pick(s)))
		d, err := r.raceAll(r.pick(s))
		if err != nil {
			continue // a combination that does not compile is no repair
		}
		switch {
		case raceFree(d, len(r.ns)):
			m := Minimality{Checked: cheaper, Total: cheaper, Proven: undecided == 0}
			if undecided > 0 {
				m.Reason = fmt.Sprintf("%d cheaper sets ran out of their decision budget", undecided)
			}
			res.Minimality = m
			return s, true
		case d[len(d)-1].Res.Verdict == race.Unknown:
			undecided++
		}
	}
}

// finishRace writes the repaired program, decides it again from its text
// for every N and enumerates it with the race oracle.
func (r *repairer) finishRace(res *Result, set []int) error {
	if err := r.describeInsertions(res, set); err != nil {
		return err
	}
	p, err := pgas.Compile(r.file, res.Source)
	if err != nil {
		return fmt.Errorf("%w: the repaired program does not compile: %v", ErrInternal, err)
	}
	for _, n := range r.ns {
		d := race.Decide(p, n, r.raceOptions())
		if d.Verdict != race.RaceFree {
			return fmt.Errorf("%w: the repaired program decides %v for N = %d", ErrInternal, d.Verdict, n)
		}
		res.RaceAfter = append(res.RaceAfter, RaceN{N: n, Res: d})
	}
	return r.raceOracleCheck(res, p)
}

// raceOracleCheck enumerates the computations of the repaired program
// with the race oracle, within its bounds: a race or a run-time error
// there is an internal error.
func (r *repairer) raceOracleCheck(res *Result, p *pgas.Program) error {
	for _, n := range r.ns {
		o := raceoracle.Races(p, n, raceoracle.Options{})
		switch o.Verdict {
		case raceoracle.Race:
			return fmt.Errorf("%w: the race oracle finds a race in the repaired program for N = %d", ErrInternal, n)
		case raceoracle.RunTimeError:
			return fmt.Errorf("%w: the race oracle reaches a run-time error of the repaired program for N = %d: %v", ErrInternal, n, o.RunErr)
		}
		oc := OracleCheck{N: n, Complete: o.Verdict == raceoracle.RaceFree, Explored: o.Steps}
		if !oc.Complete {
			oc.Truncated = "the oracle's bound on steps or depth"
		}
		res.Oracle = append(res.Oracle, oc)
	}
	return nil
}

// subsets enumerates the subsets of 0..n-1 by nondecreasing total cost,
// each once, for costs sorted nondecreasing (repairer.universe sorts
// them): from a set whose largest element is l, its successors are the
// set with l+1 added and the set with l replaced by l+1, both at least as
// costly.
type subsets struct {
	n    int
	cost func(int) int64
	h    subsetHeap
	seq  int
}

type subsetItem struct {
	set  []int
	cost int64
	seq  int // insertion order: ties come out in the order they went in
}

type subsetHeap []subsetItem

func (h subsetHeap) Len() int { return len(h) }
func (h subsetHeap) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	return h[i].seq < h[j].seq
}
func (h subsetHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *subsetHeap) Push(x any)   { *h = append(*h, x.(subsetItem)) }
func (h *subsetHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func newSubsets(n int, cost func(int) int64) *subsets {
	s := &subsets{n: n, cost: cost}
	heap.Push(&s.h, subsetItem{})
	return s
}

func (s *subsets) push(set []int, cost int64) {
	s.seq++
	heap.Push(&s.h, subsetItem{set: set, cost: cost, seq: s.seq})
}

// next is the next cheapest subset and its cost; more is false when all
// 2^n have been given.
func (s *subsets) next() (set []int, cost int64, more bool) {
	if s.h.Len() == 0 {
		return nil, 0, false
	}
	it := heap.Pop(&s.h).(subsetItem)
	if k := len(it.set); k == 0 {
		if s.n > 0 {
			s.push([]int{0}, s.cost(0))
		}
	} else if l := it.set[k-1]; l+1 < s.n {
		s.push(append(slices.Clone(it.set), l+1), it.cost+s.cost(l+1))
		s.push(append(slices.Clone(it.set[:k-1]), l+1), it.cost-s.cost(l)+s.cost(l+1))
	}
	return it.set, it.cost, true
}
