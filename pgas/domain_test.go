package pgas

import (
	"strings"
	"testing"
)

// A value field keeps every value of the window: packed as uint64(v)
// masked to ValueBits bits (what automata.Field.Set does) and read back
// with DecodeValue. A window from 0 packs as before windows existed.
func TestValuePacking(t *testing.T) {
	for _, w := range [][2]int64{{0, 1}, {0, 255}, {0, 256}, {-1, 1}, {-1, 1337}, {-3, 2},
		{-2147483648, 2147483647}, {0, 2147483647}, {MinValue, MaxValue}} {
		bits := ValueBits(w[0], w[1])
		if w[0] == 0 && bits != max(1, bitsLen(uint64(w[1]))) {
			t.Errorf("%v: %d bits, want those of 0..%d unsigned", w, bits, w[1])
		}
		mask := uint64(1)<<uint(bits) - 1
		for _, v := range []int64{w[0], w[0] + 1, -1, 0, 1, w[1] - 1, w[1]} {
			if v < w[0] || v > w[1] {
				continue
			}
			if got := DecodeValue(uint64(v)&mask, bits, w[0] < 0); got != v {
				t.Errorf("%v in %d bits: %d reads back as %d", w, bits, v, got)
			}
		}
	}
}

func bitsLen(u uint64) int {
	n := 0
	for ; u != 0; u >>= 1 {
		n++
	}
	return n
}

// An add that leaves the window wraps into it, modulo its size.
func TestWrapValue(t *testing.T) {
	p := &Program{Lo: -3, Values: 6} // -3..2
	for _, c := range [][2]int64{{3, -3}, {4, -2}, {-4, 2}, {-9, -3}, {2, 2}, {8, 2}} {
		if got := p.WrapValue(c[0]); got != c[1] {
			t.Errorf("wrap %d into -3..2: %d, want %d", c[0], got, c[1])
		}
	}
}

// WidenFor widens an inferred window towards the value that left it, up
// to the types' range, and checks the arithmetic of the wider window.
func TestWidenFor(t *testing.T) {
	src := "values 5\nregister r, s\nr <- r * s\n"
	p, err := Compile("w.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := p.WidenFor(&RangeError{What: "value", Val: 9}); q != nil {
		t.Fatalf("a declared domain was widened")
	}
	p.Widen = &Widening{Lo: -2147483648, Hi: 2147483647, Type: "int"}
	for _, c := range []struct {
		what   string
		val    int64
		lo, hi int64 // 0, 0: no widening
	}{
		{"value", 9, 0, 15},
		{"atomic", 5, 0, 15},
		{"value", 100, 0, 127},
		{"value", -1, -1, 4},
		{"value", -6, -8, 4},
		{"value", 3, 0, 0},          // inside: nothing to widen
		{"address", 9, 0, 0},        // not a value
		{"value", 2147483648, 0, 0}, // beyond int: the program's overflow
		{"value", 2000000000, 0, 2147483647},
	} {
		q, err := p.WidenFor(&RangeError{What: c.what, Val: c.val})
		switch {
		case err != nil:
			t.Errorf("%s %d: %v", c.what, c.val, err)
		case c.hi == 0 && q != nil:
			t.Errorf("%s %d: widened to %d..%d", c.what, c.val, q.Lo, q.Hi())
		case c.hi != 0 && (q == nil || q.Lo != c.lo || q.Hi() != c.hi):
			t.Errorf("%s %d: got %v, want %d..%d", c.what, c.val, q, c.lo, c.hi)
		}
	}
	// r * s with registers up to 2^32 could reach 2^64: refused.
	p.Widen.Hi = MaxValue
	if _, err := p.WidenFor(&RangeError{What: "value", Val: 3000000000}); err == nil || !strings.Contains(err.Error(), "may exceed 64-bit arithmetic") {
		t.Errorf("a window too wide for r * s: %v", err)
	}
}
