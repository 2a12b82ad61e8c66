// Package cycles decides robustness of PGAS programs (Theorem 16 of
// pgas-theory-full.md): for every cycle type cyc = r1…rk (Section 5.3),
// the language of Y^M(P,N) intersected with Z^cyc must be empty.
//
// Z^cyc = Z^{r1,r2} ∩ … ∩ Z^{rk,r1} reads the computation τ1·τ2·τ3·τ4 in
// order, while Y^M generates its four parts interleaved. Lemma 10 bridges
// the gap by guessing, for every part, the state Z will be in when it
// starts. Guessing a tuple of Z states for every part multiplies the state
// space by |Z|^(3k), so this package runs an equivalent deterministic
// tracker instead (tracker.go): per pair (r_i, r_{i+1}) it remembers where
// the leave event of r_i and the enter event of r_{i+1} were generated
// (part and cell) and, while one of them is still missing, which cells the
// pops of parts 2–4 have written. That is exactly the information the
// guessed Z runs would check at the end. proofs_test runs the literal
// automata Z^{r1,r2} (proofs_test/ztracker_test.go) over the marked
// computations that reference.go enumerates and checks that both accept
// the same ones; proofs_test/explicit_test.go holds the literal Lemma 10
// construction.
//
// The search is kept small by pruning guesses that can no longer complete
// (product.go, using normalform.Future; the written-cell sets keep only
// what an entering pop can still read, waits.go), by rank symmetry
// between cycle types (symmetry.go) and inside one (symmetry_type.go: a type's
// search keeps one state per orbit of the renamings that keep the type)
// and by a partial-order reduction (reduce.go; the run-time error check
// has its own, reduce_err.go, whose cycle proviso works inside loops:
// docs/deviations.md entry 20); see docs/design.md.
//
// What a product state costs ("Cost per state" in docs/design.md): a
// product stores its states collapsed (automata.Collapser: Y's words and
// the tracker each once, one word per state), its Y part in the move
// table's interner of Y states, which every per-type search of the
// decision shares (automata.SharedCollapser; the moves are attached to
// those entries), takes the part of the ample-set check that reads Y
// alone from the move table when it has one (product.table,
// movetable.go), remembers the outcomes of a move's markings per (μ and
// tracker, move signature, control states of the cycle's ranks)
// (product_memo.go) and prune's verdict per waiting pair and control
// states (waits.go), and copies a tracker only when an event changes it.
// The move table's entry of a Y state also keeps, per move, the number of
// its target in the interner (filled by the visited set, handed to it as
// a hint: automata.PartHinter), the control states of every rank in the
// target (the memo's key) and where each rank's moves start (the ample
// rank's moves are visited alone); the visited set tells the product the
// number of the Y state it decodes, so that its entry is found by number.
// A type's turns are compiled into moves of bit ranges (symmetry_rename.go).
//
// The cycle types are listed up to MaxListedTypes (N ≤ 9); beyond, they
// are streamed (stream.go: walked in order, each tested alone for being
// its orbit's representative, symmetry_group.go) and searched as the walk
// reaches them (stream_run.go, stream_pertype.go), so that N is bounded by
// the searches and the state encoding, not by a list.
//
// Which code runs is decided in one place: plan.go turns the options
// (options.go) and N into who answers (the cycle-type search, the oracle,
// or both in the portfolio of portfolio.go) and the driver of the search:
// per-type over a list (pertype.go), shared over a list (shared_run.go),
// or over a stream (stream_run.go, stream_pertype.go). The per-type
// drivers hand their types to automata/pool, in order, so that the
// first feasible type in that order is reported whatever the scheduling;
// the searches hold the decision's slots (slots.go), which the portfolio
// lends to its oracle. File prefixes name roles: product (one type's
// product and its memo), movetable (the moves of Y, shared by every
// search), memotable (the memos' hash tables), shared (the shared
// exploration), stream, symmetry. compare.go compares a decision with
// the oracle's (difftest, proofs_test).
//
// Options.Exploration chooses how the cycle types are searched: one
// product search per type (PerType, the zero value), or one search that
// carries every type at once (Shared, shared.go: a state is Y, μ and the
// set of live (cycle type, tracker) elements, each advanced by the code of
// its type's product; the default of the decide command), helped by the
// per-type search running through the types in order, beside it or, with
// one job, by turns (shared_run.go, shared_helper.go). What depends on the
// Y state alone is computed once per Y state (shared_y.go), and the shared
// search also prunes with the ranks blocked for good at a wait (stuck.go).
// It runs on automata's parallel frontier when it has idle jobs: its
// forks share the interned sets and the memo tables, which are read
// without locks (shared_fork.go, shared_tables.go, shared_memo.go; the
// tables themselves are automata/table's).
//
// Programs with OpenSHMEM commands (docs/shmem-calculus.md) are decided
// by the same procedure, with Y's context rules (normalform/ctx.go) and
// the argument of docs/deviations.md, "The normal form with contexts";
// the trackers need no change (an amo event is a write, an afetch a
// read). The partial-order reduction, rank symmetry (with Y's target
// fields renamed, symmetry_ctx.go) and the shared exploration's stuck
// ranks hold for contexts too (docs/deviations.md, "The reductions with
// contexts"). A witness's context pops get
// their Item when it is certified (witness.go).
//
// The rules HB1–HB8 are used in their intended form (docs/deviations.md):
// HB1 waits in init until the leave-marked event of r1; the two barrier
// events matched by HB6–HB8 must belong to the same barrier (over a set
// of ranks, both ranks are members: tracker.go, docs/deviations.md entry
// 18, which also says how symmetry, the reduction and the stuck ranks
// treat such barriers); and a cycle that never leaves one ↔-class is not
// a violation.
//
// Imports: pgas, pgas/oracle (the portfolio of portfolio.go and
// compare.go), normalform, automata, automata/pool, automata/shard,
// automata/table, github.com/bits-and-blooms/bitset and the standard
// library.
package cycles
