// Package pool runs a list of independent searches on a few goroutines,
// handing the items out in list order, so that the answer does not
// depend on the scheduling: the first decisive result in list order
// wins, and a decisive result cancels only the searches of later items;
// earlier ones run to their end, since one of them may still win. It is
// the pool of the cycle-type searches of cycles.Decide (listed and
// streamed) and of the attack searches of tso.Check. It implements no
// section of the papers: Theorem 16's "for every cycle type" and the
// attacks of the TSO checkers are independent questions, and the pool
// only fixes which answer is reported when several are found.
//
// The hooks its users need: Slots, the tokens a portfolio lends out
// (one per running search; the oracle takes one away) and that a search
// borrows when idle as frontier workers; Item.Taken and Item.Running,
// from which a search counts the slots nobody will claim; Join, with
// which workers join a run late (most TSO checks end within a
// millisecond, before threads would pay off); AnyWins, for a stream of
// millions of items with no first one worth waiting for. Progress stays
// with the caller, which counts in its search function.
//
// It is a package of automata, not an internal package: the top level of
// the repository is fixed (no root internal/), and automata/internal
// could not be imported by cycles or tso.
//
// Imports: the standard library only.
package pool
