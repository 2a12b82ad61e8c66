package cycles

import (
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The yardsticks are consistent with the decision and with each other:
// the product states are the searched types' states; a (Y, μ) pair is a
// projection of a product state, so there are at most as many; reduced Y
// is a search of its own, never empty. On the robust ring at N = 4 the
// product walks Y once per searched type, so the sum exceeds both.
func TestYardsticks(t *testing.T) {
	p, err := pgas.Load("../examples/1to1-fixed.pgas")
	if err != nil {
		t.Fatal(err)
	}
	for n := 2; n <= 4; n++ {
		r, err := Decide(p, n, Options{Yardsticks: true})
		if err != nil {
			t.Fatal(err)
		}
		y := r.Yardsticks
		if y == nil {
			t.Fatalf("N = %d: no yardsticks", n)
		}
		var sum int64
		for _, tr := range r.Types {
			sum += tr.Stats.States
		}
		if y.ProductStates != sum || y.YMarks <= 0 || y.YMarks > y.ProductStates || y.ReducedY <= 0 {
			t.Fatalf("N = %d: %+v (types sum %d)", n, *y, sum)
		}
		if n == 4 && (y.ProductStates < 2*y.ReducedY || y.ProductStates < y.YMarks) {
			t.Fatalf("N = 4: %+v", *y)
		}
		t.Logf("N = %d: %+v, Σ/reduced Y %.1f, Σ/(Y, μ) %.1f", n, *y, float64(y.ProductStates)/float64(y.ReducedY), float64(y.ProductStates)/float64(y.YMarks))
	}
	if r, _ := Decide(p, 3, Options{}); r.Yardsticks != nil {
		t.Fatal("yardsticks without asking")
	}
}
