/* Message passing whose reader is inside or outside a sync over PEs 0
 * and 1 (the deprecated active-set shmem_sync, PE_start 0, logPE_stride
 * 0, PE_size 2). PE 0 syncs, puts x to the last PE, then sets its flag f;
 * the last PE gets f from PE 0 and, when it is 1, loads x.
 * expect: N=2 ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 * Why: at N = 2 the reader is PE 1, which reads before its sync, and PE
 * 0 writes after its own: the get of f precedes the store of f, so it
 * reads 0 and the load of x does not happen. At N >= 3 the reader is
 * outside the set, nothing orders it against PE 0, and message passing
 * without a fence closes [put x] ->po store f ->cf [get f] ->po load x
 * ->cf [put x] when the put lands late.
 */
#include <shmem.h>
#include <assert.h>
long x, f;
long pSync[SHMEM_BARRIER_SYNC_SIZE];
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    if (me == npes - 1 && shmem_long_g(&f, 0) == 1)
        assert(x == 1);
    if (me == 1)
        shmem_sync(0, 0, 2, pSync);
    if (me == 0) {
        shmem_sync(0, 0, 2, pSync);
        shmem_long_p(&x, 1, npes - 1);
        f = 1;
    }
    return 0;
}
