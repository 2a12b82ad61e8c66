// Package gen writes programs in the input format of the TSO/PSO checker
// (docs/tso.md): Generate makes small random loop-free programs for the
// differential tests of the checker against its oracles (package
// tso/oracle, "pgasrob difftest --tso"), and Ring, UnfencedRing and Private
// write the scalable families the benchmarks and tests grow with n. It
// returns text, not a tso/prog.Program, so that every program goes through
// the parser the user's files go through.
//
// Imports: the standard library only.
package gen
