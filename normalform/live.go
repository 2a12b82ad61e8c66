package normalform

import "github.com/pgasrob/pgasrob/pgas"

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
			for _, e := range []*pgas.Expr{c.Addr, c.Val, c.Local, c.Rank, c.Remote, c.Queue} {
				if e != nil {
					for _, r := range e.Regs() {
						use[r] = true
					}
				}
			}
			def := -1
			if c.Op == pgas.OpLoad || c.Op == pgas.OpAssign {
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
