// Package automata is the finite-automaton core shared by every checker in
// pgasrob: on-the-fly transition systems over bit-packed states, and one
// emptiness search (a graph search, breadth-first or depth-first as
// Options.Strategy says, Lemma 11 of pgas-theory-full.md) with budgets,
// cancellation, progress reports and witness paths (search.go).
//
// A checker describes its automaton as a System: initial states, successors
// and accepting states, with every state packed into a fixed number of 64-bit
// words (see Layout). The search keeps the visited set the way
// regexp/backtrack.go keeps its bit vector over (instruction, position): as
// flat arrays of packed words, never as Go maps of structs, in pages of 4 Ki
// states that never move (store.go), with an index of their numbers
// (table.Index, the tables' shared package automata/table). Its cost is width*8 bytes for the
// state, 4 bytes for the parent link and 5 to 11 bytes of hash table per
// visited state. A System whose states are two parts that each repeat (a
// product: the state of Y beside a tracker) can ask for collapse
// compression (collapse.go, Collapser): each part's distinct values are
// stored once and a state costs one word of the arena. Searches that walk
// the same automaton (the cycle types of one decision) can keep the first
// part in one Interner between them (intern.go, SharedCollapser), each
// charged for the entries it adds. A PartHinter (hint.go) hands the store,
// with each state, a slot that keeps its first part's number (a product's
// move knows its target), so that the store interns a first part once per
// slot instead of once per run of states, and learns the number of the
// first part of each state the store decodes for it.
//
// Strategies (Options.Strategy): breadth-first, depth-first, and
// EnterFirst (lazy.go), a depth-first search that stores a successor only
// when it enters it, for goals a few moves away in wide systems.
//
// Options.OnAccept lets one search serve several goals at once (shared.go):
// it goes on past accepting states and reports each with its path.
//
// Options.Workers spreads one breadth-first search over several cores
// (parallel.go): a System that implements Forker is forked once per
// worker, the workers compute the successors of batches of the frontier,
// and the search goroutine inserts them in frontier order, so that the
// result (states, transitions, witness, budgets, OnAccept) is the
// sequential one, state for state. Depth-first searches stay sequential.
//
// Its sub-packages hold what the checkers share beside the search:
// automata/petri (coverability in Petri nets, the search over infinite
// state spaces of the parameterized TSO check), automata/hitting (the
// cheapest hitting set both repairs end in) and automata/shard (splitting
// a list of searches into parts for separate processes). They import this
// package, or nothing of pgasrob; it imports none of them but
// automata/table, the hash tables of its visited sets (and of cycles), a
// leaf.
//
// The ordered worker pool of the checkers (the cycle types of a decision,
// the attacks of a TSO check) is the subpackage automata/pool.
//
// Options.CacheOverflow searches beyond the memory budget (overflow.go):
// the visited set stops at three quarters of MaxBytes, and the search goes
// on depth-first with its path kept and the finished states in a bounded
// cache (state-space caching), exact, trading time for memory. A
// Pressure signal (pressure.go), set by whoever watches the process's
// memory, stops the visited set earlier, where the process runs short.
//
// Imports: the standard library, automata/table and
// github.com/dgraph-io/ristretto/v2 (the state cache of overflow.go).
package automata
