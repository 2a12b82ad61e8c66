/* The root's plain store before a broadcast is visible to every PE after
 * it returns: PE 0 stores x, broadcasts; each PE then gets PE 0's x.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: PE 0's store precedes its call, which precedes every PE's return
 * (each PE's dest comes from the root's source): the get reads 1. The
 * others' events do not reach back to PE 0 (the root waits for nobody),
 * and nothing of PE 0 after its call conflicts with them.
 */
#include <shmem.h>
#include <assert.h>
long x;
long s = 1, d;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0)
        x = 1;
    shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);
    assert(shmem_long_g(&x, 0) == 1);
    return 0;
}
