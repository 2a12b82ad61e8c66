// Package proofs_test checks the claims of pgas-theory-full.md (Sections 4
// and 5 and Appendix A) on many small random programs made by pgas/gen,
// against the definitions in package pgas and the brute-force oracle
// pgas/oracle:
//
//   - Theorem 16 end to end (theorem16_test.go): cycles.Decide agrees with
//     oracle.Explore verdict for verdict, with and without rank symmetry;
//   - Theorem 5, Lemma 12 and Lemma 13 (theorem5_test.go, on every
//     computation of X(P,N) enumerated by brute force, enum_test.go): a
//     violating computation exists iff a violating normal-form one does
//     (Definition 4 checked independently); the language of normalform.Y
//     is the set of normal-form computations; a computation is violating
//     iff it has a (CYC) cycle through two ↔-classes;
//   - Theorem 16 per cycle type (cycletype_test.go) and the deterministic
//     tracker against the literal automata Z^{r1,r2} of HB1–HB8 in their
//     intended form (ztracker_test.go);
//   - the execution-time choice of parts against the ε-rules gpa'/gpb'
//     (gpab_test.go);
//   - footnote 1 (footnote_test.go);
//   - the deviations of docs/deviations.md (deviations_test.go).
//
// Lemma 10 is checked on random explicit automata (lemma10_test.go, with
// the literal product in explicit_test.go). Every failure prints the seed and a shrunken program.
// The default run is sized for CI; -proofs.long runs ten times as many
// programs, -short a tenth.
package proofs_test
