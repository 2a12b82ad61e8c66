/* barrier-evens.c with the deprecated active-set shmem_sync instead of
 * shmem_barrier: the same barrier over the even PEs, without the quiet.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 * Why: [put buf by a member] ->po sync (its bar event, one class with
 * the target's) ->po load buf (the target) ->cf [put buf] when the put
 * lands after the load: the barrier completes nothing. At N = 2 the set
 * is PE 0 alone, whose put to itself closes the same cycle.
 */
#include <shmem.h>
#include <assert.h>
long buf;
long pSync[SHMEM_BARRIER_SYNC_SIZE];
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    if (me % 2 == 0) {
        int next = me + 2 < npes ? me + 2 : 0;
        shmem_long_p(&buf, 1, next);
        shmem_sync(0, 1, (npes + 1) / 2, pSync);
        assert(buf == 1);
    }
    return 0;
}
