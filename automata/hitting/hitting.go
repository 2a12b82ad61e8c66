package hitting

import "sort"

// MinCost returns a set of elements of least total cost that meets
// every constraint, sorted; constraints must be non-empty. Branch and
// bound: branch on the elements of the shortest constraint not yet met,
// cheapest first, and cut a branch once its cost reaches the best found.
// Exact, and fast enough for the handfuls of elements that fence
// insertion (tso) and repair (cycles/repair) collect; the result is the
// same on every run.
func MinCost(cons [][]int, cost func(int) int64) []int {
	in := map[int]bool{}
	var chosen, best []int
	bestCost := int64(-1)
	var try func(sum int64)
	try = func(sum int64) {
		if bestCost >= 0 && sum >= bestCost {
			return
		}
		var open []int
		for _, c := range cons {
			hit := false
			for _, e := range c {
				if in[e] {
					hit = true
					break
				}
			}
			if !hit && (open == nil || len(c) < len(open)) {
				open = c
			}
		}
		if open == nil {
			bestCost, best = sum, append(best[:0], chosen...)
			return
		}
		order := append([]int(nil), open...)
		sort.SliceStable(order, func(a, b int) bool { return cost(order[a]) < cost(order[b]) })
		for _, e := range order {
			in[e] = true
			chosen = append(chosen, e)
			try(sum + cost(e))
			chosen = chosen[:len(chosen)-1]
			delete(in, e)
		}
	}
	try(0)
	out := append([]int(nil), best...)
	sort.Ints(out)
	return out
}
