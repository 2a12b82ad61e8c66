package tso

import (
	"fmt"
	"sort"
	"time"

	"github.com/pgasrob/pgasrob/automata/hitting"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Fence is one fence position: an mfence inserted at control location
// Label of thread Thread, so that it runs before every instruction leaving
// that location (Section 7 of tso-robustness-attacks.md).
type Fence struct {
	Thread, Label int
}

// Format names the fence for people: "t1 at q2 (file:4:1)". The source
// position is that of the first instruction the fence now precedes.
func (f Fence) Format(p *prog.Program) string {
	th := p.Threads[f.Thread]
	s := fmt.Sprintf("%s at %s", th.Name, th.Labels[f.Label])
	if out := th.Out[f.Label]; len(out) > 0 {
		s += fmt.Sprintf(" (%s)", th.Trans[out[0]].Pos)
	}
	return s
}

// Pos is the source position of the first instruction the fence precedes,
// or the zero Pos when the location has no outgoing instruction.
func (f Fence) Pos(p *prog.Program) prog.Pos {
	th := p.Threads[f.Thread]
	if out := th.Out[f.Label]; len(out) > 0 {
		return th.Trans[out[0]].Pos
	}
	return prog.Pos{}
}

// insertFences returns a copy of p with an mfence at each position of fs.
// The paper's construction: a fresh location lf takes over every
// instruction leaving l, and l gets the single instruction "mfence; goto
// lf". Labels and transitions of p keep their indices (new ones are
// appended), so attacks of the fenced program name transitions of p.
func insertFences(p *prog.Program, fs []Fence) *prog.Program {
	q := *p
	q.Threads = make([]*prog.Thread, len(p.Threads))
	for i, th := range p.Threads {
		c := *th
		c.Labels = append([]string(nil), th.Labels...)
		c.Trans = append([]prog.Trans(nil), th.Trans...)
		q.Threads[i] = &c
	}
	done := map[Fence]bool{}
	for _, f := range fs {
		if done[f] {
			continue
		}
		done[f] = true
		th := q.Threads[f.Thread]
		used := map[string]bool{}
		for _, l := range th.Labels {
			used[l] = true
		}
		name := th.Labels[f.Label] + "_fence"
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s_fence%d", th.Labels[f.Label], k)
		}
		lf := len(th.Labels)
		th.Labels = append(th.Labels, name)
		pos := prog.Pos{File: p.File}
		for i := range th.Trans {
			if th.Trans[i].From == f.Label {
				if pos.Line == 0 {
					pos = th.Trans[i].Pos
				}
				th.Trans[i].From = lf
			}
		}
		th.Trans = append(th.Trans, prog.Trans{From: f.Label, To: lf, Op: prog.OpMFence, Reg: -1, Pos: pos, Text: "mfence"})
	}
	for _, th := range q.Threads {
		th.Out = make([][]int, len(th.Labels))
		for i, t := range th.Trans {
			th.Out[t.From] = append(th.Out[t.From], i)
		}
	}
	return &q
}

// FenceResult is the answer of FindFences.
type FenceResult struct {
	// Verdict is Robust when Fences is a certified minimum fence set: the
	// fenced program passed Check. Unknown otherwise (a budget ran out, or
	// MaxRounds was reached); Fences is then nil.
	Verdict prog.Verdict
	Reason  string
	Fences  []Fence
	// Fenced is p with Fences inserted, and Certificate the Check of it
	// that found it robust.
	Fenced      *prog.Program
	Certificate *Result
	// Rounds counts the Checks run; Constraints the distinct hitting
	// constraints collected from feasible attacks.
	Rounds, Constraints int
	Elapsed             time.Duration
	// Cost is the total cost of Fences (their number without a cost
	// function).
	Cost int64
}

// FenceOptions configure FindFences.
type FenceOptions struct {
	Options // for every Check; Timeout bounds the whole search
	// MaxRounds bounds the number of Checks; 0 means 50.
	MaxRounds int
	// Cost, if set, gives the cost of a fence position (non-negative);
	// the result then has minimum total cost instead of minimum size.
	Cost func(Fence) int64
	// RoundStates is the per-attack state budget of the first rounds
	// (see FindFences); 0 means 1<<16, a negative value no such budget.
	RoundStates int64
}

// FindFences computes a minimum-size set of fence positions that makes p
// robust against m, and certifies it by re-checking the fenced program.
//
// Section 7 of tso-robustness-attacks.md builds, for every feasible
// attack, all irreducible eliminating fence sets, and picks a cheapest
// union with a 0/1 integer program. Here the same optimum is reached
// lazily, without enumerating eliminating sets. Let H be the current fence
// set and A = (t, st, ld) an attack feasible in p fenced at H. Its delayed
// phase crosses no fence, so it stays on L_A^H: the locations on a
// fence-free path of t, in the fenced program, from the target of st to
// the source of ld (disjoint from H, whose locations now lead only to an
// mfence). A set F that avoids L_A^H keeps every transition of that phase;
// its other fences run where the instrumentation is sequentially
// consistent (the attacker before st, the helpers) and are no-ops there.
// So A stays feasible, and every valid F meets L_A^H. Each round solves
// the minimum hitting set of the constraints collected so far (a lower
// bound on the optimum), checks the program fenced that way, and stops
// when the check says robust — that set is then valid and of minimum size
// — or adds one constraint per feasible attack, each missing the current
// candidate, so no candidate repeats and the rounds terminate.
//
// A round needs the feasible attacks only, not a decision of every attack:
// on programs with unbounded values (Memorax's bakery) an infeasible
// attack's search need not end, while the feasible ones are found at once.
// So rounds run with a per-attack state budget (roundStates) and use
// whatever feasible attacks they find; only a round that finds none while
// some attack ran out of budget is repeated with a budget 16 times larger,
// up to the user's MaxStates (FenceOptions.RoundStates). The answer is unchanged: every constraint
// comes from a feasible attack, and the last round, which certifies the
// fence set, decides every attack (a budget-limited round is never taken
// for robust).
//
// A request Check cannot take (fo.Criterion) is an error, as for Check.
func FindFences(p *prog.Program, m prog.Model, fo FenceOptions) (*FenceResult, error) {
	if err := request(fo.Criterion, m); err != nil {
		return nil, err
	}
	return findFences(p, m, fo), nil
}

func findFences(p *prog.Program, m prog.Model, fo FenceOptions) *FenceResult {
	start := time.Now()
	res := &FenceResult{Verdict: prog.Unknown}
	defer func() { res.Elapsed = time.Since(start) }()
	opt := fo.Options
	opt.All = true
	ctx, cancel := opt.context()
	defer cancel()
	opt.Timeout = 0 // the rounds share the one deadline
	opt.Context = ctx
	maxRounds := fo.MaxRounds
	if maxRounds <= 0 {
		maxRounds = 50
	}

	// Fence positions are numbered globally: base[t]+label.
	base := make([]int, len(p.Threads)+1)
	for i, th := range p.Threads {
		base[i+1] = base[i] + len(th.Labels)
	}
	cost := func(g int) int64 {
		if fo.Cost == nil {
			return 1
		}
		t := sort.Search(len(p.Threads), func(t int) bool { return base[t+1] > g })
		return max(fo.Cost(Fence{Thread: t, Label: g - base[t]}), 0)
	}
	var cons [][]int
	seen := map[string]bool{}
	var cur []int
	budget := fo.RoundStates
	switch {
	case budget == 0:
		budget = 1 << 16
	case budget < 0:
		budget = 0
	}
	for {
		if res.Rounds >= maxRounds {
			res.Reason = fmt.Sprintf("no certified fence set within %d rounds", maxRounds)
			return res
		}
		if err := ctx.Err(); err != nil {
			res.Reason = "time budget reached: " + err.Error()
			return res
		}
		fs := make([]Fence, len(cur))
		for i, g := range cur {
			t := sort.Search(len(p.Threads), func(t int) bool { return base[t+1] > g })
			fs[i] = Fence{Thread: t, Label: g - base[t]}
		}
		fp := insertFences(p, fs)
		ropt := opt
		bounded := budget > 0 && (opt.MaxStates == 0 || budget < opt.MaxStates)
		if bounded {
			ropt.MaxStates = budget
		}
		r := check(fp, m, ropt)
		res.Rounds++
		if r.Found == 0 && bounded && r.Undecided > 0 && ctx.Err() == nil {
			budget *= 16
			if budget > 1<<40 {
				budget = 0
			}
			continue
		}
		if r.Verdict == prog.Robust {
			res.Verdict, res.Fences, res.Fenced, res.Certificate = prog.Robust, fs, fp, r
			for _, g := range cur {
				res.Cost += cost(g)
			}
			return res
		}
		if r.Found == 0 {
			res.Reason = fmt.Sprintf("check of the program with %d fences: %s", len(fs), r.Reason)
			return res
		}
		inH := map[int]bool{}
		for _, g := range cur {
			inH[g] = true
		}
		for _, a := range r.FeasibleAttacks() {
			th := p.Threads[a.Thread]
			if a.Store >= len(th.Trans) || a.Last >= len(th.Trans) {
				// An inserted mfence is neither store nor load.
				res.Reason = "internal error: a feasible attack names an inserted fence"
				return res
			}
			// Paths are taken in the fenced program: the attack's delayed
			// phase crosses no fence, so it stays on these locations.
			fth := fp.Threads[a.Thread]
			from, to := fth.Trans[a.Store].To, fth.Trans[a.Last].From
			rr := fenceFree(fth)
			var c []int
			for l := range th.Labels {
				g := base[a.Thread] + l
				if rr[from][l] && rr[l][to] && !inH[g] {
					c = append(c, g)
				}
			}
			if len(c) == 0 {
				res.Reason = "internal error: attack " + a.Format(p) + " is feasible although fences cover all its paths"
				return res
			}
			key := fmt.Sprint(c)
			if !seen[key] {
				seen[key] = true
				cons = append(cons, c)
			}
		}
		res.Constraints = len(cons)
		cur = hitting.MinCost(cons, cost)
	}
}
