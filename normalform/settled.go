package normalform

import (
	"github.com/bits-and-blooms/bitset"

	"github.com/pgasrob/pgasrob/automata"
)

// Settled popas. A remote command guesses the parts m ≤ n of its popa and
// popb; on programs with queues and waits these guesses, kept in the
// counters pa and pb, multiply the states of Y far more than control and
// memory do (at N = 4 prodcons has 2,381 control vectors, 4,937 with
// memory and registers, 107 k states of Y; docs/measurements.md, "Waits and
// queues"). Most popas read a cell that nobody will write again: the
// source of a write, stored just before it, or the $one cell of a shadow
// read. Such a popa is placed in the lowest part it may take (m = pa).
//
// Why this keeps every violation. Let the popa of command c read cell x,
// and suppose no popb of any rank's command and no atomic can ever write
// x (a static property of the program) and the owner of x has no store to x ahead
// (from the issuing rank's control state after c, when it owns x;
// otherwise from the owner's current control state). The events that
// conflict with the popa are the writes to x: the owner's stores, popbs
// and atomics into x. There are no popbs or atomics into x at all, and every store to x
// was generated before c, in τ1, so it precedes the popa wherever it
// lands. Hence every conflict edge of the popa, and every write to x
// between the popa and another event on x, is the same for all m in
// pa..3, and nothing on another cell depends on m: the happens-before
// relation is the same, and so is what each Z^{r,r'} checks (two marked
// events on one cell, in order, with no write to the cell between them).
// Y's memory does not depend on m (a popa writes nothing; the popb lands
// in τ1 only when n = 0, which forces m = 0), and m = pa is the weakest
// choice for what follows: later popas of the queue need m' ≥ m, the
// popb n ≥ m. So every run of Y^M × Z^cyc with some m has a run with
// m = pa that makes the same moves with the same marks otherwise, reaches
// the same control, memory and marks with counters no larger (for a
// context item, m is bounded by nothing and bounds only n ≥ m; delayed
// depends on n alone), and whose
// marked computation Z^cyc accepts iff it accepts the original.
//
// The condition reads the control state of the owner of x, which may be
// another rank: a move of the owner that leaves its last store to x
// behind makes the popas of other ranks' reads of x settled, and so changes
// the choices those ranks have. The partial-order reduction of package
// cycles relies on moves of different ranks commuting, so it counts such
// a move as touching x (Future.Stores; cycles/reduce.go).

// settledSource reports whether the popa of a command issued by rank r in
// state s, moving to control state to, reading cell src (owner's rank and
// address), may be placed in its lowest part.
func (y *Y) settledSource(s automata.State, r, to, srcRank, srcAddr int) bool {
	if y.AllParts {
		return false
	}
	f := y.future
	c := (srcRank-1)*len(y.P.Addrs) + srcAddr
	if bitset.From(f.popbDst).Test(uint(c)) {
		return false
	}
	q := to
	if srcRank != r {
		q = y.Control(s, srcRank)
	}
	return !bitset.From(f.stores[srcRank-1][q]).Test(uint(c))
}

// Stores returns the cells rank r may still store to from control state q.
func (f *Future) Stores(r, q int) []uint64 { return f.stores[r-1][q] }

// PopbDst returns the cells some popb or atomic of some rank may write: a
// popa of one of them is never settled.
func (f *Future) PopbDst() []uint64 { return f.popbDst }
