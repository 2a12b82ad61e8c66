package normalform

import "github.com/pgasrob/pgasrob/automata"

// RankFields returns the fields of a state of Y that belong to rank r, in
// the same order for every rank: its control state, its memory, its
// registers, its queues' part counters and, with OpenSHMEM commands, its
// per-context delayed bits and the part of its current chain (ctx.go).
// Apart from TargetFields, nothing else in a state of Y names a rank, so
// renaming ranks by a permutation π moves these blocks, and rank r's
// fields about target k to π(r)'s about π(k) (the symmetry inside a cycle
// type, cycles/symmetry_type.go).
func (y *Y) RankFields(r int) []automata.Field {
	fs := []automata.Field{y.st[r-1]}
	fs = append(fs, y.mem[r-1]...)
	fs = append(fs, y.reg[r-1]...)
	fs = append(fs, y.pa[r-1]...)
	fs = append(fs, y.pb[r-1]...)
	if y.ctx != nil {
		fs = append(fs, y.ctx.delayed[r-1]...)
		fs = append(fs, y.ctx.last[r-1])
	}
	return fs
}

// TargetFields returns the fields of rank r about target rank k, in the
// same order for every r and k: lb(r,c,k) and cur(r,c,k) of every context
// c (ctx.go); nil for a program without OpenSHMEM commands.
func (y *Y) TargetFields(r, k int) []automata.Field {
	if y.ctx == nil {
		return nil
	}
	var fs []automata.Field
	for c := range y.ctx.lb[r-1] {
		fs = append(fs, y.ctx.lb[r-1][c][k-1], y.ctx.cur[r-1][c][k-1])
	}
	return fs
}
