// Package table holds the hash tables and the hash function that the
// searches of automata and cycles share: every table keyed by machine
// words, one implementation per shape, all hashed by Hash.
//
// The shapes:
//
//   - Index: the slots of a set whose keys live elsewhere (a number per
//     slot, the key found by the caller from the number). The visited
//     set of automata, Vecs and Seqs are built on it.
//   - Vecs and Seqs: word vectors of one width, or of any length,
//     numbered in the order they are first added, kept in one flat array.
//   - Map and PairMap: one or two words to a 32-bit value, for one
//     goroutine.
//   - Cache: a word to a 32-bit value, shared by goroutines without a
//     lock; an entry may be lost, which costs its computation again.
//
// Every table is open addressing with linear probing in flat arrays of
// plain words: the tables grow to millions of entries, and arrays without
// pointers cost the garbage collector nothing to scan, where Go's maps
// cost about three times as much per probe (docs/design.md, "Cost per
// state"). None of them is a paper's construction: they are the memory
// under the searches of Y^M × Z^cyc (cycles, normalform) and of the TSO
// checker (tso), which decide what the paper's sections define.
//
// Why here and not in a top-level internal/ package: the module's top
// level is fixed (one directory per layer), and a package under
// automata/internal could not be imported by cycles, which holds most of
// the tables' users. The package is a leaf: it knows nothing of states,
// automata or programs.
//
// Imports: the standard library only (sync/atomic, unsafe).
package table
