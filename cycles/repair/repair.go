package repair

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/hitting"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// Costs price the insertions: one cost per kind, and overrides per kind
// and source line (the line of the statement an insertion goes before, or
// of the operation changed).
type Costs struct {
	Kind [numKinds]int64
	Line map[LineKey]int64
}

// LineKey names an override of Costs.
type LineKey struct {
	Kind Kind
	Line int
}

// DefaultCosts: a wait on one operation's handle is the cheapest fix; a
// waitq drains a whole queue, more than the operation at hand; a
// synchronous get/put blocks at the operation itself, before any work
// that could overlap it, and costs most. The OpenSHMEM remedies follow
// the same scale: a fence only orders delivery and never waits (1); a
// quiet waits for every operation of its context (2); a blocking
// operation, or a fetching atomic in place of a put, waits at the
// operation itself for a round trip or the source's read (3).
func DefaultCosts() Costs {
	return Costs{Kind: [numKinds]int64{Wait: 1, WaitQ: 2, Sync: 3, Fence: 1, Quiet: 2, Blocking: 3, Atomic: 3}}
}

// changesOp reports whether insertions of kind k change an operation
// rather than go before a statement.
func (k Kind) changesOp() bool { return k == Sync || k == Blocking || k == Atomic }

// Of is the cost of c.
func (cs Costs) Of(c Candidate) int64 {
	line := c.At.Line
	if c.Kind.changesOp() {
		line = c.Op.Line
	}
	if v, ok := cs.Line[LineKey{c.Kind, line}]; ok {
		return v
	}
	return cs.Kind[c.Kind]
}

// Options configure Repair.
type Options struct {
	Decide cycles.Options // budgets of every decision (per N)
	Costs  Costs
	// MaxRounds bounds the decide → cycle → cut rounds; 0 means 50.
	MaxRounds int
	// ProofSets bounds the cheaper sets decided to prove minimality; 0
	// means 500.
	ProofSets int
	Oracle    oracle.Bounds // the final check of the repaired program
	Context   context.Context
	// Progress, if set, is told what the repair is doing.
	Progress func(msg string)
}

// Verdict of a repair.
type Verdict int

const (
	Repaired      Verdict = iota // Insertions make the program robust for every N
	AlreadyRobust                // nothing to do
	NoRepair                     // no set of insertions within the budgets (Reason says why)
	RunError                     // the input has a reachable run-time error
)

func (v Verdict) String() string {
	return [...]string{"repaired", "already robust", "no repair", "run-time error"}[v]
}

// Insertion is one chosen insertion with its cost and what it writes.
type Insertion struct {
	Candidate
	Cost int64
	Text string // "wait h1 before line 26", ...
}

// Minimality says how far the proof that no cheaper set works went.
type Minimality struct {
	Proven  bool
	Checked int    // cheaper sets decided (each not robust for some N)
	Total   int    // cheaper sets there are (-1: more than the budget let us count)
	Reason  string // when not proven
}

// OracleCheck is the brute-force check of the repaired program for one N.
type OracleCheck struct {
	N         int
	Complete  bool // the whole state space was explored
	Truncated string
	Explored  int64
}

// Result of Repair.
type Result struct {
	Verdict    Verdict
	Reason     string
	Before     []*cycles.Result // the input, per N
	Insertions []Insertion
	Cost       int64
	Source     []byte           // the repaired program
	After      []*cycles.Result // the repaired program, per N: all robust
	Oracle     []OracleCheck
	Minimality Minimality
	Rounds     int
	Candidates int // insertions of the vocabulary that apply to the input
	Elapsed    time.Duration
	// Criterion is "" for robustness (Repair), CriterionRace for
	// RepairRace, whose decisions are RaceBefore and RaceAfter (Before and
	// After stay empty) and whose Oracle is the race oracle's.
	Criterion             string
	RaceBefore, RaceAfter []RaceN
}

// ErrInternal marks a repaired program that the oracle or a re-decision
// contradicts: never shown as a repair.
var ErrInternal = errors.New("internal error")

// Repair finds a cheapest set of insertions (Candidates, priced by
// opt.Costs) that makes the program in src robust for every n in ns.
//
// Counter-example guided, as the fence search of tso: decide the program
// with the current set H; for a violation, its certified happens-before
// cycle has an order op ->po b where op is an asynchronous remote
// operation whose completion is delayed past b; every insertion that
// waits for op between op and b (or makes op synchronous) cuts that order,
// and these form one constraint. H becomes a cheapest set meeting every
// constraint so far (hitting.MinCost); repeat until every N is
// robust. The constraints are a guide, not a proof: minimality is then
// shown directly by deciding every cheaper set of candidates, up to
// opt.ProofSets of them (Minimality says how far it went). The repaired
// program is decided again for every N and explored by the brute-force
// oracle before it is returned.
func Repair(file string, src []byte, ns []int, opt Options) (*Result, error) {
	start := time.Now()
	res := &Result{}
	defer func() { res.Elapsed = time.Since(start) }()
	p, err := pgas.Compile(file, src)
	if err != nil {
		return nil, err
	}
	r := &repairer{file: file, src: src, ns: ns, opt: opt, a: analyse(p), memo: map[string][]*cycles.Result{}}
	if r.opt.Context == nil {
		r.opt.Context = context.Background()
	}
	r.opt.Decide.Context = r.opt.Context
	before, err := r.decideAll(nil)
	if err != nil {
		return nil, err
	}
	res.Before = before
	for _, b := range before {
		switch b.Verdict {
		case cycles.RunError:
			res.Verdict, res.Reason = RunError, fmt.Sprintf("N = %d: %v", b.N, b.RunError.Err)
			return res, nil
		case cycles.Unknown:
			res.Verdict, res.Reason = NoRepair, fmt.Sprintf("the input for N = %d: %s", b.N, b.Reason)
			return res, nil
		}
	}
	if firstViolation(before) == nil {
		res.Verdict, res.Source, res.After = AlreadyRobust, src, before
		res.Minimality = Minimality{Proven: true, Total: 0}
		return res, r.oracleCheck(res, p)
	}
	r.universe()
	res.Candidates = len(r.cands)
	set, after, err := r.search(res, before)
	if err != nil || set == nil {
		return res, err
	}
	set, after, err = r.prove(res, set, after)
	if err != nil {
		return res, err
	}
	return res, r.finish(res, set, after)
}

type repairer struct {
	file  string
	src   []byte
	ns    []int
	opt   Options
	a     *analysis
	cands []Candidate
	memo  map[string][]*cycles.Result // decisions by candidate set
	// raceMemo: the race decisions by candidate set (RepairRace)
	raceMemo map[string][]RaceN
}

// universe lists the candidates that apply: each alone must compile and
// check for every N (a wait placed where the handle could be issued again
// before it is waited on, say, does not).
func (r *repairer) universe() {
	for _, c := range r.a.candidates() {
		if p, err := r.build([]Candidate{c}); err == nil && r.checkN(p) == nil {
			r.cands = append(r.cands, c)
		}
	}
	sort.SliceStable(r.cands, func(i, j int) bool { return r.opt.Costs.Of(r.cands[i]) < r.opt.Costs.Of(r.cands[j]) })
}

func (r *repairer) build(set []Candidate) (*pgas.Program, error) {
	ed, err := r.a.apply(r.src, set)
	if err != nil {
		return nil, err
	}
	return pgas.Compile(r.file, ed.src)
}

func (r *repairer) checkN(p *pgas.Program) error {
	for _, n := range r.ns {
		if err := pgas.CheckN(p, n); err != nil {
			return err
		}
	}
	return nil
}

func (r *repairer) pick(idx []int) []Candidate {
	set := make([]Candidate, len(idx))
	for i, k := range idx {
		set[i] = r.cands[k]
	}
	return set
}

func (r *repairer) cost(idx []int) (sum int64) {
	for _, k := range idx {
		sum += r.opt.Costs.Of(r.cands[k])
	}
	return sum
}

// decideAll decides the program with the insertions set for every N,
// stopping at the first N that is not robust.
func (r *repairer) decideAll(set []Candidate) ([]*cycles.Result, error) {
	key := ""
	for _, c := range set {
		key += c.key() + ";"
	}
	if d, ok := r.memo[key]; ok {
		return d, nil
	}
	p, err := r.build(set)
	if err != nil {
		return nil, err
	}
	var out []*cycles.Result
	for _, n := range r.ns {
		d, err := cycles.Decide(p, n, r.opt.Decide)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
		if d.Verdict != cycles.Robust {
			break
		}
	}
	r.memo[key] = out
	return out, nil
}

func firstViolation(rs []*cycles.Result) *cycles.Result {
	for _, d := range rs {
		if d.Verdict == cycles.NotRobust {
			return d
		}
	}
	return nil
}

func (r *repairer) progress(format string, a ...any) {
	if r.opt.Progress != nil {
		r.opt.Progress(fmt.Sprintf(format, a...))
	}
}

// search runs the counter-example guided rounds; it returns the first
// candidate set (indices) under which every N is robust, with those
// decisions, or nil with res.Verdict = NoRepair.
func (r *repairer) search(res *Result, before []*cycles.Result) ([]int, []*cycles.Result, error) {
	maxRounds := r.opt.MaxRounds
	if maxRounds <= 0 {
		maxRounds = 50
	}
	var cons [][]int
	var cur []int
	decided := before
	for {
		res.Rounds++
		v := firstViolation(decided)
		if v == nil {
			for _, d := range decided {
				if d.Verdict != cycles.Robust {
					res.Verdict, res.Reason = NoRepair, fmt.Sprintf("with %s, N = %d: %s", describe(r.pick(cur)), d.N, unknownReason(d))
					return nil, nil, nil
				}
			}
			return cur, decided, nil
		}
		c, err := r.constraint(cur, v)
		if err != nil {
			return nil, nil, err
		}
		if len(c) == 0 {
			res.Verdict, res.Reason = NoRepair, fmt.Sprintf("N = %d: no insertion of the vocabulary cuts the happens-before cycle of cycle type %v (it is not closed by a delayed remote operation)", v.N, v.Witness.Cycle)
			return nil, nil, nil
		}
		cons = append(cons, c)
		if res.Rounds >= maxRounds {
			res.Verdict, res.Reason = NoRepair, fmt.Sprintf("no robust set of insertions within %d rounds", maxRounds)
			return nil, nil, nil
		}
		if err := r.opt.Context.Err(); err != nil {
			res.Verdict, res.Reason = NoRepair, "stopped: "+automata.StopReason(r.opt.Context)
			return nil, nil, nil
		}
		cur = hitting.MinCost(cons, func(k int) int64 { return r.opt.Costs.Of(r.cands[k]) })
		r.progress("round %d: trying %s", res.Rounds+1, describe(r.pick(cur)))
		if decided, err = r.decideAll(r.pick(cur)); err != nil {
			return nil, nil, err
		}
	}
}

func unknownReason(d *cycles.Result) string {
	if d.Verdict == cycles.RunError {
		return fmt.Sprintf("a run-time error: %v", d.RunError.Err)
	}
	return d.Reason
}

func strip(p pgas.Pos) pgas.Pos { p.File = ""; return p }

// describe names a candidate set for progress messages.
func describe(set []Candidate) string {
	if len(set) == 0 {
		return "no insertion"
	}
	s := ""
	for i, c := range set {
		if i > 0 {
			s += ", "
		}
		switch c.Kind {
		case Sync:
			s += fmt.Sprintf("sync at line %d", c.Op.Line)
		case Wait:
			s += fmt.Sprintf("wait for line %d before line %d", c.Op.Line, c.At.Line)
		case WaitQ, Fence, Quiet:
			s += fmt.Sprintf("%s %s before line %d", c.Kind, c.Queue, c.At.Line)
		case Blocking, Atomic:
			s += fmt.Sprintf("%s at line %d", c.Kind, c.Op.Line)
		}
	}
	return s
}
