// Package tso decides robustness of concurrent programs against the TSO and
// PSO memory models by reducing it to state reachability under sequential
// consistency (SC).
//
// The program comes from package tso/prog (Trencher's format parsed and
// compiled into one automaton per thread, the relaxed Machine, the
// happens-before relation); the brute-force oracles the checker is tested
// against are package tso/oracle, the random programs of those tests
// package tso/gen. This package is the checker: Check (robustness, or the
// criterion of Options.Criterion), FindFences, CheckParameterized and
// CheckPersistenceFlattened, one result type each, and DiffTest. The
// criteria are files of this package (criterion.go, persist*.go, trf*.go)
// because they share its unexported core: the attack enumeration, the
// instrumentation, the SC system and its search. A request the checker
// cannot take (an unknown criterion, persistence or TRF under PSO, a
// parameterized check of another criterion) is an error of Check,
// FindFences or CheckParameterized, not an UNKNOWN verdict.
//
// What the package implements, and from where:
//
//   - Attacks, TSO witnesses and the attacker/helper instrumentation of
//     tso-robustness-attacks.md (Section 4, Definition 1, Theorem 1; Section 5,
//     Figs. 5 and 7, Theorems 2 and 3) for the TSO model.
//   - The store-atomic framework of locality-singularity.md (Section 4 and
//     Appendix A: per-address buffers, an all-addresses buffer, sfence and
//     address-list fence), locality (Theorem 1), singularity (Theorem 2) and the
//     attacker instrumentations of Figs. 4 (locality) and 5 (singularity) with
//     the helpers of Fig. 6, for PSO. Singularity fails for TSO (Figure 1 of
//     that paper), so TSO always uses the multi-store attacker.
//   - Witnesses: a feasible attack's SC path turned into a relaxed
//     computation, replayed on the Machine of tso/prog and checked to have
//     a happens-before cycle (Shasha and Snir's criterion that a relaxed
//     computation has an SC equivalent iff that relation is acyclic).
//   - Fence insertion (tso-robustness-attacks.md Section 7, fences.go): a
//     minimum set of mfence locations found by exact covering of the feasible
//     attacks' fence-free paths, round after round, and returned only with a
//     robustness check of the fenced program that certifies it.
//   - Parameterized robustness (Section 6, Theorems 4 and 5; param*.go):
//     threads marked "thread NAME *" run in any number of copies; per
//     attack, the instrumentation with a test-and-set flag choosing the one
//     attacking copy, its counter abstraction as a Petri net (found by a
//     forward exploration that only forgets counts), and coverability of
//     the goal by the backward search of petri.Coverable. A covering run
//     fixes the instance and becomes a witness replayed on it. Code cannot
//     name its thread in this format; IdentityWarnings points at threads
//     that keep an identity in data instead (per-thread constants).
//   - Persistence (persistence-fences.md, Sections 6-9; persist*.go,
//     Options.Criterion = Persistence): a TSO run is persistent if an SC
//     run has its program order and store order. Theorem 1's fragility
//     pattern (pivot, write e1, read e) is decided per pattern by SC
//     reachability of the program run in three phases by roles of the SC
//     system (sysExt), with a phase 2 wider than the paper's so that
//     locked sections of the other threads are covered (Theorem 1 misses
//     them; argued in persist.go). A witness is the run
//     π1·e1·π3·e·ρ·u1 replayed on the Machine with its trace; the oracle
//     (oracle.Persistence) enumerates TSO and SC traces from the definition.
//   - Triangular-race freedom (Owens, ECOOP 2010; trf*.go,
//     Options.Criterion = TRF): no SC run has a read of x by t, outside a
//     locked section, while a write of t to some y != x is pending (no
//     mfence, sfence, lock or unlock since), adjacent to a write of x by
//     another thread. Pattern (t, write, read); the instrumentation moves
//     t into a copy of its code without draining instructions at the
//     write, stops it at the read, and takes another thread's later write
//     of x as the goal (equal to adjacency, argued in trf.go). A witness
//     is the SC run replayed on the Machine with the race checked on its
//     events, plus the TSO computation keeping the write buffered when
//     one has the same values; oracle.TRF checks adjacency directly.
//   - Trencher's lock/unlock (locked sections run alone, with empty buffers
//     at both ends). The papers leave locks out; the helpers need one extra
//     rule for them (instrument.go, docs/tso.md), found by the differential
//     tests against the oracle.
//   - The combined first search (combined.go, directed.go; issue 27): one
//     program instrumented for all attacks at once, the attacker, its
//     delayed store and its last load chosen inside the run as in the
//     reference tool, searched first within a state budget in a
//     goal-directed order (automata.EnterFirst). A goal found only ends
//     the check once its path has replayed as a witness with a
//     happens-before cycle; otherwise the per-attack searches decide.
//     Before it, a probe (probe.go: the attacks in order, each capped at
//     4 states per transition, a small combined search at the first one
//     the cap stops) and a pre-pass of capped per-attack searches, in
//     rounds of growing caps each followed by the combined search
//     (prepass.go).
//   - Thread symmetry (symmetry.go; issue 35): threads with the same code
//     are interchangeable, so every robustness search stores one state
//     per orbit (the twins sorted) and unfolds a goal's path into one of
//     the program before its witness is built; argued there and in
//     docs/deviations.md, entry 16.
//
// Engines: every state-space search (the SC reachability query of each
// instrumented program) runs on the one engine of package automata over
// bit-packed states (sc.go), depth-first, with dead registers cleared and a
// partial-order reduction that expands one thread alone while it stands
// where all it can do is private to it (por.go, argued there; off with
// Options.NoReduction). The relaxed machine (prog.Machine) executes the
// TSO/PSO semantics step by step; it replays witnesses and drives the
// oracles (package tso/oracle), which enumerate computations and decide
// each criterion from its definition. The oracles share no code with the
// instrumentation, so the two can be tested against each other (DiffTest).
//
// Imports: the standard library, pgasrob/automata and its sub-packages
// automata/pool, automata/petri, automata/hitting and automata/shard,
// pgasrob/tso/prog, pgasrob/tso/oracle and
// github.com/bits-and-blooms/bitset (the counter abstraction's sets) only
// (tests also pgasrob/tso/gen and pgasrob/tso/family).
package tso
