/* The ring with the deprecated active-set shmem_sync over every PE: a
 * barrier that completes nothing (OpenSHMEM 1.6, shmem_sync).
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: as ring-sync.c: [put buf, PE 0] ->po sync ->po load buf (PE 1)
 * ->cf [put buf, PE 0] when the put lands after the load.
 */
#include <shmem.h>
#include <assert.h>
long buf;
long pSync[SHMEM_BARRIER_SYNC_SIZE];
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_sync(0, 0, npes, pSync);
    assert(buf == 1);
    return 0;
}
