/* The neighbour ring with the deprecated active-set shmem_barrier over
 * every PE: a quiet on the default context, then a barrier.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the quiet delivers the put before the PE enters the barrier, so
 * the load after it reads 1; the put's class precedes the load through
 * the barrier and nothing goes back.
 */
#include <shmem.h>
#include <assert.h>
long buf;
long pSync[SHMEM_BARRIER_SYNC_SIZE];
int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_barrier(0, 0, npes, pSync);
    assert(buf == 1);
    shmem_finalize();
    return 0;
}
