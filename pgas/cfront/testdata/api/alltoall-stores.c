/* shmem_alltoall as a synchronisation of plain stores: each PE stores
 * its own x, then alltoall, then gets its neighbour's x.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the neighbour's store precedes its call, which precedes this PE's
 * return (its block of the result comes from that PE's source): the get
 * reads 1. The blocks move between the calls and the returns; nothing
 * else touches src or dst.
 */
#include <shmem.h>
#include <assert.h>
long x;
long src[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
long dst[16];
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    x = 1;
    shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1);
    assert(shmem_long_g(&x, (me + 1) % npes) == 1);
    return 0;
}
