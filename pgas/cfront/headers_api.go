package cfront

import (
	"fmt"
	"strings"
)

// The part of shmem.h for teams, collectives, strided transfers, the
// standalone signal routines, thread levels, global exit and the atomics
// the translation refuses by name (api_team.go, api_coll.go, api_rma.go,
// api_signal.go, api_amo.go): declared so that cc type-checks a call and
// the translation can name it, whether it translates or refuses it.

// apiConstants are the constants of those routines. The sizes of the
// pSync and pWrk arrays are implementation-defined (OpenSHMEM 1.6,
// library constants); the smallest positive sizes keep the cells few.
const apiConstants = `extern shmem_team_t __cfront_team_shared;
extern shmem_team_t __cfront_team_invalid;
#define SHMEM_TEAM_SHARED __cfront_team_shared
#define SHMEM_TEAM_INVALID __cfront_team_invalid
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 1
#define SHMEM_BARRIER_SYNC_SIZE 1
#define SHMEM_BCAST_SYNC_SIZE 1
#define SHMEM_COLLECT_SYNC_SIZE 1
#define SHMEM_ALLTOALL_SYNC_SIZE 1
#define SHMEM_ALLTOALLS_SYNC_SIZE 1
#define SHMEM_REDUCE_SYNC_SIZE 1
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1
#define SHMEM_TEAM_NUM_CONTEXTS 1L
typedef struct { int num_contexts; } shmem_team_config_t;
`

// apiPlain are the untyped routines of those families. shmem_sync has two
// C bindings (team and deprecated active set); it is declared without a
// prototype so that both type-check, and the translation tells them apart
// by their arguments.
const apiPlain = `int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
int shmem_sync();
void shmem_sync_deprecated(int PE_start, int logPE_stride, int PE_size, long *pSync);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size, const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config, long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config, long yaxis_mask, shmem_team_t *yaxis_team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems);
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
int shmem_addr_accessible(const void *addr, int pe);
int shmem_pe_accessible(int pe);
void shmem_pcontrol(const int level, ...);
`

// apiSized are the sized forms: BITS and the active-set collectives.
const apiSized = `void shmem_iputBITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
void shmem_igetBITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
void shmem_ctx_iputBITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
void shmem_ctx_igetBITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
void shmem_broadcastBITS(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_collectBITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_fcollectBITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoallBITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoallsBITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
`

// apiTyped are the typed routines of those families ("result name
// (parameters)", T the type; ctx: also a shmem_ctx_TYPE_ form).
var apiTyped = []struct {
	proto string
	ctx   bool
}{
	{"void iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)", true},
	{"void iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)", true},
	{"int broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root)", false},
	{"int collect(shmem_team_t team, T *dest, const T *source, size_t nelems)", false},
	{"int fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)", false},
	{"int alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)", false},
	{"int alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems)", false},
	{"void atomic_fetch_nbi(T *fetch, const T *source, int pe)", true},
	{"void atomic_fetch_inc_nbi(T *fetch, T *dest, int pe)", true},
	{"void atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe)", true},
	{"void atomic_swap_nbi(T *fetch, T *dest, T value, int pe)", true},
	{"void atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe)", true},
	{"void atomic_and(T *dest, T value, int pe)", true},
	{"void atomic_or(T *dest, T value, int pe)", true},
	{"void atomic_xor(T *dest, T value, int pe)", true},
	{"T atomic_fetch_and(T *dest, T value, int pe)", true},
	{"T atomic_fetch_or(T *dest, T value, int pe)", true},
	{"T atomic_fetch_xor(T *dest, T value, int pe)", true},
	{"void atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe)", true},
	{"void atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe)", true},
	{"void atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe)", true},
}

// reduceOps are the reductions on integer types (OpenSHMEM 1.6, Table
// of reduction types: and/or/xor on the unsigned and fixed-width types,
// max/min/sum/prod on all; the translation does not need the split).
var reduceOps = []string{"and", "or", "xor", "max", "min", "sum", "prod"}

// apiH writes this block of shmem.h.
func apiH(b *strings.Builder) {
	b.WriteString(apiConstants)
	b.WriteString(apiPlain)
	b.WriteString(apiSession) // api_session.go
	for _, bits := range []string{"8", "16", "32", "64", "128"} {
		b.WriteString(strings.ReplaceAll(apiSized, "BITS", bits))
	}
	for _, p := range apiTyped {
		res, rest, _ := strings.Cut(p.proto, " ")
		name, params, _ := strings.Cut(rest, "(")
		for _, t := range elemTypes {
			r := strings.ReplaceAll(res, "T", t[1])
			ps := strings.ReplaceAll(params, "T ", t[1]+" ")
			fmt.Fprintf(b, "%s shmem_%s_%s(%s;\n", r, t[0], name, ps)
			if p.ctx {
				fmt.Fprintf(b, "%s shmem_ctx_%s_%s(shmem_ctx_t ctx, %s;\n", r, t[0], name, ps)
			}
		}
	}
	for _, t := range elemTypes {
		for _, op := range reduceOps {
			fmt.Fprintf(b, "int shmem_%s_%s_reduce(shmem_team_t team, %s *dest, const %s *source, size_t nreduce);\n", t[0], op, t[1], t[1])
			fmt.Fprintf(b, "void shmem_%s_%s_to_all(%s *dest, const %s *source, int nreduce, int PE_start, int logPE_stride, int PE_size, %s *pWrk, long *pSync);\n", t[0], op, t[1], t[1], t[1])
		}
	}
	// the generic (C11) forms of these routines, as in plainProtos
	for _, g := range []string{"void shmem_iput(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
		"void shmem_iget(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
		"int shmem_broadcast(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);",
		"int shmem_collect(shmem_team_t team, void *dest, const void *source, size_t nelems);",
		"int shmem_fcollect(shmem_team_t team, void *dest, const void *source, size_t nelems);",
		"int shmem_alltoall(shmem_team_t team, void *dest, const void *source, size_t nelems);",
		"int shmem_alltoalls(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems);",
		"void shmem_atomic_and(void *dest, long value, int pe);", "void shmem_atomic_or(void *dest, long value, int pe);",
		"void shmem_atomic_xor(void *dest, long value, int pe);", "long shmem_atomic_fetch_and(void *dest, long value, int pe);",
		"long shmem_atomic_fetch_or(void *dest, long value, int pe);", "long shmem_atomic_fetch_xor(void *dest, long value, int pe);",
		"void shmem_atomic_fetch_nbi(void *fetch, const void *source, int pe);",
		"void shmem_atomic_fetch_inc_nbi(void *fetch, void *dest, int pe);",
		"void shmem_atomic_fetch_add_nbi(void *fetch, void *dest, long value, int pe);",
		"void shmem_atomic_swap_nbi(void *fetch, void *dest, long value, int pe);",
		"void shmem_atomic_compare_swap_nbi(void *fetch, void *dest, long cond, long value, int pe);",
	} {
		b.WriteString(g + "\n")
	}
	for _, op := range reduceOps {
		fmt.Fprintf(b, "int shmem_%s_reduce(shmem_team_t team, void *dest, const void *source, size_t nreduce);\n", op)
	}
}
