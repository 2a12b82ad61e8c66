/* As testall-nofence.c with a fence between the two flags: PE 0's puts are
 * delivered in program order (data, f[0], f[1]), so whatever order PE 1
 * loads the flags in, it reads a prefix of that sequence, as under SC; its
 * load of data after both flags read 1 comes after data landed. No cycle.
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
        shmem_long_p(&f[0], 1, 1);
        shmem_fence();
        shmem_long_p(&f[1], 1, 1);
    } else if (me == 1) {
        if (shmem_long_test_all(f, 2, NULL, SHMEM_CMP_EQ, 1))
            assert(data == 1);
    }
    return 0;
}
