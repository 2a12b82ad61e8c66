package repair

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// The OpenSHMEM remedies (docs/shmem-calculus.md): a fence or a quiet on
// the operation's context before a later statement, a non-blocking
// operation made blocking, a put of a value made a fetching atomic swap.

// nbiForms maps each non-blocking keyword to its blocking form.
var nbiForms = map[string]string{
	"putmem_nbi":         "putmem",
	"getmem_nbi":         "getmem",
	"put_signal_nbi":     "put_signal",
	"put_signal_add_nbi": "put_signal_add",
}

// swappable are the keywords of a put of a value, which a fetching
// atomic swap with the same arguments can replace: a put of a value
// (shmem_p) and an atomic set, both delivered some time later.
var swappable = map[string]bool{"putval": true, "amo_set": true}

// shmemOps adds to a.ops the sends and recvs of OpenSHMEM contexts. Those
// on a hidden context (a blocking get's "$get") already wait for
// themselves and are left out. The keyword is the statement's first word
// as written; apply checks it against the source before replacing it.
func (a *analysis) shmemOps() {
	seen := map[pgas.Pos]bool{}
	for _, tr := range a.p.Trans {
		if tr.Cmd.Op != pgas.OpSend && tr.Cmd.Op != pgas.OpRecv {
			continue
		}
		pos := tr.Pos
		pos.File = ""
		ctx, ok := a.ctxName(tr.Cmd.Queue)
		if !ok || seen[pos] {
			continue // put_signal's two sends are one statement
		}
		i, ok := a.byPos[pos]
		if !ok {
			continue
		}
		seen[pos] = true
		s := a.stmts[i]
		a.ops = append(a.ops, op{pos: pos, kw: firstWord(tr.Text), text: tr.Text, entry: s.entry, exits: s.exits,
			shmem: true, ctx: ctx, send: tr.Cmd.Op == pgas.OpSend})
	}
}

// ctxName names the context of an OpenSHMEM operation: "" when it is not
// a constant (a fence or quiet cannot name it then), ok = false when it is
// a hidden context of the compiler.
func (a *analysis) ctxName(q *pgas.Expr) (string, bool) {
	if q == nil {
		return "", true
	}
	v, isConst := q.Const()
	if !isConst || !a.p.IsCtx(int(v)) || int(v) >= len(a.p.Queues) {
		return "", true
	}
	name := a.p.Queues[v]
	return name, !strings.HasPrefix(name, "$")
}

func firstWord(s string) string {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return s[:i]
		}
	}
	return s
}

// fixes lists the insertions that change the operation o itself.
func (o op) fixes() []Candidate {
	switch {
	case !o.shmem && o.handle == "":
		return []Candidate{{Kind: Sync, Op: o.pos}}
	case !o.shmem:
		return nil
	}
	var out []Candidate
	if _, ok := nbiForms[o.kw]; ok {
		out = append(out, Candidate{Kind: Blocking, Op: o.pos})
	}
	if swappable[o.kw] {
		out = append(out, Candidate{Kind: Atomic, Op: o.pos})
	}
	return out
}

// cutsBefore lists the insertions before the statement at that wait for
// o, or order it before what follows.
func (o op) cutsBefore(at pgas.Pos) []Candidate {
	if !o.shmem {
		out := []Candidate{{Kind: Wait, Op: o.pos, At: at}}
		if o.queue != "" {
			out = append(out, Candidate{Kind: WaitQ, Queue: o.queue, At: at})
		}
		return out
	}
	if o.ctx == "" {
		return nil
	}
	var out []Candidate
	if o.send { // fences do not order gets
		out = append(out, Candidate{Kind: Fence, Queue: o.ctx, At: at})
	}
	return append(out, Candidate{Kind: Quiet, Queue: o.ctx, At: at})
}

// liveRegs computes, for each control state, the registers whose value
// may be read before it is written on some path from it (backward
// liveness over the transitions).
func (a *analysis) liveRegs() [][]bool {
	live := make([][]bool, len(a.p.Labels))
	for q := range live {
		live[q] = make([]bool, len(a.p.Regs))
	}
	for changed := true; changed; {
		changed = false
		for _, tr := range a.p.Trans {
			in := readRegs(tr.Cmd, len(a.p.Regs))
			for r, l := range live[tr.To] {
				if l && !writesReg(tr.Cmd, r) {
					in[r] = true
				}
			}
			for r, l := range in {
				if l && !live[tr.From][r] {
					live[tr.From][r], changed = true, true
				}
			}
		}
	}
	return live
}

func writesReg(c pgas.Cmd, r int) bool {
	return (c.Op == pgas.OpLoad || c.Op == pgas.OpAssign || c.Op == pgas.OpAtomic) && c.Reg == r
}

// readRegs marks the registers c reads. A guard is evaluated with the
// destination already holding the new value, so it reads the others only.
func readRegs(c pgas.Cmd, n int) []bool {
	out := make([]bool, n)
	mark := func(e *pgas.Expr, except int) {
		if e == nil {
			return
		}
		for _, in := range e.Code {
			if in.Op == pgas.XReg && in.Arg >= 0 && int(in.Arg) < n && int(in.Arg) != except {
				out[in.Arg] = true
			}
		}
	}
	for _, e := range []*pgas.Expr{c.Addr, c.Val, c.Val2, c.Local, c.Rank, c.Remote, c.Queue} {
		mark(e, -1)
	}
	mark(c.Guard, c.Reg)
	return out
}

// swapRegs chooses the register each Atomic of set writes: the first
// declared register dead after the put (its old value is never read
// again), else a new register, declared once (fresh, "" if none needed).
func (a *analysis) swapRegs(set []Candidate) (regs map[pgas.Pos]string, fresh string) {
	regs = map[pgas.Pos]string{}
	var live [][]bool
	for _, c := range set {
		if c.Kind != Atomic {
			continue
		}
		if live == nil {
			live = a.liveRegs()
		}
		o, _ := a.opAt(c.Op)
		for r, name := range a.p.Regs {
			dead := !strings.HasPrefix(name, "$")
			for _, e := range o.exits {
				dead = dead && !live[e][r]
			}
			if dead {
				regs[o.pos] = name
				break
			}
		}
		if regs[o.pos] == "" {
			if fresh == "" {
				fresh = a.freshName("t")
			}
			regs[o.pos] = fresh
		}
	}
	return regs, fresh
}

// freshName is base, or base1, base2, ..., whichever no declaration uses.
func (a *analysis) freshName(base string) string {
	used := map[string]bool{}
	for _, n := range a.p.Addrs {
		used[strings.TrimPrefix(n, "$h.")] = true
	}
	for _, n := range append(append([]string{}, a.p.Regs...), a.p.Queues...) {
		used[n] = true
	}
	name := base
	for k := 1; used[name]; k++ {
		name = fmt.Sprintf("%s%d", base, k)
	}
	return name
}

// declareReg is the edit that declares register name: appended to the
// last "register" line, or on a line of its own after the last
// declaration. ok is false when the source has no declaration line.
func declareReg(src []byte, name string, orig pgas.Pos) (line int, e lineEdit, ok bool) {
	lastDecl, lastReg := 0, 0
	var regEnd int
	for i, raw := range strings.Split(string(src), "\n") {
		code, _, _ := strings.Cut(raw, "#")
		switch firstWord(strings.TrimLeft(code, " \t")) {
		case "program", "values", "address", "queue", "context":
			lastDecl = i + 1
		case "register":
			lastDecl, lastReg = i+1, i+1
			regEnd = len(strings.TrimRight(code, " \t\r")) + 1
		}
	}
	switch {
	case lastReg > 0:
		return lastReg, lineEdit{col: regEnd, kind: 1, text: ", " + name, orig: orig}, true
	case lastDecl > 0:
		return lastDecl, lineEdit{col: -1, kind: 3, text: "register " + name, orig: orig}, true
	}
	return 0, lineEdit{}, false
}
