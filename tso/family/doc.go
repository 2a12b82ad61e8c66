// Package family writes benchmark programs in the reference tool's
// plain-text format (docs/tso.md, "Input format") for the near-violation
// work of issue 27: families of programs, one per size N, that are not
// robust against TSO because a violation is a few steps away, and classic
// algorithms (mutual exclusion for N processes, a work-stealing queue)
// written from their textbook descriptions. Each generator returns the
// program text; nothing here parses or checks it (package tso does).
//
// The programs were written from the descriptions in issue 27 and the
// algorithms' published pseudo-code, not fitted to any tool's behaviour.
//
// Imports: the standard library only.
package family
