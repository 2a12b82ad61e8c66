package cycles

import (
	"context"
	"fmt"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/pgas"
)

// MaxListedTypes is the most cycle types a decision lists (N ≤ 9 has
// at most 125,673). Beyond it the types are streamed (stream.go) and
// Result.Types lists only the representatives searched; Result.Counts
// counts the rest.
const MaxListedTypes = 1 << 17

// listLimit is MaxListedTypes; tests lower it to stream a small N.
var listLimit int64 = MaxListedTypes

// maxSharedTypes is the most representatives the shared exploration
// carries when the types are streamed: it sets up a product per type
// before its first state (at N = 10, 111,000 of them took minutes), so
// beyond it the types are searched one by one (Result.Note says so).
const maxSharedTypes = 1 << 14

// TypeCounts counts the cycle types of a decision whose Types are
// Partial: Feasible, Infeasible and Unknown count the representatives
// searched, BySymmetry the types passed over as images of a
// representative (their outcome is its outcome), and Skipped the types
// the decision did not reach (stopped at a violation or by a budget).
type TypeCounts struct {
	Total, Searched, Feasible, Infeasible, Unknown, BySymmetry, Skipped int64
}

// listTypes is listTypes for the decision.
func (sd *typeSearch) listTypes() ([]CycleType, []int) { return listTypes(sd.p, sd.n, sd.opt) }

// listTypes lists the cycle types of a listed decision (Options.Only, or
// every type) and maps each to the index of its orbit's representative
// (the first of its orbit in the list: with Only, the orbit may be
// represented by another listed type or by none but itself).
func listTypes(p *pgas.Program, n int, opt Options) ([]CycleType, []int) {
	types := opt.Only
	if types == nil {
		types = CycleTypes(n)
	}
	g := newSymGroup(p, n, opt.NoSymmetry)
	rep := make([]int, len(types))
	first := map[string]int{}
	for i, c := range types {
		key := g.canon(c).String()
		if j, ok := first[key]; ok {
			rep[i] = j
		} else {
			first[key], rep[i] = i, i
		}
	}
	return types, rep
}

// collectReps walks the representatives in order; it returns them if
// there are at most limit, and false otherwise.
func collectReps(ctx context.Context, g *symGroup, n, limit int) ([]CycleType, bool) {
	var reps []CycleType
	w := &typeWalk{n: n, keep: g.keepPrefix, visit: func(c CycleType, _ int64) bool {
		if ctx.Err() != nil || !g.isRep(c) {
			return ctx.Err() == nil
		}
		reps = append(reps, append(CycleType(nil), c...))
		return len(reps) <= limit
	}}
	return reps, w.run() && ctx.Err() == nil
}

// streamOwned reports whether the representative with ordinal ord (from
// 0) belongs to this shard: streamed representatives are dealt out in
// turn, as costs cannot be looked up for types not listed.
func streamOwned(ord int64, sh shard.Shard) bool {
	return sh.Whole() || ord%int64(sh.Count) == int64(sh.Index-1)
}

// runStream decides a streamed decision: by the shared exploration over
// the representatives when they are few enough (and no shard), and
// otherwise by per-type searches of the representatives as the walk
// reaches them.
func (sd *typeSearch) runStream(ctx context.Context, res *Result) (*Result, error) {
	res.Procedure, res.Partial = "automata", true
	res.Counts.Total = TypeCount(sd.n)
	g := newSymGroup(sd.p, sd.n, sd.opt.NoSymmetry)
	res.Note = sd.plan.note
	if sd.plan.driver == streamedShared {
		reps, few := collectReps(ctx, g, sd.n, maxSharedTypes)
		if few {
			rep := make([]int, len(reps))
			for i := range rep {
				rep[i] = i
			}
			r, err := sd.sharedOver(ctx, res, reps, rep)
			if err == nil {
				r.countListed(int64(len(reps)))
			}
			return r, err
		}
		res.Note = fmt.Sprintf("the shared exploration carries at most %d cycle types and N = %d has more after symmetry: they were searched one by one", maxSharedTypes, sd.n)
	}
	sd.sharedIsUp() // no shared search for the portfolio's oracle to wait for
	return sd.streamPerType(ctx, res, g)
}

// countListed sets Counts from the listed representatives, the first
// reps of every type's orbit having been listed.
func (res *Result) countListed(reps int64) {
	c := &res.Counts
	for _, tr := range res.Types {
		switch {
		case !tr.Checked:
		case tr.Outcome == automata.Empty:
			c.Infeasible++
		case tr.Outcome == automata.NonEmpty:
			c.Feasible++
		default:
			c.Unknown++
		}
	}
	c.Searched = c.Feasible + c.Infeasible + c.Unknown
	c.BySymmetry = c.Total - reps
	c.Skipped = c.Total - c.Searched - c.BySymmetry
}
