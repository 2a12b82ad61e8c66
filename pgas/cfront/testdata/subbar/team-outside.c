/* sync-outside.c with a team: PEs 0 and 1 split off by
 * shmem_team_split_strided (start 0, stride 1, size 2) and synchronised
 * by shmem_team_sync on it.
 * expect: N=2 ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 * Why: as sync-outside.c; the team is PEs 0 and 1 at every N >= 2.
 */
#include <shmem.h>
#include <assert.h>
long x, f;
int main(void) {
    shmem_team_t pair;
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, NULL, 0, &pair);
    if (me == npes - 1 && shmem_long_g(&f, 0) == 1)
        assert(x == 1);
    if (me == 1)
        shmem_team_sync(pair);
    if (me == 0) {
        shmem_team_sync(pair);
        shmem_long_p(&x, 1, npes - 1);
        f = 1;
    }
    shmem_finalize();
    return 0;
}
