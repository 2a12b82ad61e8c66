/* PE 0 stores a[0] and a[2], then raises PE 1's flag by an atomic; PE 1
 * waits for it and gets both elements by one strided get.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the stores precede the flag in PE 0's program order and plain
 * stores are visible at once to gets (docs/shmem-calculus.md); the get
 * is blocking, so the load of b[1] after it reads 1.
 */
#include <shmem.h>
#include <assert.h>
long a[4];
long b[2];
long flag;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        a[0] = 1;
        a[2] = 1;
        shmem_long_atomic_set(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        shmem_long_iget(b, a, 1, 2, 2, 0);
        assert(b[1] == 1);
    }
    return 0;
}
