/* shmem_ptr for another PE: this translation takes the NULL answer the
 * specification allows, so PE 0 takes its fallback path, two puts with
 * nothing between them.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: shmem_ptr(data, 1) is NULL on PE 0, which then behaves as
 * examples/shmem/mp-none.c (the flag may arrive before the data). The
 * direct store through mine (shmem_ptr for the calling PE, which is the
 * object itself) writes PE 0's own data, which no one reads.
 */
#include <shmem.h>
#include <assert.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long *mine = shmem_ptr(&data, shmem_my_pe());
        *mine = 1;
        long *p = shmem_ptr(&data, 1);
        if (p == NULL) {
            shmem_long_p(&data, 1, 1);
            shmem_long_p(&flag, 1, 1);
        }
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
