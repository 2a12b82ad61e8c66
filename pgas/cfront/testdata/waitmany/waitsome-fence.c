/* Message passing through wait_until_some: PE 0 puts data, fences, and
 * raises f[0] by an atomic; f[1] is never raised. PE 1 waits until some
 * flag is set: its last polling round loads both flags, f[0] by an atomic
 * await (the branch awaiting f[1] never completes), then reads data. The
 * fence delivers data before f[0], so the read of data after the await sees
 * it; the load of f[1] conflicts with nothing. No cycle.
 * expect: N=2 ROBUST, N=3 ROBUST
 */
#include <shmem.h>
#include <assert.h>
long f[2];
long data;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_fence();
        shmem_long_atomic_set(&f[0], 1, 1);
    } else if (me == 1) {
        size_t idx[2];
        size_t k = shmem_long_wait_until_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    return 0;
}
