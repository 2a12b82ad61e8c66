package tso

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/pgasrob/pgasrob/automata"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// The observation abstraction of persistence-fences.md Section 10, with
// its Flattening instance, for programs with many threads and for
// replicated threads ("thread NAME *": any number of copies).
//
// For a pivot p, only two things of the other threads matter to p's
// patterns: the updates of the cells a concrete thread reads (p's own
// reads in π1, π3 and e, and the goal's x, which p reads), and nothing
// else (Theorem 3's [·]_p). Flattening a thread r keeps its control flow
// and, of its instructions, only the writes with a constant address among
// those cells, which must also have a constant value; every other
// instruction (reads, locals, checks, fences, lock, unlock, other writes)
// becomes a noop. Every SC run of the program then has an SC run of the
// flattened program with the same events of the concrete threads and the
// same updates of the cells they read, in the same order: r's flattened
// copy takes the same control path (noops are always enabled) and writes
// the same constants; it holds no lock, so it blocks nobody it did not
// block before. The pattern search's goal (no lock held, x changed) is
// then reached in the flattened program whenever it is in the original,
// so "no pattern of pivot p in A_p" for every p proves persistence.
// A thread whose kept writes are not constant stays concrete (it is
// Section 10's "first k steps kept" with k unbounded for that thread);
// its reads join the kept cells, to a fixpoint.
//
// Replicated threads: the copies of T other than the pivot are replaced
// by one thread T* with a single location and a self-loop per kept write
// of T. Any sequence of kept writes of any number of flattened copies is
// a sequence of T*'s writes, so the answer holds for every number of
// copies. If T cannot be flattened, there is no such answer.
//
// The abstraction over-approximates: a pattern found in A_p is no verdict.
// Then the concrete program is checked (for a replicated program, its
// instances with 1..FlattenInstances copies), and only a concrete witness
// makes the answer FRAGILE.

// FlattenInstances is how many copies of each replicated thread the
// concrete instances checked after an abstract pattern have, at most.
const FlattenInstances = 3

// FlattenPivot is the abstraction of one pivot thread.
type FlattenPivot struct {
	Pivot int // thread of the original program
	// Concrete lists the other threads kept exactly; Flattened the
	// flattened ones (replicated threads by their star).
	Concrete, Flattened []int
	Patterns, Feasible  int
	Program             *prog.Program // A_p
	States              int64
}

// FlattenResult is the answer of CheckPersistenceFlattened. Verdict Robust
// means persistent: for every number of copies of the replicated threads
// when the program has any. NotRobust comes only with Concrete, a check
// of the program (or of Instance) that found a replayed fragile run.
type FlattenResult struct {
	Verdict  prog.Verdict
	Reason   string
	Pivots   []FlattenPivot
	Concrete *Result
	Instance []int // copies per thread of the instance Concrete checked
	Stats    automata.Stats
}

// CheckPersistenceFlattened decides persistence against TSO through the
// flattening abstraction (see above); opt bounds every search as for
// Check (its Criterion is ignored).
func CheckPersistenceFlattened(p *prog.Program, opt Options) *FlattenResult {
	res := &FlattenResult{Verdict: prog.Robust}
	opt.Criterion = Persistence
	ctx, cancel := opt.context()
	defer cancel()
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = defaultMaxBytes
	}
	found := false
	for pi := range p.Threads {
		a, piv, err := flatten(p, pi)
		if err != nil {
			res.Verdict, res.Reason = prog.Unknown, err.Error()
			return res
		}
		attacks, refuted := persistAttacks(a, prog.TSO)
		for i, at := range attacks {
			if at.Thread != 0 || refuted[i] {
				continue
			}
			piv.Patterns++
			ar := checkAttack(ctx, a, criteria[Persistence], at, AttackerTSO, opt, maxBytes)
			piv.States += ar.Stats.States
			res.Stats.Add(ar.Stats)
			switch ar.Outcome {
			case Feasible:
				piv.Feasible++
				found = true
			case Undecided:
				res.Verdict, res.Reason = prog.Unknown, fmt.Sprintf("abstraction of pivot %s: %s", p.Threads[pi].Name, ar.Reason)
				if ctx.Err() != nil {
					res.Reason = "time budget reached"
				}
			}
			if found || res.Verdict == prog.Unknown {
				break
			}
		}
		res.Pivots = append(res.Pivots, *piv)
		if found || res.Verdict == prog.Unknown {
			break
		}
	}
	if found {
		res.concrete(p, opt, ctx)
	}
	return res
}

// concrete checks the program itself (or its small instances) after the
// abstraction found a pattern.
func (res *FlattenResult) concrete(p *prog.Program, opt Options, ctx context.Context) {
	opt.Context, opt.Timeout = ctx, 0
	if !p.Replicated() {
		res.Concrete = check(p, prog.TSO, opt)
		res.Verdict, res.Reason = res.Concrete.Verdict, res.Concrete.Reason
		return
	}
	for k := 1; k <= FlattenInstances; k++ {
		copies := uniformCopies(p, k)
		q, _ := Instance(p, copies)
		r := check(q, prog.TSO, opt)
		res.Concrete, res.Instance = r, copies
		if r.Verdict != prog.Robust {
			res.Verdict, res.Reason = r.Verdict, r.Reason
			if r.Verdict == prog.NotRobust {
				res.Reason = fmt.Sprintf("fragile with %d copies of each replicated thread", k)
			}
			return
		}
	}
	res.Verdict = prog.Unknown
	res.Reason = fmt.Sprintf("the abstraction found a pattern, and the instances with 1..%d copies of each replicated thread are persistent", FlattenInstances)
}

// flatten builds A_p for pivot pi: the pivot first (thread 0 of A_p),
// then the concrete threads, then the flattened ones.
func flatten(p *prog.Program, pi int) (*prog.Program, *FlattenPivot, error) {
	concrete := map[int]bool{pi: true}
	for {
		read, all := readCells(p, concrete)
		changed := false
		for ti, th := range p.Threads {
			if concrete[ti] && !(ti == pi && th.Replicated) {
				continue
			}
			if why := unflattenable(p, th, read, all); why != "" {
				if th.Replicated {
					return nil, nil, fmt.Errorf("replicated thread %s cannot be flattened: %s", th.Name, why)
				}
				concrete[ti] = true
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	read, _ := readCells(p, concrete)
	piv := &FlattenPivot{Pivot: pi}
	a := p.Empty()
	pc := *p.Threads[pi]
	pc.Replicated = false
	a.Threads = append(a.Threads, &pc)
	for ti, th := range p.Threads {
		if ti != pi && concrete[ti] {
			c := *th
			a.Threads = append(a.Threads, &c)
			piv.Concrete = append(piv.Concrete, ti)
		}
	}
	for ti, th := range p.Threads {
		switch {
		case th.Replicated:
			a.Threads = append(a.Threads, starThread(th, read))
			piv.Flattened = append(piv.Flattened, ti)
		case !concrete[ti]:
			a.Threads = append(a.Threads, flatThread(th, read))
			piv.Flattened = append(piv.Flattened, ti)
		}
	}
	piv.Program = a
	return a, piv, nil
}

// readCells is the set of cells the given threads may read; all is set
// when some read address is not constant.
func readCells(p *prog.Program, threads map[int]bool) (cells map[int64]bool, all bool) {
	cells = map[int64]bool{}
	for ti := range threads {
		for _, t := range p.Threads[ti].Trans {
			if t.Op != prog.OpRead {
				continue
			}
			a, ok := t.Addr.Const()
			if !ok {
				all = true
			}
			cells[a] = true
		}
	}
	if all {
		for _, c := range p.Cells {
			cells[c] = true
		}
	}
	return cells, all
}

// unflattenable says why th must stay concrete, or "".
func unflattenable(p *prog.Program, th *prog.Thread, read map[int64]bool, all bool) string {
	for _, t := range th.Trans {
		if t.Op != prog.OpWrite {
			continue
		}
		a, ok := t.Addr.Const()
		if !ok {
			return fmt.Sprintf("%v: write to a computed address", t.Pos)
		}
		if _, vc := t.Val.Const(); read[a] && !vc {
			return fmt.Sprintf("%v: write of a computed value to an observed address", t.Pos)
		}
	}
	return ""
}

// kept says whether a write survives flattening.
func kept(t prog.Trans, read map[int64]bool) bool {
	if t.Op != prog.OpWrite {
		return false
	}
	a, _ := t.Addr.Const()
	return read[a]
}

func flatThread(th *prog.Thread, read map[int64]bool) *prog.Thread {
	c := *th
	c.Regs = nil
	c.Trans = make([]prog.Trans, len(th.Trans))
	for i, t := range th.Trans {
		if kept(t, read) {
			c.Trans[i] = t
			continue
		}
		c.Trans[i] = prog.Trans{From: t.From, To: t.To, Op: prog.OpNoop, Reg: -1, Pos: t.Pos, Text: "noop", Line: t.Line, FromPos: t.FromPos}
	}
	return &c
}

// starThread stands for any number of flattened copies of th.
func starThread(th *prog.Thread, read map[int64]bool) *prog.Thread {
	c := &prog.Thread{Name: th.Name + "*", Labels: []string{"star"}, Out: [][]int{nil}}
	seen := map[string]bool{}
	for _, t := range th.Trans {
		if !kept(t, read) || seen[t.Text] {
			continue
		}
		seen[t.Text] = true
		s := t
		s.From, s.To = 0, 0
		c.Trans = append(c.Trans, s)
		c.Out[0] = append(c.Out[0], len(c.Trans)-1)
	}
	return c
}

// Format prints the abstraction's answer and what it guarantees.
func (res *FlattenResult) Format(p *prog.Program) string {
	var b strings.Builder
	names := func(ts []int) string {
		var s []string
		for _, t := range ts {
			s = append(s, p.Threads[t].Name)
		}
		sort.Strings(s)
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, " ")
	}
	for _, pv := range res.Pivots {
		fmt.Fprintf(&b, "  pivot %s: concrete %s; flattened %s; %d patterns searched, %d feasible, %d states\n",
			p.Threads[pv.Pivot].Name, names(pv.Concrete), names(pv.Flattened), pv.Patterns, pv.Feasible, pv.States)
	}
	switch {
	case res.Verdict == prog.Robust && res.Concrete == nil && p.Replicated():
		b.WriteString("abstraction: PERSISTENT, for every number of copies of the replicated threads (no pattern in any flattened program)\n")
	case res.Verdict == prog.Robust && res.Concrete == nil:
		b.WriteString("abstraction: PERSISTENT (no pattern in any flattened program)\n")
	case res.Concrete != nil && res.Instance != nil && res.Verdict == prog.Unknown && res.Concrete.Verdict == prog.Robust:
		fmt.Fprintf(&b, "abstraction: a pattern in a flattened program is no verdict; the instances with 1..%d copies of each replicated thread are persistent, larger ones are not decided\n", FlattenInstances)
	case res.Concrete != nil:
		fmt.Fprintf(&b, "abstraction: a pattern in a flattened program is no verdict; the verdict is that of the concrete check%s\n", instanceNote(p, res.Instance))
	default:
		fmt.Fprintf(&b, "abstraction: UNKNOWN: %s\n", res.Reason)
	}
	return b.String()
}

func instanceNote(p *prog.Program, copies []int) string {
	var s []string
	for t, th := range p.Threads {
		if th.Replicated && copies != nil {
			s = append(s, fmt.Sprintf("%d of %s", copies[t], th.Name))
		}
	}
	if len(s) == 0 {
		return ""
	}
	return " of the instance with " + strings.Join(s, ", ")
}
