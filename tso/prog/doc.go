// Package prog is the front end and the relaxed semantics of the TSO/PSO
// checker: what a program is, what it does, and what a computation of it
// means, with no decision procedure.
//
// The input is Trencher's plain-text program format (docs/tso.md), extended
// with the sfence and address-list fence instructions of the store-atomic
// framework. The pipeline has the shape of regexp/syntax: Parse reads the
// text into a syntax tree (File), Compile checks it and produces a small
// explicit Program (one finite automaton per thread over read, write,
// fence, local, check, noop, lock and unlock; addresses and values are
// expressions compiled to postfix code, expr.go), and ParseProgram does
// both. Errors carry file:line:col (Error).
//
// The Machine executes a Program step by step in the relaxed semantics:
// Table 1 of tso-robustness-attacks.md for TSO (one FIFO store buffer per
// thread) and Figure 3 of locality-singularity.md (per-address buffers that
// advance into an all-addresses buffer, sfence and the address-list fence
// of Section 4 and Appendix A) for PSO. It records every load and store as
// an Event; HappensBefore builds the relation of Section 3 of both papers
// (program order, store order, source, conflict) and FindCycle looks for a
// cycle in it, which by Shasha and Snir's lemma (Lemma 1 of both papers) is
// what a violation of robustness is.
//
// Model names the memory model and Verdict the answer to a question about
// a program; both are shared by the checker (package tso) and the oracles
// (package tso/oracle), which is why they live here.
//
// Imports: the standard library only.
package prog
