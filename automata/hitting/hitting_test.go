package hitting

import (
	"math/rand/v2"
	"testing"
)

// TestMinHittingSet against brute force on random small instances, with
// equal costs and with random weights (zero included).
func TestMinHittingSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for iter := 0; iter < 400; iter++ {
		n := 1 + rng.IntN(7)
		w := make([]int64, n)
		for e := range w {
			w[e] = 1
			if iter%2 == 1 {
				w[e] = int64(rng.IntN(10))
			}
		}
		cost := func(e int) int64 { return w[e] }
		var cons [][]int
		for c := rng.IntN(6); c >= 0; c-- {
			var s []int
			for e := 0; e < n; e++ {
				if rng.IntN(3) == 0 {
					s = append(s, e)
				}
			}
			if len(s) == 0 {
				s = []int{rng.IntN(n)}
			}
			cons = append(cons, s)
		}
		got := MinCost(cons, cost)
		hits := func(set map[int]bool) bool {
			for _, c := range cons {
				ok := false
				for _, e := range c {
					ok = ok || set[e]
				}
				if !ok {
					return false
				}
			}
			return true
		}
		total := func(set map[int]bool) (sum int64) {
			for e := range set {
				sum += w[e]
			}
			return sum
		}
		gs := map[int]bool{}
		for _, e := range got {
			gs[e] = true
		}
		if !hits(gs) {
			t.Fatalf("%v: %v misses a constraint", cons, got)
		}
		best := int64(-1)
		for m := 0; m < 1<<n; m++ {
			s := map[int]bool{}
			for e := 0; e < n; e++ {
				if m&(1<<e) != 0 {
					s[e] = true
				}
			}
			if hits(s) && (best < 0 || total(s) < best) {
				best = total(s)
			}
		}
		if total(gs) != best {
			t.Fatalf("%v costs %v: %v costs %d, minimum %d", cons, w, got, total(gs), best)
		}
	}
}
