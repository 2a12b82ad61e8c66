/* Message passing on two contexts with a fence on the first: the fence
 * orders only the operations of its own context. The C twin of
 * examples/shmem-calculus/two-contexts.pgas.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: data goes on context c, the flag on context d; each context is an
 * independent ordering environment, so the flag can be delivered first
 * and PE 1 reads the old data: the cycle of mp-none.c.
 */
#include <shmem.h>
#include <assert.h>

long data, flag;
shmem_ctx_t c, d;

int main(void) {
    shmem_init();
    shmem_ctx_create(0, &c);
    shmem_ctx_create(0, &d);
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_ctx_long_p(c, &data, 1, 1);
        shmem_ctx_fence(c);
        shmem_ctx_long_p(d, &flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_ctx_destroy(c);
    shmem_ctx_destroy(d);
    shmem_finalize();
    return 0;
}
