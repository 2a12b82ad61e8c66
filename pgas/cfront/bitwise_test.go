package cfront

import (
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// evalPgas compiles the .pgas expression e over register r and evaluates
// it with r = x, through pgas's own compiler and evaluator.
func evalPgas(t *testing.T, e string, x int64) int64 {
	t.Helper()
	p, err := pgas.Compile("e.pgas", []byte("values 2\nregister r, s\ns <- ("+e+") + r - r\n"))
	if err != nil {
		t.Fatalf("%s: %v", e, err)
	}
	for _, tr := range p.Trans {
		if tr.Cmd.Val != nil {
			v, err := tr.Cmd.Val.Eval(pgas.Env{Regs: []int64{x, 0}, Rank: 1, N: 2})
			if err != nil {
				t.Fatalf("%s at r = %d: %v", e, x, err)
			}
			return v
		}
	}
	t.Fatalf("%s: no expression compiled", e)
	return 0
}

// The spelt-out bitwise operators agree with Go's (two's complement, as
// C on every target) for negative and positive values and masks.
func TestBitwiseExpansion(t *testing.T) {
	tr := newTranslator("t.c", nil, Options{})
	for _, k := range []int64{0, 1, 2, 3, 5, 6, 12, 255, -1, -2, -4, -7} {
		and, or, xor := tr.bitop(nil, "r", "&", k), tr.bitop(nil, "r", "|", k), tr.bitop(nil, "r", "^", k)
		for x := int64(-20); x <= 20; x++ {
			for _, c := range []struct {
				op        string
				got, want int64
			}{{"&", evalPgas(t, and, x), x & k}, {"|", evalPgas(t, or, x), x | k}, {"^", evalPgas(t, xor, x), x ^ k}} {
				if c.got != c.want {
					t.Errorf("%d %s %d: got %d, want %d", x, c.op, k, c.got, c.want)
				}
			}
		}
	}
	for _, k := range []int64{0, 1, 3} {
		shl, shr := tr.shift(nil, "r", "<<", k), tr.shift(nil, "r", ">>", k)
		for x := int64(-20); x <= 20; x++ {
			if got := evalPgas(t, shr, x); got != x>>k {
				t.Errorf("%d >> %d: got %d, want %d", x, k, got, x>>k)
			}
			if x >= 0 {
				if got := evalPgas(t, shl, x); got != x<<k {
					t.Errorf("%d << %d: got %d, want %d", x, k, got, x<<k)
				}
			}
		}
	}
}

// byteFill is memset's value of an element: every byte the low byte of c.
func TestByteFill(t *testing.T) {
	for _, c := range []struct {
		c, size int64
		signed  bool
		want    int64
	}{{0, 8, true, 0}, {1, 1, true, 1}, {1, 2, false, 0x0101}, {0xff, 1, true, -1}, {0xff, 1, false, 255},
		{-1, 4, true, -1}, {-1, 4, false, 0xffffffff}, {0x1ff, 2, false, 0xffff}} {
		if got := byteFill(c.c, c.size, c.signed); got != c.want {
			t.Errorf("byteFill(%#x, %d, %v) = %d, want %d", c.c, c.size, c.signed, got, c.want)
		}
	}
}
