/* Store buffering with an allocation between each put and the load.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_malloc "calls a procedure that is semantically equivalent to
 * shmem_barrier_all on exit" (OpenSHMEM 1.6), and its implicit barrier
 * quiets the default context. So each put is delivered before any PE
 * leaves the allocation, and both loads come after it and read 1: the run
 * is the sequentially consistent one where both puts precede both loads.
 * Without the allocation in the middle this is sb-helper.c, NOT ROBUST.
 */
#include <shmem.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long *x = shmem_calloc(1, sizeof(long));
    long *y = shmem_calloc(1, sizeof(long));
    if (me == 0) {
        shmem_long_p(x, 1, 1);
    } else if (me == 1) {
        shmem_long_p(y, 1, 0);
    }
    long *z = shmem_malloc(sizeof(long));
    long r = 0;
    if (me == 0) {
        r = *y;
    } else if (me == 1) {
        r = *x;
    }
    shmem_free(z);
    shmem_finalize();
    return 0;
}
