package gen

import (
	"fmt"
	"strings"
)

// The OpenSHMEM statements of the generator (Config.Shmem).

// shmemString renders the statements of kinds SShmem..SQuiet.
func (s *Stmt) shmemString(b *strings.Builder) {
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = a.String()
	}
	when := ""
	if s.Guard != nil {
		when = " when " + s.Guard.String()
	}
	switch s.Kind {
	case SShmem:
		fmt.Fprintf(b, "%s(%s)", s.Call, strings.Join(args, ", "))
	case SFetch:
		fmt.Fprintf(b, "%s <- %s(%s)%s", s.Reg, s.Call, strings.Join(args, ", "), when)
	case SAwait:
		fmt.Fprintf(b, "%s <- mem[%s]%s", s.Reg, args[0], when)
	case SFence:
		b.WriteString("fence " + args[0])
	case SQuiet:
		b.WriteString("quiet " + args[0])
	}
}

// shmemParams gives the parameters of each call, one letter each as in
// docs/shmem-calculus.md: l local address, k rank, m remote address,
// s signal address, e value, p comparand; the context comes last.
var shmemParams = []struct{ call, params string }{
	{"putmem", "lkm"}, {"putmem_nbi", "lkm"}, {"putval", "ekm"},
	{"getmem", "lkm"}, {"getmem_nbi", "lkm"},
	{"amo_add", "ekm"}, {"amo_inc", "km"}, {"amo_set", "ekm"},
	{"put_signal", "lkmse"}, {"put_signal_add", "lkmse"},
	{"put_signal_nbi", "lkmse"}, {"put_signal_add_nbi", "lkmse"},
}

var fetchParams = []struct{ call, params string }{
	{"amo_fetch", "km"}, {"amo_fetch_add", "ekm"}, {"amo_fetch_inc", "km"},
	{"amo_swap", "ekm"}, {"amo_cswap", "pekm"},
}

// shmemStmt makes one OpenSHMEM statement whose operands stay in range.
func (g *generator) shmemStmt() *Stmt {
	ctx := leaf(g.pick(g.p.Contexts))
	args := func(params string) []*Expr {
		var out []*Expr
		for _, l := range params {
			switch l {
			case 'k':
				out = append(out, g.rankExpr())
			case 'e', 'p':
				out = append(out, g.valueExpr())
			default:
				out = append(out, g.addr())
			}
		}
		return append(out, ctx)
	}
	if g.c.Atomics && g.r.IntN(4) != 0 {
		return g.commutingStmt(ctx)
	}
	switch k := g.r.IntN(10); {
	case k < 5:
		c := shmemParams[g.r.IntN(len(shmemParams))]
		st := &Stmt{Kind: SShmem, Call: c.call, Args: args(c.params)}
		if g.c.SignalElems > 1 && strings.HasPrefix(c.call, "put_signal") {
			g.signalElems(st)
		}
		return st
	case k < 7:
		c := fetchParams[g.r.IntN(len(fetchParams))]
		s := &Stmt{Kind: SFetch, Reg: g.pick(g.p.Regs), Call: c.call, Args: args(c.params)}
		if g.r.IntN(3) == 0 {
			s.Guard = g.awaitCond(s.Reg)
		}
		return s
	case k < 8:
		r := g.pick(g.p.Regs)
		return &Stmt{Kind: SAwait, Reg: r, Args: []*Expr{g.addr()}, Guard: g.awaitCond(r)}
	case k < 9:
		return &Stmt{Kind: SFence, Args: []*Expr{ctx}}
	}
	return &Stmt{Kind: SQuiet, Args: []*Expr{ctx}}
}

// signalElems gives a put with signal n data elements, 1 ≤ n ≤
// SignalElems, with constant source and target addresses for which all n
// cells exist.
func (g *generator) signalElems(st *Stmt) {
	n := 1 + g.r.IntN(min(g.c.SignalElems, len(g.p.Addrs)))
	if n == 1 {
		return
	}
	st.Args[0] = leaf(g.p.Addrs[g.r.IntN(len(g.p.Addrs)-n+1)])
	st.Args[2] = leaf(g.p.Addrs[g.r.IntN(len(g.p.Addrs)-n+1)])
	st.Args = append(st.Args, num(n))
}

// awaitCond is a condition on the register an await loads into.
func (g *generator) awaitCond(r string) *Expr {
	ops := []string{"==", "!=", ">="}
	return bin(ops[g.r.IntN(len(ops))], leaf(r), g.value())
}
