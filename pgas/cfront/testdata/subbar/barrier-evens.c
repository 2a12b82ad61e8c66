/* A ring over the even PEs, closed by the deprecated shmem_barrier on
 * their active set (PE_start 0, logPE_stride 1, PE_size the number of
 * even PEs): a quiet on the default context, then a barrier over them.
 * The odd PEs take no part and touch nothing.
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 * Why: each even PE's put is delivered before it enters the barrier
 * (the quiet), and the load of buf comes after every member's arrival,
 * so it follows the put into buf; nothing goes back.
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
        shmem_barrier(0, 1, (npes + 1) / 2, pSync);
        assert(buf == 1);
    }
    return 0;
}
