/* shmem_long_max_reduce (team) and shmem_long_max_to_all (active set)
 * complete nothing: the ring's put, the two reductions, the load.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: as fcollect-pending.c; the reductions synchronise the PEs but the
 * put may land after the load.
 */
#include <shmem.h>
#include <assert.h>
long buf;
long mine = 1, total, total2;
long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
long pSync[SHMEM_REDUCE_SYNC_SIZE];
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &total, &mine, 1);
    shmem_long_max_to_all(&total2, &total, 1, 0, 0, npes, pWrk, pSync);
    assert(buf == 1);
    return 0;
}
