package normalform

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

// Liveness shrinks the state space without changing the language: a
// register that is overwritten before it is read again, and the part
// counters of a queue the rank will never use again, cannot influence any
// future event, so they are reset to zero. States that differ only there
// then coincide.
type liveness struct {
	regs   [][]bool // regs[q][i]: register i may be read before written from q
	queues [][]bool // queues[q][k]: a remote command on queue k is reachable from q
}

func computeLiveness(p *pgas.Program) liveness {
	nq := len(p.Labels)
	lv := liveness{regs: make([][]bool, nq), queues: make([][]bool, nq)}
	for q := range lv.regs {
		lv.regs[q] = make([]bool, len(p.Regs))
		lv.queues[q] = make([]bool, len(p.Queues))
	}
	// Backward fixpoint over the program automaton; it is small, so plain
	// iteration is enough.
	for changed := true; changed; {
		changed = false
		for _, t := range p.Trans {
			c := &t.Cmd
			use := map[int]bool{}
			for _, e := range []*pgas.Expr{c.Addr, c.Val, c.Val2, c.Local, c.Rank, c.Remote, c.Queue} {
				if e != nil {
					for _, r := range e.Regs() {
						use[r] = true
					}
				}
			}
			def := -1
			if c.Op == pgas.OpLoad || c.Op == pgas.OpAssign || c.Op == pgas.OpAtomic {
				def = c.Reg
			}
			if c.Guard != nil {
				// The guard reads the freshly loaded register, not an
				// older value, so it uses nothing from before except the
				// other registers it mentions.
				for _, r := range c.Guard.Regs() {
					if r != def {
						use[r] = true
					}
				}
			}
			from, to := t.From, t.To
			for r := range p.Regs {
				live := use[r] || (r != def && lv.regs[to][r])
				if live && !lv.regs[from][r] {
					lv.regs[from][r], changed = true, true
				}
			}
			for k := range p.Queues {
				live := lv.queues[to][k]
				if c.Op == pgas.OpRead || c.Op == pgas.OpWrite {
					if v, ok := c.Queue.Const(); !ok || v == int64(k) {
						live = true
					}
				}
				if live && !lv.queues[from][k] {
					lv.queues[from][k], changed = true, true
				}
			}
		}
	}
	return lv
}

// ctxLiveness says, per control state, which context fields a rank may
// still read: lb and cur are read by the sends and atomics of their context
// (a fence only folds cur into lb), delayed by its quiets, last by an After
// send. A field nobody reads again is reset to zero, like a dead register.
type ctxLiveness struct {
	order [][]bool // order[q][slot]: a send or atomic on the context is reachable from q
	quiet [][]bool // quiet[q][slot]: a quiet on the context is reachable from q
	after []bool   // after[q]: an After send is reachable from q
}

func computeCtxLiveness(p *pgas.Program, slot []int, nc int) ctxLiveness {
	lv := ctxLiveness{after: reachable(p, func(c *pgas.Cmd) bool { return c.Op == pgas.OpSend && c.After })}
	on := func(c *pgas.Cmd, s int) bool {
		if v, ok := c.Queue.Const(); ok {
			return v >= 0 && int(v) < len(slot) && slot[v] == s
		}
		return true // a context chosen at run time may be any
	}
	order, quiet := make([][]bool, nc), make([][]bool, nc)
	for s := 0; s < nc; s++ {
		order[s] = reachable(p, func(c *pgas.Cmd) bool {
			return (c.Op == pgas.OpSend || c.Op == pgas.OpAtomic) && on(c, s)
		})
		quiet[s] = reachable(p, func(c *pgas.Cmd) bool { return c.Op == pgas.OpQuiet && on(c, s) })
	}
	lv.order, lv.quiet = make([][]bool, len(p.Labels)), make([][]bool, len(p.Labels))
	for q := range p.Labels {
		for s := 0; s < nc; s++ {
			lv.order[q] = append(lv.order[q], order[s][q])
			lv.quiet[q] = append(lv.quiet[q], quiet[s][q])
		}
	}
	return lv
}

// reachable returns, per control state, whether a path from it takes a
// transition whose command satisfies pred.
func reachable(p *pgas.Program, pred func(*pgas.Cmd) bool) []bool {
	out := make([]bool, len(p.Labels))
	for changed := true; changed; {
		changed = false
		for i := range p.Trans {
			t := &p.Trans[i]
			if !out[t.From] && (pred(&t.Cmd) || out[t.To]) {
				out[t.From], changed = true, true
			}
		}
	}
	return out
}

// forget resets the context fields of rank r at control state q that
// no command ahead reads.
func (cf *ctxFields) forget(s automata.State, r, q int) {
	for slot := range cf.delayed[r-1] {
		if !cf.live.order[q][slot] {
			for k := range cf.lb[r-1][slot] {
				cf.lb[r-1][slot][k].Set(s, 0)
				cf.cur[r-1][slot][k].Set(s, 0)
			}
		}
		if !cf.live.quiet[q][slot] {
			cf.delayed[r-1][slot].Set(s, 0)
		}
	}
	if !cf.live.after[q] {
		cf.last[r-1].Set(s, 0)
	}
}
