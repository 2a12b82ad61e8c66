// Package repair finds a cheapest set of synchronisation insertions that
// makes a .pgas program robust (issue 12): waits on a remote operation's
// handle, waits for a queue to drain, or a read/write made get/put, in the
// language's own words (docs/language.md), so that the user can paste the
// result back. On OpenSHMEM contexts (docs/shmem-calculus.md, issue 25) it
// inserts a fence or a quiet, makes a non-blocking operation blocking, or
// makes a put of a value a fetching atomic swap.
//
// The search is counter-example guided in the manner of the fence
// insertion of tso-robustness-attacks.md, Section 7 (package tso): decide
// (cycles.Decide, Theorem 16 of pgas-theory-full.md), read the certified
// happens-before cycle of the violation, collect the insertions that cut
// it, and try a cheapest set meeting all collected constraints
// (hitting.MinCost). Minimality is then proved by deciding
// every cheaper set; the repaired program is decided again from its text
// and explored by the brute-force oracle (pgas/oracle) before it is
// returned.
//
// RepairRace (race.go) repairs for the race criterion (docs/criteria.md)
// with the same vocabulary: it decides the sets of insertions cheapest
// first with package race, so the first race-free set is a cheapest one,
// and checks it with the race oracle (cycles/race/oracle).
//
// Imports: pgas, pgas/oracle, cycles, cycles/race, cycles/race/oracle,
// automata, automata/hitting and the standard library. cmd/pgasrob uses
// it for "pgasrob repair".
package repair
