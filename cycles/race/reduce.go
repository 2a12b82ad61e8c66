package race

import "github.com/pgasrob/pgasrob/pgas"

// Steps that commute with everything. A rank whose control state has only
// assigns and assumes leaving it reads and writes nothing but its own
// registers and control state: no step of another rank and no pop reads
// or writes those, no barrier can involve the rank there, and the
// monitor leaves its places as they are (no access, the rank's bit
// unchanged). Its steps from such a state commute with every other step
// and stay enabled until taken, so the search may follow them alone: any
// computation is a reordering by swaps of adjacent commuting steps of one
// that takes them first, with the same events, the same api_hb and so the
// same races (partial-order reduction with a persistent set). The states
// on a cycle of such transitions are left out, so that no cycle of the
// reduced search postpones the other ranks for ever.

// localStates marks the control states where the reduction applies.
func localStates(p *pgas.Program) []bool {
	nq := len(p.Labels)
	local := make([]bool, nq)
	for q := range local {
		local[q] = len(p.Out[q]) > 0
		for _, t := range p.Out[q] {
			if op := p.Trans[t].Cmd.Op; op != pgas.OpAssign && op != pgas.OpAssume {
				local[q] = false
			}
		}
	}
	// drop the states on a cycle of local states
	onCycle := make([]bool, nq)
	for q := range local {
		if !local[q] {
			continue
		}
		seen := make([]bool, nq)
		stack := []int{q}
		for len(stack) > 0 && !onCycle[q] {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range p.Out[u] {
				v := p.Trans[t].To
				if v == q {
					onCycle[q] = true
				}
				if local[v] && !seen[v] {
					seen[v] = true
					stack = append(stack, v)
				}
			}
		}
	}
	for q := range local {
		local[q] = local[q] && !onCycle[q]
	}
	return local
}

// steps returns the steps the search follows from x, and the run-time
// errors met: the commands of the first rank in a local control state
// that has one (only those are built), else every step of X. The steps
// postponed so report their errors later: they stay enabled, and what
// they evaluate (another rank's registers and cells, a pending pop's
// cell) is what the local steps do not change, so they fail the same way
// in the state the local steps lead to, which the search reaches (the
// local states are on no cycle). A step of x that wraps (Step.Wrap) is
// an error of x too.
func (s *system) steps(x *pgas.XState) ([]pgas.Step, []error) {
	var errs []error
	for r := 1; r <= s.m.N(); r++ {
		if !s.mon.localQ[x.Control(r)] {
			continue
		}
		steps, es := s.m.RankSteps(x, r)
		for _, e := range es {
			errs = append(errs, e)
		}
		if len(steps) > 0 {
			return steps, wraps(steps, errs)
		}
	}
	steps, es := s.m.Steps(x)
	for _, e := range es {
		errs = append(errs, e)
	}
	return steps, wraps(steps, errs)
}

// wraps appends the wraps of steps to errs.
func wraps(steps []pgas.Step, errs []error) []error {
	for _, st := range steps {
		if st.Wrap != nil {
			errs = append(errs, st.Wrap)
		}
	}
	return errs
}
