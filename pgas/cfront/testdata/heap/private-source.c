/* A private buffer from malloc as the source of a two-element put, then a
 * fence and a flag.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: as examples/shmem/mp-fence.c, with two data cells: both element
 * puts are delivered before the flag (the fence), the flag before PE 1's
 * wait, which precedes its loads of dst[0] and dst[1]. The source is
 * private to PE 0, which writes it before the put: no conflict there.
 */
#include <shmem.h>
#include <stdlib.h>
#include <assert.h>

long dst[2], flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long *buf = malloc(2 * sizeof(long));
        buf[0] = 1;
        buf[1] = 1;
        shmem_long_put(dst, buf, 2, 1);
        shmem_fence();
        shmem_long_p(&flag, 1, 1);
        free(buf);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(dst[0] + dst[1] == 2);
    }
    shmem_finalize();
    return 0;
}
