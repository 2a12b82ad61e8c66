/* Message passing on two contexts of an array, chosen by a computed
 * index, with a fence on the first only.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: a fence orders operations of its own context; the data on ctx[0]
 * and the flag on ctx[1] stay unordered (as two-contexts.c):
 * [p data] ->po [p flag] ->cf await (PE 1) ->po load data ->cf [p data].
 */
#include <shmem.h>
#include <assert.h>
long data, flag;
int main(void) {
    shmem_ctx_t ctx[2];
    int me = shmem_my_pe();
    for (int i = 0; i < 2; i++)
        shmem_ctx_create(0, &ctx[i]);
    if (me == 0) {
        for (int i = 0; i < 2; i++) {
            if (i == 0)
                shmem_ctx_long_p(ctx[i], &data, 1, 1);
            else
                shmem_ctx_long_atomic_set(ctx[i], &flag, 1, 1);
            shmem_ctx_fence(ctx[0]);
        }
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    return 0;
}
