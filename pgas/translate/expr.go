package translate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// node is a translated expression: a constant, or Trencher prefix text
// with the bounds [lo, hi] of its value (registers hold DOM, LO..HI).
type node struct {
	c      int64
	konst  bool
	s      string
	lo, hi int64
}

func konst(c int64) node { return node{c: c, konst: true, lo: c, hi: c} }

// maxExpand bounds the comparisons a division or remainder expands into.
const maxExpand = 1024

func (n node) String() string {
	if n.konst {
		return strconv.FormatInt(n.c, 10)
	}
	return n.s
}

var prefixOps = map[pgas.ExprOp]string{
	pgas.XAdd: "+", pgas.XSub: "-", pgas.XMul: "*", pgas.XEq: "==", pgas.XNe: "!=",
	pgas.XLt: "<", pgas.XLe: "<=", pgas.XGt: ">", pgas.XGe: ">=", pgas.XAnd: "&&", pgas.XOr: "||",
}

// expr turns e's postfix code into prefix text for rank r, folding every
// subexpression without registers (rank and N are constants in a thread).
// A register under / or % has no Trencher operator: that is the one
// expression the translation refuses.
func (t *translator) expr(e *pgas.Expr, r int) (node, error) {
	var st []node
	env := pgas.Env{Rank: int64(r), N: int64(t.n)}
	for _, in := range e.Code {
		switch in.Op {
		case pgas.XConst:
			st = append(st, konst(in.Arg))
			continue
		case pgas.XRank:
			st = append(st, konst(int64(r)))
			continue
		case pgas.XN:
			st = append(st, konst(int64(t.n)))
			continue
		case pgas.XReg:
			st = append(st, node{s: t.p.Regs[in.Arg], lo: t.p.Lo, hi: t.p.Hi()})
			continue
		}
		if in.Op == pgas.XNeg || in.Op == pgas.XNot {
			if len(st) < 1 {
				return node{}, fmt.Errorf("%v: internal error: malformed expression", e.Pos)
			}
			x := st[len(st)-1]
			switch {
			case x.konst:
				v, err := (&pgas.Expr{Code: []pgas.Instr{{Op: pgas.XConst, Arg: x.c}, in}}).Eval(env)
				if err != nil {
					return node{}, &blockedErr{}
				}
				x = konst(v)
			case in.Op == pgas.XNeg:
				x = node{s: "- 0 " + x.s, lo: -x.hi, hi: -x.lo}
			default:
				x = node{s: "! " + x.s, lo: 0, hi: 1}
			}
			st[len(st)-1] = x
			continue
		}
		if len(st) < 2 {
			return node{}, fmt.Errorf("%v: internal error: malformed expression", e.Pos)
		}
		x, y := st[len(st)-2], st[len(st)-1]
		st = st[:len(st)-1]
		if x.konst && y.konst {
			v, err := (&pgas.Expr{Code: []pgas.Instr{{Op: pgas.XConst, Arg: x.c}, {Op: pgas.XConst, Arg: y.c}, in}}).Eval(env)
			if err != nil {
				// Division by a constant zero: the command never executes.
				return node{}, &blockedErr{}
			}
			st[len(st)-1] = konst(v)
			continue
		}
		if in.Op == pgas.XDiv || in.Op == pgas.XMod {
			v, err := t.divide(in.Op, x, y)
			if err != nil {
				return node{}, fmt.Errorf("%v: cannot translate %q: %v", e.Pos, e.Src, err)
			}
			st[len(st)-1] = v
			continue
		}
		lo, hi := bounds(in.Op, x, y)
		st[len(st)-1] = node{s: prefixOps[in.Op] + " " + x.String() + " " + y.String(), lo: lo, hi: hi}
	}
	if len(st) != 1 {
		return node{}, fmt.Errorf("%v: internal error: malformed expression", e.Pos)
	}
	return st[0], nil
}

// bounds of x op y by interval arithmetic.
func bounds(op pgas.ExprOp, x, y node) (int64, int64) {
	switch op {
	case pgas.XAdd:
		return x.lo + y.lo, x.hi + y.hi
	case pgas.XSub:
		return x.lo - y.hi, x.hi - y.lo
	case pgas.XMul:
		ps := []int64{x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi}
		lo, hi := ps[0], ps[0]
		for _, p := range ps[1:] {
			lo, hi = min(lo, p), max(hi, p)
		}
		return lo, hi
	}
	return 0, 1 // comparisons and logic
}

// divide expresses x / y or x % y, which Trencher lacks, by comparisons:
// for x >= 0 and a divisor v > 0, x / v counts the multiples j·v <= x,
// and x % v = x - v·(x / v). A divisor that is not a constant is split
// into its values, (y == v)·(x op v) summed over v. A divisor that may be
// 0 makes the command a run-time error there: the caller's guard blocks
// it (nonzero). Dividends that may be negative are refused.
func (t *translator) divide(op pgas.ExprOp, x, y node) (node, error) {
	if x.lo < 0 {
		return node{}, fmt.Errorf("the dividend may be negative")
	}
	one := func(v int64) (string, int64, int64) {
		var b strings.Builder
		terms := 0
		for j := v; j <= x.hi; j += v {
			terms++
		}
		if terms > maxExpand {
			return "", 0, 0
		}
		if terms == 0 { // x < v: x / v = 0 and x % v = x
			if op == pgas.XDiv {
				return "0", 0, 0
			}
			return x.String(), x.lo, x.hi
		}
		quot := "0"
		for j := v; j <= x.hi; j += v {
			quot = fmt.Sprintf("+ %s >= %s %d", quot, x, j)
		}
		if op == pgas.XDiv {
			b.WriteString(quot)
			return b.String(), x.lo / v, x.hi / v
		}
		return fmt.Sprintf("- %s * %d %s", x, v, quot), 0, min(x.hi, v-1)
	}
	if y.konst {
		if y.c <= 0 {
			return node{}, fmt.Errorf("division by %d", y.c)
		}
		s, lo, hi := one(y.c)
		if s == "" {
			return node{}, fmt.Errorf("too large to expand")
		}
		return node{s: s, lo: lo, hi: hi}, nil
	}
	if y.lo < 0 || y.hi-y.lo > maxExpand {
		return node{}, fmt.Errorf("the divisor may be negative or takes too many values")
	}
	if y.lo == 0 {
		t.nonzero = append(t.nonzero, y.String())
	}
	sum := "0"
	var lo, hi int64
	for v := max(y.lo, 1); v <= y.hi; v++ {
		s, l, h := one(v)
		if s == "" {
			return node{}, fmt.Errorf("too large to expand")
		}
		sum = fmt.Sprintf("+ %s * == %s %d %s", sum, y, v, s)
		lo, hi = min(lo, l), max(hi, h)
	}
	return node{s: sum, lo: lo, hi: hi}, nil
}

// blockedErr marks an expression that can never be evaluated: a division
// by zero that is constant once rank and N are known (pgas.CheckN only
// rejects those without rank).
type blockedErr struct{}

func (*blockedErr) Error() string { return "division by zero" }

func sortInts(xs []int) { sort.Ints(xs) }
