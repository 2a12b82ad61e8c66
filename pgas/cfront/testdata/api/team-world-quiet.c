/* The ring with shmem_quiet, then shmem_sync on SHMEM_TEAM_WORLD (the team
 * of every PE), the partner found by shmem_team_translate_pe.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the quiet delivers the put before the sync; the load after the
 * sync reads 1 (as barrier-active.c).
 */
#include <shmem.h>
#include <assert.h>
long buf;
int main(void) {
    int me = shmem_team_my_pe(SHMEM_TEAM_WORLD);
    int npes = shmem_team_n_pes(SHMEM_TEAM_WORLD);
    shmem_long_p(&buf, 1, shmem_team_translate_pe(SHMEM_TEAM_WORLD, (me + 1) % npes, SHMEM_TEAM_WORLD));
    shmem_quiet();
    shmem_sync(SHMEM_TEAM_WORLD);
    assert(buf == 1);
    return 0;
}
