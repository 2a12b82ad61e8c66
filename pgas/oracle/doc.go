// Package oracle is the brute-force reference for robustness of PGAS
// programs: it enumerates the computations of the plain semantics X(P,N)
// (Section 2.3 of pgas-theory-full.md, Tables 1 and 3) and looks for one
// whose happens-before relation (Section 3) has a cycle between different
// ↔-classes, the semantic definition of a violation given in
// papers/README.md. It covers the OpenSHMEM commands as well
// (docs/shmem-calculus.md): their rules are part of pgas.Machine.
//
// It is independent of the decision procedure on purpose: it uses neither
// the normal form of Section 4 nor the automata of Section 5, only the
// definitions in package pgas (Machine, HappensBefore, Replay). Every
// violation it reports is replayed in X and re-checked with
// pgas.HappensBefore before it is returned.
//
// To stay fast it memoises states, but only on a key that determines the
// future exactly: the state of X together with a summary of the history's
// happens-before graph (see summary.go for the argument). On loop-free
// programs with bounds that are never hit, the exploration is complete and
// "no violation" is a proof. An atomic add that wraps (pgas.Step.Wrap) is
// reported as a range error and not explored further, so that no verdict
// rests on a value the real program does not compute.
//
// With Bounds.Reduce it explores an ample set instead of every step
// where one exists (reduce.go, and reduce_ctx.go for the OpenSHMEM
// commands, docs/deviations.md entry 17): a pop, or one rank's commands, that
// nothing able to run before it conflicts with; failing those, a barrier
// every rank waits at, or a rank's commands with the pending pops they
// conflict with (reduce_with.go, entry 21). Equivalent computations
// have the same happens-before graph, so the verdict is kept; the
// portfolio of package cycles uses it, difftest's reference does not
// (docs/design.md, "The oracle's partial-order reduction").
//
// Imports: pgasrob/pgas, github.com/bits-and-blooms/bitset (the summaries'
// sets of classes) and the standard library.
package oracle
