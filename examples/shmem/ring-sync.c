/* The neighbour ring of ring-barrier.c with shmem_sync_all, which
 * synchronises the PEs but completes nothing.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: PE 0's put to PE 1 may still be in flight after the barrier; PE 1
 * then reads 0:
 *   [put buf, PE 0] ->po barrier ->po load buf (PE 1) ->cf [put buf, PE 0]
 * (the barrier's events of all PEs form one class).
 */
#include <shmem.h>
#include <assert.h>

long buf;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_sync_all();
    assert(buf == 1);
    shmem_finalize();
    return 0;
}
