/* A blocking put of two elements from a symmetric source that only its
 * own PE writes (plain stores): accepted, since nobody can write the
 * source while the call reads it. Then a fence and a flag.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the stores precede the put in PE 0's program order; the fence
 * delivers both elements before the flag; PE 1 sees the flag and reads
 * d[1] = 1.
 */
#include <shmem.h>
#include <assert.h>
long s[2], d[2];
long flag;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        s[0] = 1;
        s[1] = 1;
        shmem_long_put(d, s, 2, 1);
        shmem_fence();
        shmem_long_atomic_set(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(d[1] == 1);
    }
    return 0;
}
