package translate

import (
	"fmt"
	"sort"
	"strconv"

	"pgasrob/pgas"
)

// node is a translated expression: a constant, or Trencher prefix text.
type node struct {
	c     int64
	konst bool
	s     string
}

func konst(c int64) node { return node{c: c, konst: true} }

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
			st = append(st, node{s: t.p.Regs[in.Arg]})
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
					return node{}, err
				}
				x = konst(v)
			case in.Op == pgas.XNeg:
				x = node{s: "- 0 " + x.s}
			default:
				x = node{s: "! " + x.s}
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
		op, ok := prefixOps[in.Op]
		if !ok {
			return node{}, fmt.Errorf("%v: cannot translate %q: the framework has no division or remainder of a register", e.Pos, e.Src)
		}
		st[len(st)-1] = node{s: op + " " + x.String() + " " + y.String()}
	}
	if len(st) != 1 {
		return node{}, fmt.Errorf("%v: internal error: malformed expression", e.Pos)
	}
	return st[0], nil
}

// blockedErr marks an expression that can never be evaluated (a constant
// division by zero); pgas.CheckN rejects those before translation.
type blockedErr struct{}

func (*blockedErr) Error() string { return "division by zero" }

func sortInts(xs []int) { sort.Ints(xs) }
