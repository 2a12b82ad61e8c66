package prog

// xop is an instruction of the postfix code expressions compile to; postfix
// keeps evaluation allocation-free inside the searches.
type xop uint8

const (
	xConst xop = iota
	xReg
	xNot
	xEq
	xNe
	xLt
	xLe
	xGt
	xGe
	xAnd
	xOr
	xAdd
	xSub
	xMul
	xBitAnd
)

var xopOf = map[string]xop{
	"!": xNot, "==": xEq, "!=": xNe, "<": xLt, "<=": xLe, ">": xGt, ">=": xGe,
	"&&": xAnd, "||": xOr, "+": xAdd, "-": xSub, "*": xMul, "&": xBitAnd,
}

type xinstr struct {
	op  xop
	arg int64
}

// Expr is a compiled expression over the registers of one thread.
type Expr struct {
	code  []xinstr
	depth int // stack depth needed
	Src   string
	Pos   Pos
}

func (e *Expr) String() string { return e.Src }

// Const returns the value of a register-free expression.
func (e *Expr) Const() (int64, bool) {
	for _, in := range e.code {
		if in.op == xReg {
			return 0, false
		}
	}
	return e.Eval(nil), true
}

// UsesReg reports whether the expression reads register r.
func (e *Expr) UsesReg(r int) bool {
	for _, in := range e.code {
		if in.op == xReg && int(in.arg) == r {
			return true
		}
	}
	return false
}

func compileExpr(n *Node, reg func(string) int) *Expr {
	e := &Expr{Src: n.String(), Pos: n.Pos}
	d := 0
	var walk func(n *Node)
	walk = func(n *Node) {
		switch {
		case n.Op == "" && n.Reg != "":
			e.code = append(e.code, xinstr{op: xReg, arg: int64(reg(n.Reg))})
			d++
		case n.Op == "":
			e.code = append(e.code, xinstr{op: xConst, arg: n.Num})
			d++
		default:
			for _, a := range n.Args {
				walk(a)
			}
			e.code = append(e.code, xinstr{op: xopOf[n.Op]})
			d -= len(n.Args) - 1
		}
		if d > e.depth {
			e.depth = d
		}
	}
	walk(n)
	return e
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Eval computes the expression with 64-bit arithmetic; the engines check
// afterwards that results fit their value domain. Registers missing from
// regs read as zero.
func (e *Expr) Eval(regs []int64) int64 {
	var buf [16]int64
	stack := buf[:0]
	if e.depth > len(buf) {
		stack = make([]int64, 0, e.depth)
	}
	for _, in := range e.code {
		switch in.op {
		case xConst:
			stack = append(stack, in.arg)
			continue
		case xReg:
			v := int64(0)
			if int(in.arg) < len(regs) {
				v = regs[in.arg]
			}
			stack = append(stack, v)
			continue
		case xNot:
			x := &stack[len(stack)-1]
			*x = b2i(*x == 0)
			continue
		}
		x, y := stack[len(stack)-2], stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var r int64
		switch in.op {
		case xEq:
			r = b2i(x == y)
		case xNe:
			r = b2i(x != y)
		case xLt:
			r = b2i(x < y)
		case xLe:
			r = b2i(x <= y)
		case xGt:
			r = b2i(x > y)
		case xGe:
			r = b2i(x >= y)
		case xAnd:
			r = b2i(x != 0 && y != 0)
		case xOr:
			r = b2i(x != 0 || y != 0)
		case xAdd:
			r = x + y
		case xSub:
			r = x - y
		case xMul:
			r = x * y
		case xBitAnd:
			r = x & y
		}
		stack[len(stack)-1] = r
	}
	return stack[0]
}
