// Package normalform builds, on the fly, the 4-headed automaton Y(P,N) that
// generates exactly the normal-form computations τ1·τ2·τ3·τ4 of a PGAS
// program (Section 5.2, Tables 2 and 4 of pgas-theory-full.md, Lemma 12),
// and the marking rules M1–M6 of its extension Y^M (appendix, before Lemma
// 21) that guess the enter and leave events of a happens-before cycle.
//
// Deviations from the paper, each tested (see docs/deviations.md):
//   - The ε-rules gpa'/gpb' are replaced by choosing the parts m ≤ n of a
//     remote command's popa and popb when the command executes (with
//     pa ≤ m ≤ n, pb ≤ n). The language is unchanged: the counters only
//     matter when a command reads them.
//   - A transition of Y that emits several letters (a remote command and its
//     two pops, or the N events of a barrier) is one Move here; the
//     auxiliary states of Table 2 are never materialised, so every state is
//     final, as in S_Y.
//   - A popa whose source cell is settled (no popb writes it, its owner
//     stores to it no more) takes its lowest part, m = pa (settled.go):
//     its part changes no conflict edge. Y.AllParts turns this off; the
//     language shrinks, the happens-before relations it generates do not.
//   - Rule M5 keeps the successor state s' (the extraction prints s).
//   - The OpenSHMEM commands (docs/shmem-calculus.md; docs/deviations.md,
//     "The normal form with contexts"): a context has no pa/pb counter,
//     its items are not FIFO. Each item picks the parts of its pops when
//     it is issued, under per-(rank, context, target rank) bounds left by
//     fences (lb, cur), the highest part of the rank's current chain of
//     sends (last, for put-with-signal; Cmd.Chain) and whether the context has an item pending past
//     τ1 (delayed, for quiet); a fetching atomic is one event in τ1
//     (ctx.go). These fields exist only when the program uses the
//     commands. Y cannot number the items its pops belong to
//     (Event.Item, unbounded); NumberItems and Y.Computation do it from
//     the order of generation.
//   - A barrier may be over a set of ranks (barrier.go): rule (bar')
//     moves the members of the set and emits their bar events, with the
//     set in Event.Item, in part 1 (docs/deviations.md, entry 19).
//   - Y^M records, per rank, whether its enter and leave events lie in the
//     same ↔-class (rules M4 and M6, or M3 on a popa followed by M5 on the
//     popb of the same command); the cycle check needs this to reject cycles
//     that stay inside one class (see package cycles).
//
// Imports: pgas (program, expressions, events), automata (packed states),
// github.com/bits-and-blooms/bitset (cell sets) and the standard library.
package normalform
