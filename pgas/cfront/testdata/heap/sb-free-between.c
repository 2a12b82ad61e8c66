/* Store buffering with a shmem_free between each put and the load.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_free "calls a barrier on entry", and the implicit barriers of
 * the heap routines quiet the default context (OpenSHMEM 1.6, memory
 * management). As in sb-alloc-between.c both puts are delivered before
 * either load.
 */
#include <shmem.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long *x = shmem_calloc(1, sizeof(long));
    long *y = shmem_calloc(1, sizeof(long));
    long *z = shmem_malloc(sizeof(long));
    if (me == 0) {
        shmem_long_p(x, 1, 1);
    } else if (me == 1) {
        shmem_long_p(y, 1, 0);
    }
    shmem_free(z);
    long r = 0;
    if (me == 0) {
        r = *y;
    } else if (me == 1) {
        r = *x;
    }
    shmem_finalize();
    return 0;
}
