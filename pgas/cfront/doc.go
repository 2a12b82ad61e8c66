// Package cfront is the C front end of pgasrob: it reads a C program
// written against OpenSHMEM 1.6 (a subset, docs/shmem.md) and translates
// it into the .pgas language with the OpenSHMEM constructs of
// docs/shmem-calculus.md, keeping for every generated line the C position
// and the call as written, so that witnesses speak of the C program.
//
// The C is parsed and type-checked by modernc.org/cc/v4 with a
// configuration built here and headers of our own (shmem.h, assert.h,
// stdlib.h, stdio.h, stddef.h, stdint.h), so no host compiler or system
// header is involved. The translation is exact or refused: a construct
// outside the subset is an error with its position and name, never an
// approximation.
//
// It implements issue 26 on top of the calculus of issue 25
// (docs/shmem-calculus.md); the mapping, call by call, is in docs/shmem.md.
//
// Imports: the standard library, pgas, modernc.org/cc/v4.
package cfront
