// Package oracle is the brute-force reference of the race criterion
// (docs/criteria.md, "Data races (PGAS and OpenSHMEM)"): it enumerates
// every computation of X(P,N) of a program whose runs are finite, builds
// the API happens-before relation api_hb of each as an explicit graph of
// its events, edge rule by edge rule as the definition states them, and
// looks for two conflicting accesses that no path of that graph orders.
// Where a rank has only register steps to take (assigns and assumes), it
// follows that rank's steps alone: they commute with every other step, so
// every computation is a reordering of one it follows with the same
// graph (explore.go, ample); Options.Full turns this off.
//
// It shares no code with package race, whose monitor computes the same
// relation incrementally: the only code both use is X itself
// (pgas.Machine), which is the definition of the computations.
//
// Imports: pgas and the standard library.
package oracle
