package gen

// commutingCalls are the non-fetching atomics Config.Atomics favours, with
// their parameters as in shmemParams.
var commutingCalls = []struct{ call, params string }{
	{"amo_add", "ekm"}, {"amo_inc", "km"}, {"amo_add", "ekm"},
	{"amo_and", "ekm"}, {"amo_or", "ekm"}, {"amo_xor", "ekm"},
	{"put_signal_add", "lkmse"},
}

// commutingStmt is one of commutingCalls whose target (and signal) cell is
// the first address most of the time, on context ctx.
func (g *generator) commutingStmt(ctx *Expr) *Stmt {
	c := commutingCalls[g.r.IntN(len(commutingCalls))]
	hot := func() *Expr {
		if g.r.IntN(4) == 0 {
			return g.addr()
		}
		return leaf(g.p.Addrs[0])
	}
	var args []*Expr
	for _, l := range c.params {
		switch l {
		case 'k':
			args = append(args, g.rankExpr())
		case 'e':
			args = append(args, g.operand())
		case 'm', 's':
			args = append(args, hot())
		default:
			args = append(args, g.addr())
		}
	}
	return &Stmt{Kind: SShmem, Call: c.call, Args: append(args, ctx)}
}

// operand is the value of a commuting call: with a signed window (Wide)
// often a small constant of either sign, the counters' idiom, whose sign
// decides the add's commuting class (docs/deviations.md, entry 14).
func (g *generator) operand() *Expr {
	if g.c.Wide && g.p.Lo < 0 && g.r.IntN(2) == 0 {
		v := []int64{1, 1, 2, -1, -2}[g.r.IntN(5)]
		return numv(max(v, g.p.Lo)) // -1 when the window stops there
	}
	return g.valueExpr()
}
