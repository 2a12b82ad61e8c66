/* Store buffering with a quiet after each put.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the cycle of sb.c needs PE 0's load of y before PE 1's put of y is
 * delivered and PE 1's load of x before PE 0's put of x is delivered. With
 * the quiets, popb x < quiet(PE 0) < load y and popb y < quiet(PE 1) <
 * load x; together with load y < popb y and load x < popb x that is
 * popb x < load y < popb y < load x < popb x, impossible. Any other
 * conflict order goes forward.
 */
#include <shmem.h>

long x, y;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&x, 1, 1);
        shmem_quiet();
        r = y;
    } else if (me == 1) {
        shmem_long_p(&y, 1, 0);
        shmem_quiet();
        r = x;
    }
    shmem_finalize();
    return 0;
}
