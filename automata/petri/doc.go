// Package petri decides coverability in Petri nets: whether some marking
// reachable from an initial one covers a target marking. It is the one
// search of pgasrob over an infinite state space, the last step of the
// parameterized TSO check of tso-robustness-attacks.md (Section 6,
// Theorems 4 and 5), which runs it on the counter abstraction of an
// instrumented program (package tso, param*.go).
//
// The search is backward (coverable.go, where the choice over Karp-Miller
// is argued) and answers with a run from an initial marking, so that the
// caller can replay it. It takes automata.Options for its budgets, context
// and timeout and reports automata's Outcome and Limit, so that a budget
// runs out the same way in every engine.
//
// Imports: the standard library and pgasrob/automata only.
package petri
