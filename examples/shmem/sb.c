/* Store buffering: each of PE 0 and PE 1 puts 1 into the other's cell,
 * then reads its own.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: a blocking put returns before its data arrives. Both PEs can issue
 * their put, read their own cell (0: the other's put has not arrived) and
 * only then see the puts delivered:
 *   [put x] ->po load y ->cf [put y] ->po load x ->cf [put x]
 * (x lives on PE 1, y on PE 0). sb-quiet.c adds the quiet that forbids it.
 */
#include <shmem.h>

long x, y;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&x, 1, 1);
        r = y;
    } else if (me == 1) {
        shmem_long_p(&y, 1, 0);
        r = x;
    }
    shmem_finalize();
    return 0;
}
