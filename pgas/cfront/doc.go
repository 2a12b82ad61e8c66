// Package cfront is the C front end of pgasrob: it reads a C program
// written against OpenSHMEM 1.6 (docs/shmem.md) and translates it into the
// .pgas language with the OpenSHMEM constructs of docs/shmem-calculus.md,
// keeping for every generated line the C position and the call as written,
// so that witnesses speak of the C program.
//
// It is shaped as a compiler, one file per job:
//
//   - cfront.go: the entry points (Translate, Compile) and the result.
//   - precheck.go: the structural checks before the parser (line length,
//     nesting), refused by name.
//   - preprocess.go, headers.go, include/: preprocessing with cc's
//     preprocessor, our predefined macros and pragmas (each refused by name
//     unless interpreted), and our own headers (no host compiler or system
//     header is ever read); the budget (Options.Context) around cc.
//   - headers_prune.go: shmem.h cut, per file, to the prototypes of the
//     routines the file can name (every one when token pasting or a
//     header of the user's makes that unknowable): a tenth of the parse.
//   - includes.go, compdb.go: the program's own headers (its directory,
//     -I), -D, and the flags of a compilation database.
//   - generic.go: the C11 _Generic forms of shmem.h's generic routines.
//   - predef.go: the warning for code a predefined macro removes.
//   - diag.go: diagnostics, every one at a C position and in our words;
//     BudgetError and InternalError.
//   - warnings.go: the warnings of a program or PE that communicates
//     nothing, and the modelling choices a program exercises.
//   - translator.go, decls.go, stmt.go, switch.go, expr.go, bitwise.go,
//     shiftrank.go (shifts and masks known on each PE once N is),
//     lowbound.go, lowbound_reg.go, sequence.go, inline.go: the
//     translation of declarations, statements and expressions
//     (unsequenced side effects refused); calls of the file's own
//     functions are inlined. reuse.go: the storage of ended blocks taken
//     again; statics.go, statics_uses.go: static locals of main whose
//     uses barriers separate share a cell; prune.go: dead code left out
//     before the line limit.
//   - memory.go, aggregate.go: the memory layout (objects, their cells,
//     arrays and structs of cells, pointers into them); pointer.go:
//     pointer variables, each fixed to one object with a constant or
//     register offset; heap.go, size.go: shmem_malloc and its family,
//     malloc, shmem_ptr, and their sizes (constants and N); straight.go:
//     where a construct runs once, which allocations and changes of a
//     pointer's object need.
//   - domain.go, sizemax.go, sizemax_assign.go: the value domain the
//     translation needs; unsigned_bits.go, unsigned_bits_uses.go:
//     unsigned values read as two's complement bit patterns where only
//     bitwise operations and equality meet them.
//   - buffer.go, buffer_forms.go, buffer_heap.go, buffer_assign.go,
//     buffer_plan.go: buffers at their real size (docs/deviations.md, entry
//     15): the buffers the collapse law applies to, and what of them the
//     translation for one N keeps; buffer_block.go: buffers of per-PE
//     blocks (B * npes elements, accessed a block at a time), shrunk
//     block by block, and sizes held in locals set once to a constant.
//   - tailcheck.go, tailcheck_forms.go, tailcheck_buf.go: dead checks
//     (docs/deviations.md, entry 18): comparisons of received values whose
//     outcome only prints, counts or stops at the end keep their loads and
//     are not evaluated.
//   - libc.go and libc_*.go: the model of the C library, routine by
//     routine (io, mem, args, time, env for getenv, file for fopen,
//     strptr for char * locals into constant strings).
//   - api.go and api_*.go: the OpenSHMEM API, one family per file (rma,
//     amo, amo_nbi, signal, wait, waitmany, lock, ctx, session, team,
//     team_strided, coll, coll_var); headers_api.go
//     declares the teams, collectives, strided and signal routines.
//
// The C is parsed and type-checked by modernc.org/cc/v4 with a
// configuration built here. The translation is exact or refused: a
// construct outside the subset is an error with its position and name,
// never an approximation; every refusal of a file is reported in one run
// (up to 30), and a fault of the front end is an InternalError.
//
// It implements issue 26 on top of the calculus of issue 25
// (docs/shmem-calculus.md); the mapping, call by call, is in docs/shmem.md.
//
// Imports: the standard library, pgas, modernc.org/cc/v4.
package cfront
