/* test_any_vector with a status array: PE 1 tests f[0] == 1 and f[1] == 2
 * (per-element values), f[1] excluded by its status. PE 0 puts data, fences,
 * and sets f[0] := 1 and f[1] := 2 by atomics in one epoch. The only index
 * test_any can return is 0, after a load of f[0] that read 1; data was
 * delivered before f[0], so the read of data sees it. The load of f[1] never
 * happens (excluded), so the two unordered flags cannot form the cycle of
 * testall-nofence.c. No cycle.
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
        shmem_long_atomic_set(&f[1], 2, 1);
    } else if (me == 1) {
        int st[2];
        long want[2];
        st[0] = 0;
        st[1] = 1;
        want[0] = 1;
        want[1] = 2;
        size_t i = shmem_long_test_any_vector(f, 2, st, SHMEM_CMP_EQ, want);
        if (i != SIZE_MAX)
            assert(data == 1);
    }
    return 0;
}
