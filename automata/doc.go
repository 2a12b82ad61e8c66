// Package automata is the finite-automaton core shared by every checker in
// pgasrob: on-the-fly transition systems over bit-packed states, and one
// emptiness search (a breadth-first graph search, Lemma 11 of
// pgas-theory-full.md) with budgets, cancellation, progress reports and
// witness paths.
//
// A checker describes its automaton as a System: initial states, successors
// and accepting states, with every state packed into a fixed number of 64-bit
// words (see Layout). The search keeps the visited set the way
// regexp/backtrack.go keeps its bit vector over (instruction, position): as
// flat arrays of packed words, never as Go maps of structs. Its cost is
// width*8 bytes for the state, 4 bytes for the parent link and about 8 bytes
// of hash table per visited state.
//
// The package also holds explicit finite and n-headed automata with bounded
// language enumeration (explicit.go) and the literal product of Lemma 10,
// with its guessing of the state each head starts in (product.go). They are
// the reference against which the specialised on-the-fly products of the
// checkers are tested (proofs_test).
//
// Imports: the standard library only. Every other package of pgasrob may
// import this one; it imports none of them.
package automata
