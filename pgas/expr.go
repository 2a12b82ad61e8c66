package pgas

import (
	"fmt"
	"strconv"
)

// ExprOp is an instruction of the small stack machine expressions compile
// to. Postfix code keeps evaluation allocation-free in the inner loop of the
// searches.
type ExprOp uint8

const (
	XConst ExprOp = iota // push Arg
	XReg                 // push register Arg
	XRank                // push the executing rank
	XN                   // push N
	XNeg                 // unary -
	XNot                 // logical not: 1 if zero, else 0
	XAdd
	XSub
	XMul
	XDiv // truncated division; division by zero is an error
	XMod // remainder with the sign of the dividend; by zero is an error
	XEq
	XNe
	XLt
	XLe
	XGt
	XGe
	XAnd // 1 if both non-zero
	XOr  // 1 if either non-zero
)

// Instr is one stack-machine instruction.
type Instr struct {
	Op  ExprOp
	Arg int64
}

// Expr is a compiled expression: postfix code plus the source text and
// position for messages. Intermediate results are exact 64-bit integers;
// range checks happen where a result is used (see Program.Value and
// friends). Constants that name addresses or queues have already been
// replaced by their numbers.
type Expr struct {
	Code []Instr
	Src  string
	Pos  Pos
}

func (e *Expr) String() string {
	if e == nil {
		return "<nil>"
	}
	if e.Src != "" {
		return e.Src
	}
	return fmt.Sprint(e.Code)
}

// Const returns the value of an expression without registers or rank, and
// whether it is one.
func (e *Expr) Const() (int64, bool) {
	for _, in := range e.Code {
		if in.Op == XReg || in.Op == XRank || in.Op == XN {
			return 0, false
		}
	}
	v, err := e.Eval(Env{})
	return v, err == nil
}

// Eval runs the expression. The only errors are division or remainder by
// zero (a *RangeError) and malformed code (a compiler bug).
func (e *Expr) Eval(env Env) (int64, error) {
	var buf [16]int64
	stack := buf[:0]
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	for _, in := range e.Code {
		switch in.Op {
		case XConst:
			stack = append(stack, in.Arg)
			continue
		case XReg:
			if in.Arg < 0 || int(in.Arg) >= len(env.Regs) {
				return 0, fmt.Errorf("%v: internal error: register %d of %d", e.Pos, in.Arg, len(env.Regs))
			}
			stack = append(stack, env.Regs[in.Arg])
			continue
		case XRank:
			stack = append(stack, env.Rank)
			continue
		case XN:
			stack = append(stack, env.N)
			continue
		}
		if in.Op == XNeg || in.Op == XNot {
			if len(stack) < 1 {
				return 0, fmt.Errorf("%v: internal error: malformed expression", e.Pos)
			}
			x := &stack[len(stack)-1]
			if in.Op == XNeg {
				*x = -*x
			} else {
				*x = b2i(*x == 0)
			}
			continue
		}
		if len(stack) < 2 {
			return 0, fmt.Errorf("%v: internal error: malformed expression", e.Pos)
		}
		x, y := stack[len(stack)-2], stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var r int64
		switch in.Op {
		case XAdd:
			r = x + y
		case XSub:
			r = x - y
		case XMul:
			r = x * y
		case XDiv, XMod:
			if y == 0 {
				return 0, &RangeError{Pos: e.Pos, What: "division"}
			}
			if in.Op == XDiv {
				r = x / y
			} else {
				r = x % y
			}
		case XEq:
			r = b2i(x == y)
		case XNe:
			r = b2i(x != y)
		case XLt:
			r = b2i(x < y)
		case XLe:
			r = b2i(x <= y)
		case XGt:
			r = b2i(x > y)
		case XGe:
			r = b2i(x >= y)
		case XAnd:
			r = b2i(x != 0 && y != 0)
		case XOr:
			r = b2i(x != 0 || y != 0)
		default:
			return 0, fmt.Errorf("%v: internal error: unknown expression op %d", e.Pos, in.Op)
		}
		stack[len(stack)-1] = r
	}
	if len(stack) != 1 {
		return 0, fmt.Errorf("%v: internal error: malformed expression", e.Pos)
	}
	return stack[0], nil
}

// Regs reports which registers the expression reads.
func (e *Expr) Regs() []int {
	var rs []int
	for _, in := range e.Code {
		if in.Op == XReg {
			rs = append(rs, int(in.Arg))
		}
	}
	return rs
}

func (in Instr) String() string {
	names := [...]string{"const", "reg", "rank", "N", "neg", "not", "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}
	s := "?"
	if int(in.Op) < len(names) {
		s = names[in.Op]
	}
	if in.Op == XConst || in.Op == XReg {
		s += " " + strconv.FormatInt(in.Arg, 10)
	}
	return s
}
