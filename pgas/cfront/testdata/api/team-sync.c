/* The ring with shmem_team_sync on SHMEM_TEAM_WORLD: a barrier of every
 * PE that completes no remote update.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: the put may land after the load that follows the sync (the cycle
 * of ring-sync.c).
 */
#include <shmem.h>
#include <assert.h>
long buf;
int main(void) {
    int me = shmem_team_my_pe(SHMEM_TEAM_WORLD);
    int npes = shmem_team_n_pes(SHMEM_TEAM_WORLD);
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_team_sync(SHMEM_TEAM_WORLD);
    assert(buf == 1);
    return 0;
}
