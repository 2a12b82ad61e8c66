package cycles

import (
	"context"

	"github.com/pgasrob/pgasrob/pgas"
)

// The orbits of the cycle types as computed before they were streamed:
// breadth-first over the whole list with the group's generators. The
// reference for symGroup (stream_internal_test.go).

// symmetries returns generators of a group of rank permutations the program
// is invariant under (the group of rankSymmetry): the rotation, if the
// program respects it, and for each class of ranks two generators of its
// full symmetric group, the swap of its two smallest ranks and the cycle
// through all of it. The tests compute orbits with them (orbits), a
// reference for symGroup.isRep that shares none of its code.
func symmetries(p *pgas.Program, n int) [][]int {
	rot, classes := rankSymmetry(p, n)
	var gens [][]int
	if rot != nil {
		gens = append(gens, rot)
	}
	for _, m := range classes {
		gens = append(gens, classGens(n, m)...)
	}
	return gens
}

func (c CycleType) apply(perm []int) CycleType {
	d := make(CycleType, len(c))
	for i, r := range c {
		d[i] = perm[r]
	}
	m := 0
	for i := range d {
		if d[i] < d[m] {
			m = i
		}
	}
	return append(d[m:], d[:m]...)
}

// orbits maps every cycle type to the index of the first cycle type of its
// orbit under the generators (itself when no symmetry applies).
func orbits(ctx context.Context, types []CycleType, gens [][]int) []int {
	rep := make([]int, len(types))
	index := map[string]int{}
	for i, c := range types {
		index[c.String()] = i
		rep[i] = -1
	}
	for i := range types {
		if rep[i] >= 0 {
			continue
		}
		if i&1023 == 0 && ctx.Err() != nil {
			// Stopped: the rest stand for themselves (and are not searched).
			for j := i; j < len(types); j++ {
				if rep[j] < 0 {
					rep[j] = j
				}
			}
			break
		}
		queue := []int{i}
		rep[i] = i
		for len(queue) > 0 {
			c := types[queue[0]]
			queue = queue[1:]
			for _, g := range gens {
				j, ok := index[c.apply(g).String()]
				if ok && rep[j] < 0 {
					rep[j] = i
					queue = append(queue, j)
				}
			}
		}
	}
	return rep
}
