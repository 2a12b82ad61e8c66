// Package shard splits a list of independent searches into parts that run
// as separate processes (the tasks of a Slurm job array, say) and are
// merged afterwards: the cycle types of a decision (package cycles) and
// the attacks of a TSO check (package tso), chosen with the command's
// --shard flag (docs/cli.md, docs/cluster.md). It implements no part of
// the papers: both decision procedures are, at the top, a list of
// independent questions (Theorem 16 of pgas-theory-full.md one per cycle
// type, Theorem 1 of tso-robustness-attacks.md one per attack), and this
// package only deals the list out.
//
// It is a package of its own, not part of automata, because it is about
// lists of searches, not about any one search: it knows neither states
// nor automata, and the checkers and the command each need it (Shard is a
// field of both checkers' options) without needing the search engine.
// Assign splits by estimated cost and depends only on its arguments, so
// that every process of a run computes the same split.
//
// Imports: the standard library only.
package shard
