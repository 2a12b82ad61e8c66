// Package cfront is the C front end of pgasrob: it reads a C program
// written against OpenSHMEM 1.6 (docs/shmem.md) and translates it into the
// .pgas language with the OpenSHMEM constructs of docs/shmem-calculus.md,
// keeping for every generated line the C position and the call as written,
// so that witnesses speak of the C program.
//
// It is shaped as a compiler, one file per job:
//
//   - cfront.go: the entry points (Translate, Compile) and the result.
//   - preprocess.go, headers.go, include/: preprocessing with cc's
//     preprocessor, our predefined macros and pragmas, and our own headers
//     (no host compiler or system header is ever read).
//   - diag.go: diagnostics, every one at a C position.
//   - translator.go, decls.go, stmt.go, expr.go, inline.go: the
//     translation of declarations, statements and expressions; calls of the
//     file's own functions are inlined.
//   - memory.go: the memory layout (objects, their cells, pointers into
//     them).
//   - domain.go, sizemax.go: the value domain the translation needs.
//   - libc.go: the model of the C library, routine by routine.
//   - api.go and api_*.go: the OpenSHMEM API, one family per file (rma,
//     amo, signal, wait, waitmany, lock, ctx, team, coll); headers_api.go
//     declares the teams, collectives, strided and signal routines.
//
// The C is parsed and type-checked by modernc.org/cc/v4 with a
// configuration built here. The translation is exact or refused: a
// construct outside the subset is an error with its position and name,
// never an approximation.
//
// It implements issue 26 on top of the calculus of issue 25
// (docs/shmem-calculus.md); the mapping, call by call, is in docs/shmem.md.
//
// Imports: the standard library, pgas, modernc.org/cc/v4.
package cfront
