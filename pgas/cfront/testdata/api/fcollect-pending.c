/* A collective on data completes none of the caller's earlier puts: the
 * ring's put, then shmem_fcollect, then the load.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: no PE returns from fcollect before every PE has called it (each
 * PE's result holds every PE's data), which is the cycle of ring-sync.c:
 * [put buf, PE 0] ->po fcollect ->po load buf (PE 1) ->cf [put buf, PE 0]
 * when the put lands after the load.
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
    shmem_long_fcollect(SHMEM_TEAM_WORLD, all, &src, 1);
    assert(buf == 1);
    return 0;
}
