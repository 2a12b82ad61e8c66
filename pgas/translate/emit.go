package translate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// instr is one framework instruction of a command's translation.
type instr struct {
	text string
	role Role
}

// thread writes rank r's automaton: every PGAS transition q1 -> q2 becomes
// a chain of framework transitions from q1 to q2 through fresh states
// "q1~T.K" (no .pgas label contains '~').
func (t *translator) thread(b *strings.Builder, r int) error {
	p := t.p
	fmt.Fprintf(b, "thread rank%d\ninitial %s\n", r, p.Labels[p.Init])
	for ti := range p.Trans {
		tr := &p.Trans[ti]
		ins, err := t.command(r, ti)
		var blocked *blockedErr
		if errors.As(err, &blocked) {
			// A constant division by zero once rank and N are known:
			// the command is a run-time error, it never executes.
			ins, err = []instr{{"check 0", RoleGuard}}, nil
		}
		if err != nil {
			return err
		}
		from := p.Labels[tr.From]
		for k, in := range ins {
			to := p.Labels[tr.To]
			if k < len(ins)-1 {
				to = fmt.Sprintf("%s~%d.%d", p.Labels[tr.From], ti, k+1)
			}
			fmt.Fprintf(b, "transition %s %s %s", from, to, in.text)
			if k == 0 || in.role != RoleCommand {
				fmt.Fprintf(b, "   # line %d: %s [%s]", tr.Pos.Line, oneLine(tr.Text), in.role)
			}
			b.WriteString("\n")
			t.res.Origins[r-1] = append(t.res.Origins[r-1], Origin{Trans: ti, Role: in.role})
			from = to
		}
	}
	b.WriteString("end\n")
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// command translates transition ti for rank r (the rules of
// docs/translate.md).
func (t *translator) command(r, ti int) ([]instr, error) {
	tr := &t.p.Trans[ti]
	c := &tr.Cmd
	ex := func(e *pgas.Expr) (node, error) { return t.expr(e, r) }
	g := guards{t: t}
	t.nonzero = t.nonzero[:0]
	defer func() { t.nonzero = t.nonzero[:0] }()
	A := len(t.p.Addrs)
	switch c.Op {
	case pgas.OpLoad:
		if c.Guard != nil {
			// A wait: the shadow it polls is set by the completion of the
			// operations it waits for, which the framework cannot see; it
			// waits for every buffered store instead.
			return []instr{{"sfence", RoleWait}}, nil
		}
		a, err := ex(c.Addr)
		if err != nil {
			return nil, err
		}
		g.in(a, 0, int64(A-1))
		return g.then(instr{fmt.Sprintf("read %s %s", t.p.Regs[c.Reg], offset(Global(t.p, r, 0), a)), RoleCommand}), nil
	case pgas.OpStore:
		if t.shadowOnly(c.Addr) {
			return []instr{{"noop", RoleHidden}}, nil
		}
		a, err := ex(c.Addr)
		if err != nil {
			return nil, err
		}
		v, err := ex(c.Val)
		if err != nil {
			return nil, err
		}
		g.in(v, t.p.Lo, t.p.Hi())
		g.in(a, 0, int64(A-1))
		out := g.then(instr{fmt.Sprintf("write %s %s", v, offset(Global(t.p, r, 0), a)), RoleCommand})
		if len(out) > 0 && out[len(out)-1].role == RoleCommand && t.visible(a) {
			out = append(out, instr{"sfence", RoleStoreFence})
		}
		return out, nil
	case pgas.OpAssign:
		v, err := ex(c.Val)
		if err != nil {
			return nil, err
		}
		g.in(v, t.p.Lo, t.p.Hi())
		return g.then(instr{fmt.Sprintf("local %s %s", t.p.Regs[c.Reg], v), RoleCommand}), nil
	case pgas.OpAssume:
		v, err := ex(c.Val)
		if err != nil {
			return nil, err
		}
		return g.then(instr{"check " + v.String(), RoleCommand}), nil
	case pgas.OpRead, pgas.OpWrite:
		if !t.isOp(c) {
			return []instr{{"noop", RoleHidden}}, nil
		}
		return t.remote(r, c)
	case pgas.OpBarrier:
		return t.barrierCode(r), nil
	}
	return nil, fmt.Errorf("%v: internal error: unknown command %v", tr.Pos, c.Op)
}

// visible reports whether a local store to address a of some rank may be
// read or overwritten by a remote operation. Only then does its buffering
// matter: a cell no remote operation reaches is accessed by its own thread
// alone, which reads its own buffered stores.
func (t *translator) visible(a node) bool {
	if a.konst {
		return a.c >= 0 && int(a.c) < len(t.seen) && t.seen[a.c]
	}
	for _, s := range t.seen {
		if s {
			return true
		}
	}
	return false
}

// remote translates read(l, k, m, q) and write(l, k, m, q) of rank r: the
// source is loaded when the command is issued and the destination is a
// buffered store. A fence over the destinations of the queue's operations
// keeps the queue's stores in issue order (its popb events are FIFO).
func (t *translator) remote(r int, c *pgas.Cmd) ([]instr, error) {
	g := guards{t: t}
	var ns [4]node
	for i, e := range []*pgas.Expr{c.Local, c.Rank, c.Remote, c.Queue} {
		nd, err := t.expr(e, r)
		if err != nil {
			return nil, err
		}
		ns[i] = nd
	}
	A := int64(len(t.p.Addrs))
	l, k, m, q := ns[0], ns[1], ns[2], ns[3]
	g.in(l, 0, A-1)
	g.in(k, 1, int64(t.n))
	g.in(m, 0, A-1)
	g.in(q, 0, int64(len(t.p.Queues)-1))
	if g.blocked {
		return g.then(), nil
	}
	local := offset(Global(t.p, r, 0), l)
	remote := t.remoteAddr(k, m)
	src, dst := remote, local
	if c.Op == pgas.OpWrite {
		src, dst = local, remote
	}
	out := g.then(instr{fmt.Sprintf("read %s %s", regVal, src), RoleSource})
	if f := t.queueFence(r, c, dst); f != "" {
		out = append(out, instr{f, RoleQueueFence})
		t.res.Fences = true
	}
	return append(out, instr{fmt.Sprintf("write %s %s", regVal, dst), RoleDest}), nil
}

// queueFence returns the fence before the destination store of an
// operation on the queues q may take, or "" when the per-address buffer's
// own FIFO order already suffices (the queues' operations all write dst).
func (t *translator) queueFence(r int, c *pgas.Cmd, dst node) string {
	set := map[int]bool{}
	for _, q := range t.values(c.Queue, r, len(t.p.Queues)) {
		for _, a := range t.dests(r, q) {
			set[a] = true
		}
	}
	if dst.konst && len(set) == 1 && set[int(dst.c)] || len(set) == 0 {
		return ""
	}
	as := make([]int, 0, len(set))
	for a := range set {
		as = append(as, a)
	}
	sortInts(as)
	var b strings.Builder
	b.WriteString("fence")
	for _, a := range as {
		fmt.Fprintf(&b, " %d", a)
	}
	return b.String()
}

func (t *translator) remoteAddr(k, m node) node {
	A := int64(len(t.p.Addrs))
	if k.konst && m.konst {
		return konst((k.c-1)*A + m.c)
	}
	return node{s: fmt.Sprintf("+ * - %s 1 %d %s", k, A, m)}
}

// barrierCode is a central barrier: every rank but 1 stores its arrival
// flag and waits for rank 1's release flag; rank 1 waits for every arrival
// and then stores the release. A symmetric barrier (every rank polls every
// other's flag) would itself be the store-buffering pattern: two delayed
// arrivals and two polls reading 0 form a cycle that has no counterpart in
// PGAS, where a barrier is one ↔-class. The central one adds no cycle: its
// failed polls and its flags only order events before the barrier before
// events after it (docs/translate.md). Flags hold the rank's barrier
// generation 1, 2, 1, 2, ... (0 before the first): a flag is polled only
// while its owner is at most one generation behind.
func (t *translator) barrierCode(r int) []instr {
	if t.n == 1 {
		return []instr{{"noop", RoleBarrierCount}}
	}
	out := []instr{{fmt.Sprintf("local %s + 1 == %s 1", regGen, regGen), RoleBarrierCount}}
	release := t.barBase()
	if r != 1 {
		return append(out,
			instr{fmt.Sprintf("write %s %d", regGen, t.barBase()+r-1), RoleBarrierArrive},
			instr{fmt.Sprintf("read %s %d", regPoll, release), RoleBarrierPoll},
			instr{fmt.Sprintf("check == %s %s", regPoll, regGen), RoleBarrierCheck})
	}
	for j := 2; j <= t.n; j++ {
		out = append(out,
			instr{fmt.Sprintf("read %s %d", regPoll, t.barBase()+j-1), RoleBarrierPoll},
			instr{fmt.Sprintf("check == %s %s", regPoll, regGen), RoleBarrierCheck})
	}
	return append(out, instr{fmt.Sprintf("write %s %d", regGen, release), RoleBarrierArrive})
}

// guards collects the range checks of a command: out of range, a PGAS
// command cannot execute (a run-time error), so the translation blocks.
type guards struct {
	t       *translator
	conds   []string
	blocked bool
}

func (g *guards) in(n node, lo, hi int64) {
	if n.lo >= lo && n.hi <= hi {
		return // within range whatever the registers hold
	}
	if n.konst {
		if n.c < lo || n.c > hi {
			g.blocked = true
		}
		return
	}
	g.conds = append(g.conds, fmt.Sprintf("&& >= %s %d <= %s %d", n, lo, n, hi))
}

// then prefixes in with the checks (in is dropped when a constant is out
// of range: the command can never execute).
func (g *guards) then(in ...instr) []instr {
	for _, d := range g.t.nonzero {
		g.conds = append(g.conds, "!= "+d+" 0")
	}
	g.t.nonzero = g.t.nonzero[:0]
	if g.blocked {
		return []instr{{"check 0", RoleGuard}}
	}
	if len(g.conds) == 0 {
		return in
	}
	c := g.conds[0]
	for _, d := range g.conds[1:] {
		c = "&& " + c + " " + d
	}
	return append([]instr{{"check " + c, RoleGuard}}, in...)
}

func offset(base int, a node) node {
	if a.konst {
		return konst(int64(base) + a.c)
	}
	if base == 0 {
		return a
	}
	return node{s: "+ " + strconv.Itoa(base) + " " + a.s}
}
