/* A strided put of two elements (a[0] and a[2]), a fence, a flag by an
 * atomic; PE 1 waits for the flag and reads a[2].
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the fence delivers both elements before the flag; PE 1 sees the
 * flag, so a[2] holds 1.
 */
#include <shmem.h>
#include <assert.h>
long a[4];
long flag;
int main(void) {
    long src[2];
    int me = shmem_my_pe();
    if (me == 0) {
        src[0] = 1;
        src[1] = 1;
        shmem_long_iput(a, src, 2, 1, 2, 1);
        shmem_fence();
        shmem_long_atomic_set(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(a[2] == 1);
    }
    return 0;
}
