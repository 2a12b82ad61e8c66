// Package race decides data-race freedom of a PGAS program (.pgas or C
// through pgas/cfront) for N ranks, exactly, over every computation of
// X(P,N) (pgas-theory-full.md, Section 2.3; the OpenSHMEM commands of
// docs/shmem-calculus.md).
//
// A data race (docs/criteria.md, "Data races (PGAS and OpenSHMEM)") is a
// pair of accesses to one cell, at least one a write, at least one through
// the RMA interface (a pop, a fetching atomic), not both atomic, that the
// API's happens-before relation api_hb does not order. api_hb is program
// order with local completion, the issue of an operation before its
// accesses, FIFO order per queue, fence delivery order per context and
// target rank, completion by quiet, barriers, put-with-signal's order of
// data before signal, and synchronises-with from atomic writes (and their
// release sequences of atomic read-modify-writes) to the atomic reads that
// observe them (awaits, fetching atomics).
//
// The procedure is an instrumentation of X: a product of the machine with
// a monitor that guesses the first access of a race, then carries one bit
// per rank, pending operation, context and cell saying whether what happens
// there next is api_hb-after the guessed access, and accepts at a
// conflicting access that is not. Every edge of api_hb goes forward in a
// computation, so that bit is computed when the event happens, from bits
// already there: the monitor is exact by construction. The product is
// searched by automata.Search (one search engine); a budget that runs out
// gives Unknown. The search follows, where a rank has only register steps
// to take, that rank's steps alone (a persistent set: reduce.go); they
// commute with every other step and change no place of the monitor. It
// gives up a guessed state from which nothing left unmarked can conflict
// with the guessed access (future.go), which also drops at once the
// guesses nothing can race with. The search is finite when X(P,N) has
// finitely many reachable states (queues bounded in every run), which is
// the case for every program without a loop that issues operations
// without completing them; otherwise a budget ends it.
//
// Imports: pgas, automata and the standard library.
package race
