/* 2+2W: PE 0 puts x = 1 and then y = 2 into PE 1, which itself stores
 * y = 1 and then x = 2.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: the two puts are unordered. If y = 2 is delivered before PE 1's
 * store y = 1 and x = 1 after PE 1's store x = 2 (final x == 1, y == 1):
 *   [put x] ->po [put y] ->cf store y ->po store x ->cf [put x]
 * 2+2w-fence.c puts a fence between the puts, which forbids it.
 */
#include <shmem.h>

long x, y;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&x, 1, 1);
        shmem_long_p(&y, 2, 1);
    } else if (me == 1) {
        y = 1;
        x = 2;
    }
    shmem_finalize();
    return 0;
}
