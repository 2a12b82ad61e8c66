package cycles

import (
	"fmt"
	"strings"
)

// CycleType is a sequence of distinct ranks r1…rk (Section 5.3): the
// processes a cycle of shape (CYC) passes through, in order. Cycle types
// are equal up to rotation; the canonical form starts with the smallest
// rank.
type CycleType []int

func (c CycleType) String() string {
	parts := make([]string, len(c))
	for i, r := range c {
		parts[i] = fmt.Sprint(r)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// Pairs returns the pairs (r_i, r_{i+1}) and (r_k, r_1) whose automata
// Z^{r_i,r_{i+1}} are intersected in Z^cyc. For k = 1 it is (r1, r1).
func (c CycleType) Pairs() [][2]int {
	ps := make([][2]int, len(c))
	for i := range c {
		ps[i] = [2]int{c[i], c[(i+1)%len(c)]}
	}
	return ps
}

// Has reports whether rank r is in the cycle type.
func (c CycleType) Has(r int) bool {
	for _, x := range c {
		if x == r {
			return true
		}
	}
	return false
}

// CycleTypes lists every cycle type over ranks 1..n in canonical form,
// shortest first, lexicographically within one length.
func CycleTypes(n int) []CycleType {
	var all []CycleType
	for k := 1; k <= n; k++ {
		used := make([]bool, n+1)
		cur := make([]int, 0, k)
		var rec func()
		rec = func() {
			if len(cur) == k {
				all = append(all, append(CycleType(nil), cur...))
				return
			}
			for r := 1; r <= n; r++ {
				// The first rank is the smallest: that picks one
				// representative of every rotation class.
				if used[r] || (len(cur) > 0 && r < cur[0]) {
					continue
				}
				used[r] = true
				cur = append(cur, r)
				rec()
				cur = cur[:len(cur)-1]
				used[r] = false
			}
		}
		rec()
	}
	return all
}

// ParseCycleType reads "1 2 3", "1,2,3" or "(1 2 3)" and checks it against n.
func ParseCycleType(s string, n int) (CycleType, error) {
	s = strings.Trim(strings.TrimSpace(s), "()")
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(f) == 0 {
		return nil, fmt.Errorf("empty cycle type")
	}
	seen := map[int]bool{}
	var c CycleType
	for _, x := range f {
		var r int
		if _, err := fmt.Sscan(x, &r); err != nil || r < 1 || r > n {
			return nil, fmt.Errorf("cycle type %q: %q is not a rank in 1..%d", s, x, n)
		}
		if seen[r] {
			return nil, fmt.Errorf("cycle type %q repeats rank %d", s, r)
		}
		seen[r] = true
		c = append(c, r)
	}
	// Rotate to canonical form.
	m := 0
	for i := range c {
		if c[i] < c[m] {
			m = i
		}
	}
	return append(c[m:], c[:m]...), nil
}
