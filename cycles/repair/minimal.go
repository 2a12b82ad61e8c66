package repair

import (
	"fmt"
	"slices"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// prove decides every set of candidates cheaper than set, cheapest
// first. The first one robust for every N would be a cheaper repair (the
// constraints of the search are only a guide), and is then the minimum
// itself, since all cheaper ones come before it. Budgets end the proof
// early; Minimality says how far it went.
func (r *repairer) prove(res *Result, set []int, after []*cycles.Result) ([]int, []*cycles.Result, error) {
	limit := r.opt.ProofSets
	if limit <= 0 {
		limit = 500
	}
	bound := r.cost(set)
	var sets [][]int
	truncated := false
	var cur []int
	var enum func(from int, sum int64)
	enum = func(from int, sum int64) {
		if truncated {
			return
		}
		if len(sets) > limit {
			truncated = true
			return
		}
		sets = append(sets, slices.Clone(cur))
		for k := from; k < len(r.cands); k++ {
			c := r.opt.Costs.Of(r.cands[k])
			if sum+c >= bound {
				break // candidates are sorted by cost
			}
			cur = append(cur, k)
			enum(k+1, sum+c)
			cur = cur[:len(cur)-1]
		}
	}
	enum(0, 0)
	if truncated {
		sets = sets[:limit]
	}
	slices.SortStableFunc(sets, func(x, y []int) int {
		if cx, cy := r.cost(x), r.cost(y); cx != cy {
			if cx < cy {
				return -1
			}
			return 1
		}
		return slices.Compare(x, y)
	})
	m := Minimality{Total: len(sets)}
	if truncated {
		m.Total = -1
	}
	undecided := 0
	for _, s := range sets {
		if r.opt.Context.Err() != nil {
			m.Reason = fmt.Sprintf("stopped after %d cheaper sets: %s", m.Checked, automata.StopReason(r.opt.Context))
			res.Minimality = m
			return set, after, nil
		}
		r.progress("minimality: cheaper set %d of %d", m.Checked+1, len(sets))
		d, err := r.decideAll(r.pick(s))
		if err != nil {
			// A combination that does not compile is not a repair.
			m.Checked++
			continue
		}
		m.Checked++
		switch {
		case firstViolation(d) != nil:
		case allRobust(d, len(r.ns)):
			// Cheaper than what the search found, and the cheapest.
			m.Proven = !truncated && undecided == 0
			if !m.Proven {
				m.Reason = "a cheaper set was found after undecided ones"
			}
			res.Minimality = m
			return s, d, nil
		default:
			undecided++
		}
	}
	m.Proven = !truncated && undecided == 0
	switch {
	case truncated:
		m.Reason = fmt.Sprintf("more than %d cheaper sets; the first %d were decided", limit, limit)
	case undecided > 0:
		m.Reason = fmt.Sprintf("%d cheaper sets ran out of their decision budget", undecided)
	}
	res.Minimality = m
	return set, after, nil
}

func allRobust(d []*cycles.Result, n int) bool {
	if len(d) != n {
		return false
	}
	for _, x := range d {
		if x.Verdict != cycles.Robust {
			return false
		}
	}
	return true
}

// describeInsertions applies set to the source and fills res with the
// insertions, their texts and costs, and the repaired source.
func (r *repairer) describeInsertions(res *Result, set []int) error {
	chosen := r.pick(set)
	ed, err := r.a.apply(r.src, chosen)
	if err != nil {
		return err
	}
	names := r.a.handleNames(chosen)
	regs, fresh := r.a.swapRegs(chosen)
	for _, c := range chosen {
		ins := Insertion{Candidate: c, Cost: r.opt.Costs.Of(c)}
		switch c.Kind {
		case Fence, Quiet:
			ins.Text = fmt.Sprintf("%s %s before line %d", c.Kind, c.Queue, c.At.Line)
		case Blocking:
			o, _ := r.a.opAt(c.Op)
			ins.Text = fmt.Sprintf("%s at line %d becomes %s", o.kw, o.pos.Line, nbiForms[o.kw])
		case Atomic:
			reg := regs[c.Op]
			how := "dead after it"
			if reg == fresh {
				how = "declared for it"
			}
			o, _ := r.a.opAt(c.Op)
			ins.Text = fmt.Sprintf("%s at line %d becomes %s <- amo_swap (a fetching atomic, complete when it returns; %s %s)", o.kw, c.Op.Line, reg, reg, how)
		case Wait:
			o, _ := r.a.opAt(c.Op)
			h := o.handle
			if h == "" {
				h = names[o.pos]
				ins.Text = fmt.Sprintf("give the %s at line %d the handle %s, and wait %s before line %d", o.kw, o.pos.Line, h, h, c.At.Line)
			} else {
				ins.Text = fmt.Sprintf("wait %s (the %s at line %d) before line %d", h, o.kw, o.pos.Line, c.At.Line)
			}
		case WaitQ:
			ins.Text = fmt.Sprintf("waitq %s before line %d", c.Queue, c.At.Line)
		case Sync:
			o, _ := r.a.opAt(c.Op)
			ins.Text = fmt.Sprintf("%s at line %d becomes %s", o.kw, o.pos.Line, map[string]string{"write": "put", "read": "get"}[o.kw])
		}
		res.Insertions = append(res.Insertions, ins)
		res.Cost += ins.Cost
	}
	res.Verdict, res.Source = Repaired, ed.src
	return nil
}

// finish writes the repaired program, decides it again from its text for
// every N and explores it with the oracle: a repair is shown only if all
// of that holds.
func (r *repairer) finish(res *Result, set []int, after []*cycles.Result) error {
	if err := r.describeInsertions(res, set); err != nil {
		return err
	}
	p, err := pgas.Compile(r.file, res.Source)
	if err != nil {
		return fmt.Errorf("%w: the repaired program does not compile: %v", ErrInternal, err)
	}
	for _, n := range r.ns {
		d, err := cycles.Decide(p, n, r.opt.Decide)
		if err != nil {
			return err
		}
		if d.Verdict != cycles.Robust {
			return fmt.Errorf("%w: the repaired program decides %v for N = %d", ErrInternal, d.Verdict, n)
		}
		res.After = append(res.After, d)
	}
	return r.oracleCheck(res, p)
}

// oracleCheck explores the repaired program with the brute-force oracle,
// within its bounds: a violation or run-time error there is an internal
// error.
func (r *repairer) oracleCheck(res *Result, p *pgas.Program) error {
	for _, n := range r.ns {
		o := oracle.Explore(p, n, r.opt.Oracle)
		switch {
		case o.Err != nil:
			return fmt.Errorf("%w: oracle: %v", ErrInternal, o.Err)
		case o.Violation != nil:
			return fmt.Errorf("%w: the oracle finds a violation of the repaired program for N = %d", ErrInternal, n)
		case o.RangeErr != nil:
			return fmt.Errorf("%w: the oracle reaches a run-time error of the repaired program for N = %d: %v", ErrInternal, n, o.RangeErr)
		}
		res.Oracle = append(res.Oracle, OracleCheck{N: n, Complete: o.Complete, Truncated: o.Truncated, Explored: o.Explored})
	}
	return nil
}
