// Package pgas is the front end and the reference semantics of pgasrob.
//
// It reads the .pgas language (docs/language.md), checks it and compiles it
// to a Program: the program code P of Section 2.2 of pgas-theory-full.md, a
// finite automaton over the core commands of Figure 2, with the API idioms
// of Section 2.4 expanded into core commands. The pipeline follows
// regexp/syntax: parse to a syntax tree, check names and arities, compile to
// a small explicit program. The OpenSHMEM statements of
// docs/shmem-calculus.md (contexts, puts, gets, fences, quiets, atomics,
// puts with signal, awaits) are lowered in shmem.go to the context
// commands OpSend, OpRecv, OpFence, OpQuiet and OpAtomic.
//
// It also holds the plain semantics X(P,N) of Table 1 (queues fa/fb) with
// the OpenSHMEM commands of docs/shmem-calculus.md (contexts of unordered
// items, fences, quiet, atomics; semantics_ctx.go; an atomic add that
// leaves DOM executes modulo |DOM| and reports the wrap, Step.Wrap),
// and barriers over a set of ranks (barrier_set.go: rule (bar) moves the
// members of one set; docs/deviations.md, entry 19), the
// happens-before relation of Section 3 (po ∪ cf ∪ ↔) and its violation test
// on the graph of ↔-classes. Those are the definitions themselves, written
// to be obviously right rather than fast: the decision procedure's
// witnesses are replayed against them, and the brute-force oracle explores
// them.
//
// Imports: the standard library only.
package pgas
