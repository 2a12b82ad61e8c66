// Package oracle is the brute-force reference for the three questions the
// TSO/PSO checker (package tso) answers: it decides each straight from its
// definition by enumerating computations on the relaxed Machine of package
// tso/prog, and knows nothing of attacks, patterns or instrumentation, so
// that the checker can be tested against it ("pgasrob difftest --tso").
//
//   - Robustness: some relaxed computation (TSO or PSO) has a cyclic
//     happens-before relation (Lemma 1 of tso-robustness-attacks.md and of
//     locality-singularity.md).
//   - Persistence (persistence-fences.md, Section 6): some complete TSO run
//     has a trace (program order with values, store order) that no SC run
//     has; PersistenceBounded cuts long runs for programs with loops.
//   - TRF, triangular-race freedom (Owens, ECOOP 2010; docs/criteria.md):
//     some SC state has a read by t, outside a locked section, while a
//     write of t to another cell is pending, adjacent to another thread's
//     write of the read cell.
//
// The three are written on one skeleton (search.go): a depth-first
// enumeration that expands each node once per key within a Budget, where
// a question supplies the key (what of the machine and the history
// determines the future for that question), the length the budget bounds,
// what to look at in a node, and the moves (relaxed, TSO or SC). They
// terminate on loop-free programs; the budget turns anything larger into
// Unknown.
//
// Imports: pgasrob/tso/prog and the standard library only.
package oracle
