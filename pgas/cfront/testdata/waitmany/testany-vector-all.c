/* testany-vector-status.c with f[1] selected too (status 0): test_any loads
 * both flags, in an order it chooses; loading f[1] then f[0], it can see the
 * two unordered atomics out of order (f[1] = 2, f[0] = 0): set f[0] -po->
 * set f[1] -cf-> load f[1] -po-> load f[0] -cf-> set f[0].
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
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
        shmem_long_atomic_set(&f[1], 2, 1);
    } else if (me == 1) {
        int st[2];
        long want[2];
        st[0] = 0;
        st[1] = 0;
        want[0] = 1;
        want[1] = 2;
        size_t i = shmem_long_test_any_vector(f, 2, st, SHMEM_CMP_EQ, want);
        if (i != SIZE_MAX)
            assert(data == 1);
    }
    return 0;
}
