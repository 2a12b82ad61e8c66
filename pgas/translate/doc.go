// Package translate compiles a PGAS program (P, N) into a program of the
// store-atomic framework of locality-singularity.md (Section 4: per-address
// store buffers, an all-addresses buffer, sfence and address-list fences),
// written in the Trencher text format that package tso reads. Run under
// that framework's semantics unmodified (tso.PSO), the result is the
// paper's approximation of PGAS, and robustness of it is decided by the
// locality/singularity instrumentation of package tso. That is the second
// route to PGAS robustness, beside the exact procedure of package cycles.
//
// The translation is rule by rule (docs/translate.md has one example per
// rule): rank r becomes thread r; cell (k, a) becomes global address
// (k-1)·|ADR| + a; local loads stay loads; a local store is a store,
// followed by an sfence when another rank can reach its cell; a remote
// read or write becomes the load of its source and a buffered store of its
// destination, with an address-list fence between them that keeps the
// stores of one queue in issue order; waits become sfence; barriers become
// arrival flags polled by every other rank. Programs with the OpenSHMEM
// commands of docs/shmem-calculus.md, or with a user's await, are refused
// by name and position.
//
// The two models differ (docs/translate.md, "Where the routes differ"): the
// framework cannot delay a load, lets a thread read its own buffered
// stores, and splits a remote operation into two actions where PGAS keeps
// its events in one ↔-class. The translation is built so that every
// computation of the framework corresponds to a computation of X(P, N), or
// to a prefix of one that already violates robustness; so a violation found
// through the translation is a violation of the PGAS program (Explain and
// the differential tests check this on random programs), while the
// converse fails. Explain names, for a PGAS violation the translation
// misses, the difference that hides it; Relate checks that relation on the
// answers of the two routes' deciders (pgasrob difftest --instrumentation
// runs them).
//
// Imports: pgasrob/pgas and the standard library only; the text it writes
// is read by package tso in the command layer.
package translate
