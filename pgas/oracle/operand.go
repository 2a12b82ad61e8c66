package oracle

import (
	"math/big"

	"github.com/pgasrob/pgasrob/pgas"
)

// bigRange bounds the values of postfix code (an add's operand) with
// registers in dlo..dhi and rank and N in 1..pgas.MaxRanks, in exact
// integers. It reads the code backwards from its last instruction, by
// recursion over the operands, where the procedure's version
// (pgas.Program.OperandRange) runs a stack forwards in int64; the rules
// are entry 14's: division and remainder keep at most the dividend's
// magnitude, the remainder its sign, the quotient too when the divisor is
// never negative; comparisons and logic give 0..1. ok is false for code
// that does not form one expression.
func bigRange(code []pgas.Instr, dlo, dhi *big.Int) (lo, hi *big.Int, ok bool) {
	lo, hi, start := spanAt(code, len(code)-1, dlo, dhi)
	if start != 0 || lo == nil {
		return nil, nil, false
	}
	return lo, hi, true
}

// spanAt bounds the subexpression ending at code[i] and returns where it
// starts; lo is nil when the code is malformed.
func spanAt(code []pgas.Instr, i int, dlo, dhi *big.Int) (lo, hi *big.Int, start int) {
	if i < 0 {
		return nil, nil, 0
	}
	in := code[i]
	switch in.Op {
	case pgas.XConst:
		v := big.NewInt(in.Arg)
		return v, v, i
	case pgas.XReg:
		return dlo, dhi, i
	case pgas.XRank, pgas.XN:
		return big.NewInt(1), big.NewInt(pgas.MaxRanks), i
	}
	ylo, yhi, ys := spanAt(code, i-1, dlo, dhi)
	if ylo == nil {
		return nil, nil, 0
	}
	switch in.Op {
	case pgas.XNeg:
		return new(big.Int).Neg(yhi), new(big.Int).Neg(ylo), ys
	case pgas.XNot:
		return big.NewInt(0), big.NewInt(1), ys
	}
	xlo, xhi, xs := spanAt(code, ys-1, dlo, dhi)
	if xlo == nil {
		return nil, nil, 0
	}
	zero := big.NewInt(0)
	switch in.Op {
	case pgas.XAdd:
		return new(big.Int).Add(xlo, ylo), new(big.Int).Add(xhi, yhi), xs
	case pgas.XSub:
		return new(big.Int).Sub(xlo, yhi), new(big.Int).Sub(xhi, ylo), xs
	case pgas.XMul:
		c := []*big.Int{new(big.Int).Mul(xlo, ylo), new(big.Int).Mul(xlo, yhi), new(big.Int).Mul(xhi, ylo), new(big.Int).Mul(xhi, yhi)}
		lo, hi := c[0], c[0]
		for _, v := range c[1:] {
			lo, hi = minBig(lo, v), maxBig(hi, v)
		}
		return lo, hi, xs
	case pgas.XDiv, pgas.XMod:
		if in.Op == pgas.XDiv && ylo.Sign() < 0 {
			m := maxBig(new(big.Int).Abs(xlo), new(big.Int).Abs(xhi))
			return new(big.Int).Neg(m), m, xs
		}
		return minBig(xlo, zero), maxBig(xhi, zero), xs
	}
	return big.NewInt(0), big.NewInt(1), xs
}

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}
