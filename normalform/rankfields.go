package normalform

import "github.com/pgasrob/pgasrob/automata"

// RankFields returns the fields of a state of Y that belong to rank r, in
// the same order for every rank: its control state, its memory, its
// registers and its queues' part counters. Nothing else in a state of Y
// names a rank, so renaming ranks by a permutation moves these blocks
// and nothing more (the symmetry inside a cycle type, cycles/symmetry_type.go).
// Not so with OpenSHMEM commands: their fields (ctx.go) are indexed by a
// target rank as well, so they are not listed here, and package cycles
// uses no symmetry for such programs (cycles/plan.go).
func (y *Y) RankFields(r int) []automata.Field {
	fs := []automata.Field{y.st[r-1]}
	fs = append(fs, y.mem[r-1]...)
	fs = append(fs, y.reg[r-1]...)
	fs = append(fs, y.pa[r-1]...)
	return append(fs, y.pb[r-1]...)
}
