/* As fcollect-pending.c with shmem_quiet before the collective.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the put is delivered before PE 0 calls fcollect, and PE 1 returns
 * from it only after PE 0 has called it; its load reads 1. The gets of
 * the collective read src, which nobody writes, and write all, which
 * nobody else touches: no cycle.
 */
#include <shmem.h>
#include <assert.h>
long buf;
long src = 1;
long all[16];
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_quiet();
    shmem_long_fcollect(SHMEM_TEAM_WORLD, all, &src, 1);
    assert(buf == 1);
    assert(all[0] == 1);
    return 0;
}
