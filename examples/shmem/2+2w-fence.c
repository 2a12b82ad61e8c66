/* 2+2W with a fence between PE 0's puts.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the cycle of 2+2w.c needs popb y < store y < store x < popb x,
 * but the fence delivers x before y (same target PE, same context):
 * popb x < popb y. Every other order of the conflicts goes forward from
 * [put x] and [put y] to PE 1's stores, or from both stores to both puts;
 * neither closes a cycle.
 */
#include <shmem.h>

long x, y;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&x, 1, 1);
        shmem_fence();
        shmem_long_p(&y, 2, 1);
    } else if (me == 1) {
        y = 1;
        x = 2;
    }
    shmem_finalize();
    return 0;
}
