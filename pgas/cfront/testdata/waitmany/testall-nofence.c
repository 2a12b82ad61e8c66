/* test_all on two flags raised by one PE's puts with no fence between them.
 * PE 0 puts data, fences, then puts f[0] and f[1], which share an epoch and
 * may land in either order. PE 1 tests both flags; the routine promises no
 * order for its loads, and in the order f[1], f[0] it can see f[1] = 1 and
 * f[0] = 0: put f[0] -po-> put f[1] -cf-> load f[1] -po-> load f[0] -cf->
 * put f[0], a cycle no SC run has. With loads in index order only, no cycle
 * (the two loads would see the puts in their program order or not at all),
 * so this file checks that every order is explored. PE 2 does nothing.
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
        shmem_long_p(&f[0], 1, 1);
        shmem_long_p(&f[1], 1, 1);
    } else if (me == 1) {
        if (shmem_long_test_all(f, 2, NULL, SHMEM_CMP_EQ, 1))
            assert(data == 1);
    }
    return 0;
}
