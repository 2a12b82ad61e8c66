// Package progbuild builds compiled *pgas.Program values directly, without
// the parser, for the tests of the semantics (package pgas) and of the
// oracle (package pgas/oracle). Going around the parser keeps those tests
// about the semantics alone: a parser bug can neither hide nor fake a
// failure there.
//
// It is one package rather than a copy per test suite so that both suites
// build the same programs, and draw the same random programs for the same
// seeds.
//
// Imports: pgasrob/pgas and the standard library only, so that the tests
// using it depend on nothing beyond the code they check.
package progbuild
