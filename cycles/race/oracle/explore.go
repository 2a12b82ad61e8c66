package oracle

import (
	"github.com/pgasrob/pgasrob/pgas"
)

// Verdict is the oracle's answer.
type Verdict int

const (
	RaceFree Verdict = iota
	Race
	Unknown      // a bound was reached (depth or number of steps)
	RunTimeError // some step fails to evaluate, or an atomic add wraps
)

func (v Verdict) String() string {
	return [...]string{"RACE-FREE", "RACE", "UNKNOWN", "RUN-TIME ERROR"}[v]
}

// Options bound the enumeration.
type Options struct {
	MaxDepth int   // longest computation followed (0: 200 events)
	MaxSteps int64 // steps of X taken in all (0: 5,000,000)
	// Full follows every step, without the reduction of ample: the
	// plainest enumeration, for the difftests of a procedure that itself
	// reduces by commuting steps (race.Decide does).
	Full bool
}

// Result is the oracle's answer; for Race, Events is a computation whose
// events Pair[0] and Pair[1] race.
type Result struct {
	Verdict Verdict
	Events  []pgas.Event
	Pair    [2]int
	RunErr  error
	Steps   int64
}

type explorer struct {
	p      *pgas.Program
	m      *pgas.Machine
	local  []bool // per control state: every transition from it is an assign or an assume
	opt    Options
	path   []ev
	nsteps int
	res    Result
	cut    bool
	done   bool
}

// Races decides race freedom of p for n ranks by enumerating every
// computation of X(p, n).
func Races(p *pgas.Program, n int, opt Options) Result {
	if opt.MaxDepth == 0 {
		opt.MaxDepth = 200
	}
	if opt.MaxSteps == 0 {
		opt.MaxSteps = 5_000_000
	}
	x := &explorer{p: p, m: pgas.NewMachine(p, n), opt: opt, local: localStates(p)}
	x.dfs(x.m.Initial())
	// a race anywhere wins (a run-time error does not stop the other
	// computations); a bound reached hides races, so it comes next
	switch {
	case x.res.Verdict == Race:
	case x.cut:
		x.res.Verdict = Unknown
	case x.res.RunErr != nil:
		x.res.Verdict = RunTimeError
	}
	return x.res
}

func (x *explorer) dfs(s *pgas.XState) {
	if x.done {
		return
	}
	steps, errs := x.m.Steps(s)
	if len(errs) > 0 && x.res.RunErr == nil {
		x.res.RunErr = errs[0]
	}
	leaf := true
	for _, st := range x.ample(s, steps) {
		if st.Wrap != nil {
			if x.res.RunErr == nil {
				x.res.RunErr = st.Wrap
			}
			continue
		}
		leaf = false
		if len(x.path) >= x.opt.MaxDepth || x.res.Steps >= x.opt.MaxSteps {
			x.cut = true
			x.check()
			return
		}
		x.res.Steps++
		n := len(x.path)
		x.push(s, st)
		x.dfs(st.Next)
		x.path = x.path[:n]
		x.nsteps--
		if x.done {
			return
		}
	}
	if leaf {
		x.check()
	}
}

// push appends the events of step st from state s.
func (x *explorer) push(s *pgas.XState, st pgas.Step) {
	for _, e := range st.Events {
		v := ev{Event: e, step: x.nsteps, ctx: -1}
		if e.Rank >= 1 && e.Trans >= 0 && e.Trans < len(x.p.Trans) {
			c := x.p.Trans[e.Trans].Cmd
			if c.Op.IsCtxOp() && c.Queue != nil {
				if q, ok := c.Queue.Const(); ok {
					v.ctx = int(q)
				}
			}
			if isIssue(e.Kind) && x.p.IsCtx(e.Queue) {
				items := st.Next.Items(e.Rank, e.Queue)
				v.item, v.hasItem = items[len(items)-1], true
			}
			if (e.Kind == pgas.KAmo || e.Kind == pgas.KAFetch) && v.ctx >= 0 {
				v.epoch = s.Epoch(e.Rank, v.ctx)
			}
		}
		x.path = append(x.path, v)
	}
	x.nsteps++
}

func (x *explorer) check() {
	if x.res.Verdict == Race {
		return
	}
	g := build(x.p, x.path)
	if rs := g.races(); len(rs) > 0 {
		x.res.Verdict, x.res.Pair, x.done = Race, rs[0], true
		for _, e := range x.path {
			x.res.Events = append(x.res.Events, e.Event)
		}
	}
}

// localStates marks the control states all of whose transitions are
// assigns or assumes: commands that read and write only their rank's
// registers and control state.
func localStates(p *pgas.Program) []bool {
	local := make([]bool, len(p.Labels))
	for q := range local {
		local[q] = true
	}
	for _, t := range p.Trans {
		if op := t.Cmd.Op; op != pgas.OpAssign && op != pgas.OpAssume {
			local[t.From] = false
		}
	}
	return local
}

// ample returns the steps to follow from s: when some rank r is in a
// local control state and can move, its steps only (the first such rank);
// otherwise all of them. This loses no race. Such a step touches only
// r's registers and control state, which no step of another rank and no
// pop reads or writes, and no barrier involves r while it is in that
// state; so it commutes with every step any other rank or queue takes,
// and stays enabled until r takes it. Every computation from s is
// therefore a reordering, by swaps of adjacent commuting steps, of one
// that starts with one of r's steps from s; a swap keeps each event's
// rank, program order and its order against every event it can be
// related to (a local event is related only by program order), so it
// keeps the happens-before graph and the races. The same holds for
// maximal computations, the leaves where races are looked for.
func (x *explorer) ample(s *pgas.XState, steps []pgas.Step) []pgas.Step {
	if x.opt.Full {
		return steps
	}
	for r := 1; r <= x.m.N(); r++ {
		if !x.local[s.Control(r)] {
			continue
		}
		var own []pgas.Step
		for _, st := range steps {
			if st.Move.Kind == pgas.MoveCmd && st.Move.Rank == r {
				own = append(own, st)
			}
		}
		if len(own) > 0 {
			return own
		}
	}
	return steps
}
