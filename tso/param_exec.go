package tso

import (
	"fmt"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// exec runs instrumented transition it of thread ti on global state g and
// the thread's registers regs (both changed in place). holds is the
// holds-lock field of a copy's local state, nil for a single thread. The
// rules are those of scSystem.exec for the TSO attacker (Figs. 5 and 7 of
// tso-robustness-attacks.md, and the locked-section rule of docs/tso.md),
// on unpacked vectors, plus the test-and-set of Section 6: a copy may start
// the attack only while no other copy has.
func (n *pnet) exec(ti int, it *itrans, g, regs []int64, holds *int64) bool {
	t := &n.p.Threads[ti].Trans[it.orig]
	l := &n.lay
	switch it.role {
	case rExec:
		return n.plain(ti, t, g, regs, holds)
	case rHelperPre:
		return g[l.hb] == 0 && n.plain(ti, t, g, regs, holds)
	case rHelperLock:
		return g[l.hb] != 0 && n.plain(ti, t, g, regs, holds)
	case rHelperTent:
		if t.Op == prog.OpRead || t.Op == prog.OpWrite {
			c, ok := n.cell(t.Addr, regs)
			if !ok {
				return false
			}
			lv := g[l.level+c]
			if t.Op == prog.OpRead && lv == lvStore || t.Op == prog.OpWrite && lv >= lvLoad {
				return false
			}
		}
		return n.plain(ti, t, g, regs, holds)
	case rHelperEnter, rHelperCopy:
		c, lv := -1, int64(-1)
		if t.Op == prog.OpRead || t.Op == prog.OpWrite {
			var ok bool
			if c, ok = n.cell(t.Addr, regs); !ok {
				return false
			}
			lv = g[l.level+c]
		}
		if it.role == rHelperEnter && (t.Op == prog.OpRead && lv != lvStore || t.Op == prog.OpWrite && lv < lvLoad) {
			return false
		}
		if !n.plain(ti, t, g, regs, holds) {
			return false
		}
		switch {
		case t.Op == prog.OpWrite:
			g[l.level+c] = lvStore
		case t.Op == prog.OpRead && lv < lvLoad:
			g[l.level+c] = lvLoad
		}
		return true
	case rAttStart:
		if n.p.Threads[ti].Replicated {
			if g[l.taken] != 0 {
				return false
			}
			g[l.taken] = 1
		}
		c, ok := n.cell(t.Addr, regs)
		if !ok {
			return false
		}
		g[l.stAddr], g[l.bufSet+c] = int64(c), 1
		return n.put(&g[l.bufVal+c], t.Val.Eval(regs))
	case rAttLast:
		c, ok := n.cell(t.Addr, regs)
		if !ok || g[l.bufSet+c] != 0 {
			return false
		}
		g[l.level+c], g[l.hb] = lvLoad, 1
		return true
	case rAttCopy:
		switch t.Op {
		case prog.OpRead:
			c, ok := n.cell(t.Addr, regs)
			if !ok {
				return false
			}
			v := g[l.mem+c]
			if g[l.bufSet+c] != 0 {
				v = g[l.bufVal+c]
			}
			regs[t.Reg] = v
			return true
		case prog.OpWrite:
			c, ok := n.cell(t.Addr, regs)
			if !ok {
				return false
			}
			g[l.bufSet+c] = 1
			return n.put(&g[l.bufVal+c], t.Val.Eval(regs))
		}
		return n.plain(ti, t, g, regs, holds)
	}
	// A role added to instrument but not here would drop behaviours
	// silently: make it an undecided attack instead.
	if n.trouble == "" {
		n.trouble = fmt.Sprintf("internal: the parameterized check does not know the role %v", it.role)
	}
	return false
}

// plain runs an original instruction under SC.
func (n *pnet) plain(ti int, t *prog.Trans, g, regs []int64, holds *int64) bool {
	l := &n.lay
	switch t.Op {
	case prog.OpRead:
		c, ok := n.cell(t.Addr, regs)
		if ok {
			regs[t.Reg] = g[l.mem+c]
		}
		return ok
	case prog.OpWrite:
		c, ok := n.cell(t.Addr, regs)
		return ok && n.put(&g[l.mem+c], t.Val.Eval(regs))
	case prog.OpLocal:
		return n.put(&regs[t.Reg], t.Val.Eval(regs))
	case prog.OpCheck:
		return t.Val.Eval(regs) != 0
	case prog.OpLock:
		if g[l.lock] != 0 {
			return false
		}
		if holds != nil {
			g[l.lock], *holds = lockCopy, 1
		} else {
			g[l.lock] = int64(ti + 1)
		}
	case prog.OpUnlock:
		if holds != nil {
			if *holds == 0 {
				return false
			}
			*holds = 0
		} else if g[l.lock] != int64(ti+1) {
			return false
		}
		g[l.lock] = 0
	case prog.OpFence:
		for _, e := range t.Addrs {
			if _, ok := n.cell(e, regs); !ok {
				return false
			}
		}
	}
	return true
}

func (n *pnet) cell(e *prog.Expr, regs []int64) (int, bool) {
	a := e.Eval(regs)
	c, ok := n.p.CellOf(a)
	if !ok && n.trouble == "" {
		n.trouble = fmt.Sprintf("%v: address %d is outside the memory", e.Pos, a)
	}
	return c, ok
}

// put stores v, or records that the data left the 32-bit domain (the
// packed keys of the states hold 32 bits).
func (n *pnet) put(f *int64, v int64) bool {
	if v < -1<<31 || v >= 1<<31 {
		if n.trouble == "" {
			n.trouble = "values do not fit in 32 bits"
		}
		return false
	}
	*f = v
	return true
}
