// Package hitting finds a cheapest hitting set: a set of elements that
// meets every one of a list of constraints (sets of elements), at least
// total cost. Both repairs of pgasrob end in it: fence insertion
// (tso-robustness-attacks.md, Section 7; package tso, fences.go) and the
// insertion of waits and gets/puts (package cycles/repair), each of which
// collects, per violation found, the insertions that would cut it.
//
// It is exact (branch and bound, hitting.go), which is cheap for the
// handfuls of candidates those repairs collect.
//
// Imports: the standard library only.
package hitting
