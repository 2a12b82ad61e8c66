package gen

import "fmt"

// Programs with a wide window of values (Config.Wide): negative values
// and sentinels near the ends of C's int, which the calculus holds
// without enumerating them (docs/language.md, "values").

func (g *generator) wideWindow() {
	w := g.c.Window
	if w[1] <= 0 {
		w = Windows[g.r.IntN(len(Windows))]
	}
	g.p.Values, g.p.Lo, g.p.Hi = 0, w[0], w[1]
}

// sentinel is a constant of the window: one of its ends, or a value
// programs use as a marker.
func (g *generator) sentinel() *Expr {
	var in []int64
	for _, v := range []int64{g.p.Lo, -1, 0, 1, 2, 1337, g.p.Hi - 1, g.p.Hi} {
		if v >= g.p.Lo && v <= g.p.Hi {
			in = append(in, v)
		}
	}
	return numv(in[g.r.IntN(len(in))])
}

// wideExpr is a value computed from registers and ranks: it may leave
// the window (a run-time error both procedures must find alike).
func (g *generator) wideExpr() *Expr {
	r := leaf(g.pick(g.p.Regs))
	switch g.r.IntN(6) {
	case 0, 1:
		return g.sentinel()
	case 2:
		return r
	case 3:
		return bin("+", r, num(1))
	case 4:
		return bin("-", r, leaf("rank"))
	}
	return &Expr{Op: "-", L: r} // -r
}

// numv renders a constant, negative ones in parentheses.
func numv(v int64) *Expr {
	if v < 0 {
		return leaf(fmt.Sprintf("(%d)", v))
	}
	return leaf(fmt.Sprint(v))
}
