package normalform

import (
	"fmt"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

// The OpenSHMEM commands (docs/shmem-calculus.md; the argument is "The
// normal form with contexts" in docs/deviations.md). Items of a context
// are not FIFO, so Y does not keep a pa/pb counter per context: each item
// chooses its own popa part m and popb part n (0..3 for τ1..τ4) when it is
// issued, under the only constraints the semantics has:
//
//   - a popb of a send comes after the popbs of the sends of earlier fence
//     epochs to the same target rank on the same context: n ≥ lb(r,c,k),
//     the highest part those took (same part: generated earlier, so
//     earlier in that part);
//   - the popb of an After send comes after the popbs of the rank's
//     current chain (the last send without Cmd.Chain and the Chain sends
//     after it: the data of one put-with-signal): n ≥ last(r), the highest
//     part they took;
//   - a blocking send reads its source at issue (m = 0), an immediate send
//     has no popa, and m ≤ n;
//   - quiet in τ1 needs every item of the context delivered in τ1:
//     delayed(r,c) records whether some item took a part n > 0 (an item
//     left pending in τ1 stays pending for all of τ1);
//   - a fetching atomic is one event in τ1, allowed once every send of an
//     earlier epoch to its target rank is delivered in τ1: lb(r,c,k) = 0.
//
// cur(r,c,k) is the highest popb part of the current epoch's sends to k;
// a fence folds it into lb and starts the next epoch at 0.

// ctxFields are the fields of Y for the contexts. They exist only when the
// program uses an OpenSHMEM command, so that the states of every other
// program keep their layout.
type ctxFields struct {
	slot    []int                // slot[q]: index of context q among the contexts, -1 for a FIFO queue
	lb, cur [][][]automata.Field // [r-1][slot][k-1]
	delayed [][]automata.Field   // [r-1][slot]
	last    []automata.Field     // [r-1]: highest popb part of the rank's current chain
	live    ctxLiveness
}

func (y *Y) layoutCtx() {
	p, l := y.P, &y.layout
	if !p.HasCtx() {
		return
	}
	cf := &ctxFields{slot: make([]int, len(p.Queues))}
	nc := 0
	for q := range p.Queues {
		cf.slot[q] = -1
		if p.IsCtx(q) {
			cf.slot[q] = nc
			nc++
		}
	}
	for r := 0; r < y.N; r++ {
		var lb, cur [][]automata.Field
		for c := 0; c < nc; c++ {
			lb = append(lb, l.Fields(y.N, 2))
			cur = append(cur, l.Fields(y.N, 2))
		}
		cf.lb, cf.cur = append(cf.lb, lb), append(cf.cur, cur)
		cf.delayed = append(cf.delayed, l.Fields(nc, 1))
		cf.last = append(cf.last, l.Field(2))
	}
	cf.live = computeCtxLiveness(p, cf.slot, nc)
	y.ctx = cf
}

// ctxOp is an OpenSHMEM command with its expressions evaluated.
type ctxOp struct {
	k, a  int // target cell (rank k, address a); 0, 0 for fence and quiet
	q     int // the context's queue id
	slot  int // its index among the contexts
	r, ti int // issuing rank and transition
	to    int // control state after the command
}

// ctxOperands evaluates the target and the context of an OpenSHMEM command.
func (y *Y) ctxOperands(r, ti int, t *pgas.Trans, env pgas.Env) (ctxOp, error) {
	p, c := y.P, &t.Cmd
	o := ctxOp{r: r, ti: ti, to: t.To}
	q, err := p.QueueOf(c.Queue, env)
	if err != nil {
		return o, err
	}
	if y.ctx.slot[q] < 0 {
		return o, fmt.Errorf("%v: %s on queue %s, which is not a context", c.Queue.Pos, c.Op, p.Queues[q])
	}
	o.q, o.slot = int(q), y.ctx.slot[q]
	if c.Op == pgas.OpFence || c.Op == pgas.OpQuiet {
		return o, nil
	}
	k, err := p.RankOf(c.Rank, env)
	if err != nil {
		return o, err
	}
	a, err := p.Address(c.Remote, env)
	o.k, o.a = int(k), int(a)
	return o, err
}

// ctxCommand is Y's rule for the OpenSHMEM commands.
func (y *Y) ctxCommand(s automata.State, r, ti int, t *pgas.Trans, env pgas.Env) ([]Move, error) {
	c := &t.Cmd
	o, err := y.ctxOperands(r, ti, t, env)
	if err != nil {
		return nil, err
	}
	switch c.Op {
	case pgas.OpSend:
		return y.send(s, o, c, env)
	case pgas.OpRecv:
		return y.recv(s, o, c, env)
	case pgas.OpAtomic:
		return y.atomic(s, o, c, env)
	}
	tg := y.target(s)
	y.st[r-1].Set(tg, uint64(t.To))
	ev := pgas.Event{Kind: pgas.KFence, Rank: r, Trans: ti, Queue: -1}
	if c.Op == pgas.OpQuiet {
		if y.ctx.delayed[r-1][o.slot].Get(s) != 0 {
			return nil, nil
		}
		ev.Kind = pgas.KQuiet
	} else {
		for k := 0; k < y.N; k++ {
			lb, cur := y.ctx.lb[r-1][o.slot][k], y.ctx.cur[r-1][o.slot][k]
			lb.Set(tg, max(lb.Get(s), cur.Get(s)))
			cur.Set(tg, 0)
		}
	}
	return []Move{{Rank: r, Trans: ti, Target: tg, Events: []HEvent{{Head: 1, Event: ev}}}}, nil
}

// wrapped reports an atomic add whose result v leaves the domain, as a
// run-time error, in the sequentially consistent Y only: that is the Y of
// the run-time error check, and a wrap reachable in a robust program is
// reachable under SC (docs/shmem-calculus.md, "Atomic adds that wrap").
// The relaxed Y keeps the total semantics (the add executes modulo
// values), so that its language stays X's; a witness that rests on a wrap
// is refused when it is certified (package cycles).
func (y *Y) wrapped(o ctxOp, v int64) error {
	if !y.SC || v >= y.P.Lo && v <= y.P.Hi() {
		return nil
	}
	return &pgas.RangeError{Pos: y.P.Trans[o.ti].Pos, What: "atomic", Val: v, Min: y.P.Lo, Max: y.P.Hi()}
}

func (y *Y) maxPart() int {
	if y.SC {
		return 0
	}
	return Heads - 1
}

// item is the successor of s after issuing an item whose popb takes part
// n, with the popb's write applied when it lands in τ1.
func (y *Y) item(s automata.State, o ctxOp, n int, dst pgas.Cell, v uint64) automata.State {
	tg := y.target(s)
	y.st[o.r-1].Set(tg, uint64(o.to))
	if n > 0 {
		y.ctx.delayed[o.r-1][o.slot].Set(tg, 1)
	} else {
		y.mem[dst.Rank-1][dst.Addr].Set(tg, v)
	}
	return tg
}

// itemEvents are the issue event of an item and its pops (no popa when
// m < 0).
func itemEvents(o ctxOp, kind pgas.Kind, m, n int, src, dst pgas.Cell) []HEvent {
	evs := []HEvent{{Head: 1, Event: pgas.Event{Kind: kind, Rank: o.r, Trans: o.ti, Queue: o.q}}}
	if m >= 0 {
		evs = append(evs, HEvent{Head: m + 1, Event: pgas.Event{Kind: pgas.KPopa, Rank: o.r, HasCell: true, Cell: src, Trans: o.ti, Queue: o.q}})
	}
	return append(evs, HEvent{Head: n + 1, Event: pgas.Event{Kind: pgas.KPopb, Rank: o.r, HasCell: true, Cell: dst, Trans: o.ti, Queue: o.q}})
}

// send is a put, a non-fetching atomic or a signal: its popa (none for an
// immediate value) in part m, its popb in part n.
func (y *Y) send(s automata.State, o ctxOp, c *pgas.Cmd, env pgas.Env) ([]Move, error) {
	p, r := y.P, o.r
	var v uint64
	src := pgas.Cell{Rank: r, Addr: -1}
	if c.Local != nil {
		l, err := p.Address(c.Local, env)
		if err != nil {
			return nil, err
		}
		src.Addr, v = int(l), y.mem[r-1][l].Get(s)
	} else {
		x, err := p.Value(c.Val, env)
		if err != nil {
			return nil, err
		}
		v = y.enc(x)
	}
	switch c.Amo {
	case pgas.AmoNone:
	case pgas.AmoAdd:
		// Only used when the popb lands in τ1, at the issue, where the
		// target holds what it holds now.
		sum := y.dec(v) + y.dec(y.mem[o.k-1][o.a].Get(s))
		if err := y.wrapped(o, sum); err != nil {
			return nil, err
		}
		v = y.enc(p.WrapValue(sum))
	case pgas.AmoAnd, pgas.AmoOr, pgas.AmoXor:
		// as AmoAdd: only when the popb lands in τ1
		r := bitwiseY(c.Amo, y.dec(y.mem[o.k-1][o.a].Get(s)), y.dec(v))
		if err := y.wrapped(o, r); err != nil {
			return nil, err
		}
		v = y.enc(p.WrapValue(r))
	default:
		return nil, fmt.Errorf("internal error: send with atomic %v", c.Amo)
	}
	maxN, maxM := y.maxPart(), y.maxPart()
	if c.Blocking || src.Addr < 0 || y.settledSource(s, r, o.to, r, src.Addr) {
		maxM = 0
	}
	minN := int(y.ctx.lb[r-1][o.slot][o.k-1].Get(s))
	if c.After {
		minN = max(minN, int(y.ctx.last[r-1].Get(s)))
	}
	dst := pgas.Cell{Rank: o.k, Addr: o.a}
	var moves []Move
	for m := 0; m <= maxM; m++ {
		for n := max(m, minN); n <= maxN; n++ {
			tg := y.item(s, o, n, dst, v)
			cur := y.ctx.cur[r-1][o.slot][o.k-1]
			cur.Set(tg, max(cur.Get(s), uint64(n)))
			last := uint64(n)
			if c.Chain && !c.After {
				last = max(last, y.ctx.last[r-1].Get(s))
			}
			y.ctx.last[r-1].Set(tg, last)
			mm := m
			if src.Addr < 0 {
				mm = -1
			}
			moves = append(moves, Move{Rank: r, Trans: o.ti, Target: tg, Events: itemEvents(o, pgas.KWrite, mm, n, src, dst)})
		}
	}
	return moves, nil
}

// recv is a non-blocking get: popa reads the remote cell in part m, popb
// writes the local one in part n ≥ m. Fences do not order it.
func (y *Y) recv(s automata.State, o ctxOp, c *pgas.Cmd, env pgas.Env) ([]Move, error) {
	r := o.r
	l, err := y.P.Address(c.Local, env)
	if err != nil {
		return nil, err
	}
	src, dst := pgas.Cell{Rank: o.k, Addr: o.a}, pgas.Cell{Rank: r, Addr: int(l)}
	v := y.mem[o.k-1][o.a].Get(s)
	maxM := y.maxPart()
	if y.settledSource(s, r, o.to, o.k, o.a) {
		maxM = 0
	}
	var moves []Move
	for m := 0; m <= maxM; m++ {
		for n := m; n <= y.maxPart(); n++ {
			moves = append(moves, Move{Rank: r, Trans: o.ti, Target: y.item(s, o, n, dst, v),
				Events: itemEvents(o, pgas.KRead, m, n, src, dst)})
		}
	}
	return moves, nil
}

// atomic is a fetching atomic: one event in τ1 that reads the target,
// writes the result and returns the old value, once every send of an
// earlier fence epoch to the target rank is delivered.
func (y *Y) atomic(s automata.State, o ctxOp, c *pgas.Cmd, env pgas.Env) ([]Move, error) {
	p, r := y.P, o.r
	if y.ctx.lb[r-1][o.slot][o.k-1].Get(s) != 0 {
		return nil, nil
	}
	old := y.mem[o.k-1][o.a].Get(s)
	val := func(e *pgas.Expr) (uint64, error) {
		x, err := p.Value(e, env)
		return y.enc(x), err
	}
	nv, writes := old, true
	sum := y.dec(old) // the add's result before it is taken modulo values
	var err error
	switch c.Amo {
	case pgas.AmoFetch:
		writes = false
	case pgas.AmoAdd:
		var x uint64
		x, err = val(c.Val)
		sum += y.dec(x)
		nv = y.enc(p.WrapValue(sum))
	case pgas.AmoAnd, pgas.AmoOr, pgas.AmoXor:
		var x uint64
		x, err = val(c.Val)
		sum = bitwiseY(c.Amo, y.dec(old), y.dec(x))
		nv = y.enc(p.WrapValue(sum))
	case pgas.AmoSwap:
		nv, err = val(c.Val)
	case pgas.AmoCSwap:
		var cmp uint64
		if cmp, err = val(c.Val2); err == nil {
			nv, err = val(c.Val)
			writes = old == cmp
		}
	default:
		err = fmt.Errorf("internal error: atomic %v", c.Amo)
	}
	if err != nil {
		return nil, err
	}
	if c.Guard != nil {
		saved := env.Regs[c.Reg]
		env.Regs[c.Reg] = y.dec(old)
		ok, err := p.Holds(c.Guard, env)
		env.Regs[c.Reg] = saved
		if err != nil || !ok {
			return nil, err
		}
	}
	if err := y.wrapped(o, sum); err != nil {
		return nil, err
	}
	tg := y.target(s)
	y.st[r-1].Set(tg, uint64(o.to))
	y.reg[r-1][c.Reg].Set(tg, old)
	kind := pgas.KAFetch
	if writes {
		kind = pgas.KAmo
		y.mem[o.k-1][o.a].Set(tg, nv)
	}
	ev := pgas.Event{Kind: kind, Rank: r, HasCell: true, Cell: pgas.Cell{Rank: o.k, Addr: o.a}, Trans: o.ti, Queue: -1}
	return []Move{{Rank: r, Trans: o.ti, Target: tg, Events: []HEvent{{Head: 1, Event: ev}}}}, nil
}

// bitwiseY is the result of a bitwise atomic (before it is taken modulo
// values, for the wrap check), computed here and not shared with X.
func bitwiseY(op pgas.AmoOp, old, v int64) int64 {
	switch op {
	case pgas.AmoAnd:
		return old & v
	case pgas.AmoOr:
		return old | v
	}
	return old ^ v
}
