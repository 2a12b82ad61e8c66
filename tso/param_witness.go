package tso

import (
	"fmt"

	"github.com/pgasrob/pgasrob/automata/petri"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// paramWitness turns a covering run of the counter abstraction into a
// relaxed computation of one instance and certifies it with the witness
// code of the plain checker. The run starts from the marking that puts
// Start[place] copies in each template's initial state; that fixes the
// instance. Each transition of the run moves one token, so a copy sitting
// in the run's source local state is picked (any one will do: copies in
// one local state are interchangeable) and the move becomes a step of that
// copy. The SC run of the instrumented instance is then read back as a
// relaxed computation as buildWitness does: helpers' stores reach memory
// at once, the attacker's delayed stores at the end, and replayWitness
// re-executes it on the Machine and recomputes the happens-before cycle.
func (res *ParamResult) paramWitness(n *pnet, cov petri.Result, opt Options) {
	p := n.p
	res.Copies = make([]int, len(p.Threads))
	for ti, th := range p.Threads {
		res.Copies[ti] = 1
		if th.Replicated {
			for li, l := range n.ls {
				if int(l[lTmpl]) == ti && l[lLabel] == int64(th.Init) && isZero(l[lHolds:]) {
					res.Copies[ti] = int(cov.Start[n.lPlace[li]])
				}
			}
		}
	}
	inst, from := Instance(p, res.Copies)
	res.Instance = inst
	base := make([]int, len(p.Threads))
	for i := len(from) - 1; i >= 0; i-- {
		base[from[i]] = i
	}
	pos := make([][]int32, len(p.Threads)) // per template, the local state of each copy
	for ti, th := range p.Threads {
		if th.Replicated {
			init, _ := n.local(append([]int64{int64(ti), int64(th.Init), 0}, make([]int64, len(th.Regs))...))
			for k := 0; k < res.Copies[ti]; k++ {
				pos[ti] = append(pos[ti], init)
			}
		}
	}
	steps, err := n.relaxedSteps(cov.Run, base, pos)
	if err != nil {
		res.WitnessErr = err
		return
	}
	res.Witness, res.WitnessErr = replayWitness(inst, prog.TSO, steps.attack, steps.steps, steps.store, steps.last)
	o := opt
	o.Progress = nil
	res.InstanceCheck = check(inst, prog.TSO, o)
}

func isZero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

type paramSteps struct {
	steps       []Step
	attack      Attack
	store, last int
}

// relaxedSteps translates the run (net transition indices) into steps of
// the instance whose thread base[t] is the first copy of thread t.
func (n *pnet) relaxedSteps(run []int, base []int, pos [][]int32) (*paramSteps, error) {
	out := &paramSteps{attack: Attack{Thread: -1, Store: n.a.Store, Last: n.a.Last}, store: -1, last: -1}
	events, delayed := 0, 0
	for _, ti := range run {
		nt := &n.net.Trans[ti]
		mv := n.moves[nt.Label]
		t := int(mv.thread)
		who := base[t]
		if n.p.Threads[t].Replicated {
			src, dst := int32(-1), int32(-1)
			for _, pc := range nt.Pre {
				if k := n.kind[pc.Place]; k < 0 {
					src = -1 - k
				}
			}
			for _, pc := range nt.Post {
				if k := n.kind[pc.Place]; k < 0 {
					dst = -1 - k
				}
			}
			c := -1
			for k, at := range pos[t] {
				if at == src {
					c = k
					break
				}
			}
			if c < 0 || dst < 0 {
				return nil, fmt.Errorf("internal error: the covering run moves a copy of %s that is not there", n.p.Threads[t].Name)
			}
			pos[t][c] = dst
			who += c
		}
		it := n.threads[t].trans[mv.trans]
		op := n.p.Threads[t].Trans[it.orig].Op
		s := Step{Kind: StepExec, Thread: who, Trans: int(it.orig), Event: -1}
		if op == prog.OpRead || op == prog.OpWrite {
			s.Event = events
			events++
		}
		switch it.role {
		case rAttStart, rAttCopy:
			s.Delayed = op == prog.OpWrite
			out.steps = append(out.steps, s)
			if s.Delayed {
				delayed++
			}
			if it.role == rAttStart {
				out.attack.Thread, out.store = who, s.Event
			}
		case rAttLast:
			out.steps = append(out.steps, s)
			out.last = s.Event
		default:
			out.steps = append(out.steps, s)
			if op == prog.OpWrite {
				out.steps = append(out.steps, Step{Kind: StepFlush, Thread: who})
			}
		}
	}
	if out.attack.Thread < 0 {
		return nil, fmt.Errorf("internal error: the covering run has no attacking store")
	}
	for ; delayed > 0; delayed-- {
		out.steps = append(out.steps, Step{Kind: StepFlush, Thread: out.attack.Thread})
	}
	return out, nil
}
