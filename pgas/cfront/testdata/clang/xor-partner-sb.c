/* Store buffering between partners me ^ 1, guarded by the PE count.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: me ^ 1 is 1 for PE 0 and 0 for PE 1 (and 3 for PE 2, which the
 * guard skips at N = 3), so PEs 0 and 1 run sb.c of examples/shmem: each
 * puts into the other's x and then reads its own x; both loads may come
 * before both deliveries, the cycle
 *   [put x to 1] ->po load x(0) ->cf [put x to 0] ->po load x(1) ->cf [put x to 1].
 */
#include <shmem.h>

long x;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int partner = me ^ 1;
    if (partner < shmem_n_pes()) {
        shmem_long_p(&x, 1, partner);
        r = x;
    }
    shmem_finalize();
    return 0;
}
