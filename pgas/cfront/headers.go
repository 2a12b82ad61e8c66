package cfront

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"testing/fstest"
)

// The headers a C program of the subset may include. They are ours, served
// from memory: no host compiler or system header is ever read, so the front
// end works the same in a static binary on any machine. They declare what
// the compiler knows; anything else a program calls is refused by name.

// predefined stands for the macros a host compiler would predefine: the
// types cc needs to type sizeof and pointer differences, and the
// declarator cc expects in every translation unit.
const predefined = `#define __STDC__ 1
#define __STDC_VERSION__ 201112L
#define __STDC_HOSTED__ 1
#define __SIZE_TYPE__ unsigned long
#define __PTRDIFF_TYPE__ long
#define __WCHAR_TYPE__ int
int __predefined_declarator;
typedef __SIZE_TYPE__ __predefined_size_t;
typedef __PTRDIFF_TYPE__ __predefined_ptrdiff_t;
typedef __WCHAR_TYPE__ __predefined_wchar_t;
`

// elemTypes are the typed variants of the RMA, atomic and wait routines
// (OpenSHMEM 1.6, Tables 5 and 6): the name in the routine and the C type.
// Floating-point variants are left out: floating point is outside the
// subset, and a call to one is refused as an unknown routine.
var elemTypes = [][2]string{
	{"char", "char"}, {"schar", "signed char"}, {"short", "short"}, {"int", "int"},
	{"long", "long"}, {"longlong", "long long"}, {"uchar", "unsigned char"},
	{"ushort", "unsigned short"}, {"uint", "unsigned int"}, {"ulong", "unsigned long"},
	{"ulonglong", "unsigned long long"}, {"int8", "int8_t"}, {"int16", "int16_t"},
	{"int32", "int32_t"}, {"int64", "int64_t"}, {"uint8", "uint8_t"},
	{"uint16", "uint16_t"}, {"uint32", "uint32_t"}, {"uint64", "uint64_t"},
	{"size", "size_t"}, {"ptrdiff", "ptrdiff_t"},
}

// typedProtos are the routines with a TYPE in their name, as "result name
// (parameters)" with T for the type; those marked ctx also have a
// shmem_ctx_TYPE_… form taking the context first.
var typedProtos = []struct {
	proto string
	ctx   bool
}{
	{"void put(T *dest, const T *source, size_t nelems, int pe)", true},
	{"void put_nbi(T *dest, const T *source, size_t nelems, int pe)", true},
	{"void get(T *dest, const T *source, size_t nelems, int pe)", true},
	{"void get_nbi(T *dest, const T *source, size_t nelems, int pe)", true},
	{"void p(T *dest, T value, int pe)", true},
	{"T g(const T *source, int pe)", true},
	{"T atomic_fetch(const T *source, int pe)", true},
	{"void atomic_set(T *dest, T value, int pe)", true},
	{"void atomic_add(T *dest, T value, int pe)", true},
	{"void atomic_inc(T *dest, int pe)", true},
	{"T atomic_fetch_add(T *dest, T value, int pe)", true},
	{"T atomic_fetch_inc(T *dest, int pe)", true},
	{"T atomic_swap(T *dest, T value, int pe)", true},
	{"T atomic_compare_swap(T *dest, T cond, T value, int pe)", true},
	{"T fetch(const T *source, int pe)", false},
	{"void set(T *dest, T value, int pe)", false},
	{"void add(T *dest, T value, int pe)", false},
	{"void inc(T *dest, int pe)", false},
	{"T fadd(T *dest, T value, int pe)", false},
	{"T finc(T *dest, int pe)", false},
	{"T swap(T *dest, T value, int pe)", false},
	{"T cswap(T *dest, T cond, T value, int pe)", false},
	{"void wait_until(T *ivar, int cmp, T value)", false},
	{"void wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T value)", false},
	{"size_t wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T value)", false},
	{"size_t wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T value)", false},
	{"int test(T *ivar, int cmp, T value)", false},
	{"int test_all(T *ivars, size_t nelems, const int *status, int cmp, T value)", false},
	{"size_t test_any(T *ivars, size_t nelems, const int *status, int cmp, T value)", false},
	{"size_t test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T value)", false},
	{"void wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)", false},
	{"size_t wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)", false},
	{"size_t wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const T *cmp_values)", false},
	{"int test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)", false},
	{"size_t test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)", false},
	{"size_t test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const T *cmp_values)", false},
	{"void put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)", true},
	{"void put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)", true},
}

// plainProtos are the routines without a type in their name. The generic
// (C11 _Generic) forms take void pointers and long values here: the
// compiler finds the element type from the destination object.
const plainProtos = `void shmem_init(void);
void shmem_finalize(void);
int shmem_my_pe(void);
int shmem_n_pes(void);
void shmem_global_exit(int status);
void shmem_barrier_all(void);
void shmem_sync_all(void);
void shmem_fence(void);
void shmem_quiet(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_ctx_quiet(shmem_ctx_t ctx);
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);
void shmem_put(void *dest, const void *source, size_t nelems, int pe);
void shmem_put_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_get(void *dest, const void *source, size_t nelems, int pe);
void shmem_get_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_p(void *dest, long value, int pe);
long shmem_g(const void *source, int pe);
long shmem_atomic_fetch(const void *source, int pe);
void shmem_atomic_set(void *dest, long value, int pe);
void shmem_atomic_add(void *dest, long value, int pe);
void shmem_atomic_inc(void *dest, int pe);
long shmem_atomic_fetch_add(void *dest, long value, int pe);
long shmem_atomic_fetch_inc(void *dest, int pe);
long shmem_atomic_swap(void *dest, long value, int pe);
long shmem_atomic_compare_swap(void *dest, long cond, long value, int pe);
void shmem_wait_until(void *ivar, int cmp, long value);
int shmem_test(void *ivar, int cmp, long value);
void shmem_wait_until_all(void *ivars, size_t nelems, const int *status, int cmp, long value);
size_t shmem_wait_until_any(void *ivars, size_t nelems, const int *status, int cmp, long value);
size_t shmem_wait_until_some(void *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long value);
int shmem_test_all(void *ivars, size_t nelems, const int *status, int cmp, long value);
size_t shmem_test_any(void *ivars, size_t nelems, const int *status, int cmp, long value);
size_t shmem_test_some(void *ivars, size_t nelems, size_t *indices, const int *status, int cmp, long value);
void shmem_put_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_put_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void shmem_free(void *ptr);
void *shmem_ptr(const void *dest, int pe);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
int shmem_team_sync(shmem_team_t team);
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
`

// shmemH builds shmem.h: the constants, the context type, the plain and
// the typed prototypes.
func shmemH() string {
	var b strings.Builder
	b.WriteString(`#ifndef _SHMEM_H
#define _SHMEM_H
#include <stddef.h>
#include <stdint.h>
typedef struct __cfront_ctx *shmem_ctx_t;
typedef struct __cfront_team *shmem_team_t;
extern shmem_ctx_t __cfront_ctx_default;
extern shmem_team_t __cfront_team_world;
#define SHMEM_CTX_DEFAULT __cfront_ctx_default
#define SHMEM_TEAM_WORLD __cfront_team_world
#define SHMEM_CTX_PRIVATE 1L
#define SHMEM_CTX_SERIALIZED 2L
#define SHMEM_CTX_NOSTORE 4L
#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_GE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_LE 6
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
`)
	b.WriteString(plainProtos)
	for _, p := range typedProtos {
		res, rest, _ := strings.Cut(p.proto, " ")
		name, params, _ := strings.Cut(rest, "(")
		for _, t := range elemTypes {
			r := strings.ReplaceAll(res, "T", t[1])
			ps := strings.ReplaceAll(params, "T ", t[1]+" ")
			fmt.Fprintf(&b, "%s shmem_%s_%s(%s;\n", r, t[0], name, ps)
			if p.ctx {
				fmt.Fprintf(&b, "%s shmem_ctx_%s_%s(shmem_ctx_t ctx, %s;\n", r, t[0], name, ps)
			}
		}
	}
	for _, bits := range []string{"8", "16", "32", "64", "128"} {
		for _, op := range []string{"put", "get"} {
			for _, nbi := range []string{"", "_nbi"} {
				fmt.Fprintf(&b, "void shmem_%s%s%s(void *dest, const void *source, size_t nelems, int pe);\n", op, bits, nbi)
				fmt.Fprintf(&b, "void shmem_ctx_%s%s%s(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);\n", op, bits, nbi)
			}
		}
	}
	apiH(&b) // teams, collectives, strided, signals, threads (headers_api.go)
	// after every prototype: a generic name declared above as a function
	// (headers_api.go) must not be expanded in its own declaration
	b.WriteString(genericC11())
	b.WriteString("#endif\n")
	return b.String()
}

// includeDir is where the headers live in the file system given to cc; no
// host path can collide with it because cc reads only that file system.
const includeDir = "cfront-include"

// libHeaders are the C library's headers, one file each in include/: they
// declare what the model of the C library (libc.go) gives a meaning to.
//
//go:embed include/*.h include/sys/*.h
var libHeaders embed.FS

// headerFS is the file system of our headers, with shmem.h cut to the
// routines named (headers_prune.go).
func headerFS(named map[string]bool) fstest.MapFS {
	files := fstest.MapFS{includeDir + "/shmem.h": &fstest.MapFile{Data: []byte(shmemHFor(named))}}
	err := fs.WalkDir(libHeaders, "include", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := libHeaders.ReadFile(path)
		files[includeDir+strings.TrimPrefix(path, "include")] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		panic(err) // embedded at build time
	}
	return files
}
