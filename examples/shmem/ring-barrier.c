/* A neighbour ring with shmem_barrier_all: every PE puts 1 into its right
 * neighbour's buf, then all meet at the barrier and read their own buf.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: barrier_all is a quiet on the default context and then a barrier
 * (docs/shmem-calculus.md), so every put is delivered before any PE leaves
 * the barrier: popb buf < barrier < load buf on every PE. All conflicts go
 * forward; ring-sync.c has the same ring with shmem_sync_all.
 */
#include <shmem.h>
#include <assert.h>

long buf;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_barrier_all();
    assert(buf == 1);
    shmem_finalize();
    return 0;
}
