// Package gen makes small random .pgas programs for differential testing,
// and shrinks a program that makes a test fail to a small one.
//
// The programs are source text in the real language (docs/language.md), so
// that they exercise the whole front end and can be written to a file and
// rerun with the command-line tools. They are kept small on purpose: the
// brute-force oracle (pgas/oracle) must explore them completely, and the
// decision procedure of Theorem 16 of pgas-theory-full.md (package cycles)
// must decide them quickly. Every command kind of Figure 2 occurs, barriers
// included, and the sugar of Section 2.4 (handles, waits, get, put, waitq,
// assert). With Config.Shmem the programs also declare contexts and use
// the OpenSHMEM statements of docs/shmem-calculus.md (puts, gets, fences,
// quiets, atomics, puts with signal, awaits); without it they are the same,
// seed for seed, as before that option existed. With Config.Wide the
// domain is a window LO..HI with negative values and C's int sentinels
// (-1, 1337, INT_MAX; wide.go), for the decision's packing of such values
// against the oracle's (docs/shmem-calculus.md, "Inferred domains").
//
// The differential comparison of the two checkers on one program
// (cycles.Compare) lives beside the decision it checks, so that the
// generator depends on the syntax alone and the tests of cycles can use it.
//
// Imports: pgas and the standard library.
package gen
