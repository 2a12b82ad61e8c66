/* Contexts as locals of main and as an array: data on the local context
 * c (created with SHMEM_CTX_NOSTORE), a quiet on c, then the flag on
 * cs[1], the array created and destroyed in loops (computed index).
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the quiet on c delivers the data before the flag is even issued;
 * PE 1 sees the flag, so it reads 1. NOSTORE concerns plain stores only.
 */
#include <shmem.h>
#include <assert.h>
long data, flag;
shmem_ctx_t cs[2];
int main(void) {
    shmem_ctx_t c;
    int me = shmem_my_pe();
    shmem_ctx_create(SHMEM_CTX_NOSTORE, &c);
    for (int i = 0; i < 2; i++)
        shmem_ctx_create(SHMEM_CTX_PRIVATE, &cs[i]);
    if (me == 0) {
        shmem_ctx_long_p(c, &data, 1, 1);
        shmem_ctx_quiet(c);
        shmem_ctx_long_atomic_set(cs[1], &flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    for (int i = 0; i < 2; i++)
        shmem_ctx_destroy(cs[i]);
    shmem_ctx_destroy(c);
    return 0;
}
