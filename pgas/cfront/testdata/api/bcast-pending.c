/* A broadcast completes none of the caller's earlier puts: the ring's
 * put, shmem_broadcast from PE 0, then the load.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: PE 1 returns from the broadcast only after PE 0 has called it,
 * but the put of PE 0 may still be in flight: [p buf, PE 0] ->po
 * broadcast (PE 0) -> return of PE 1 ->po load buf ->cf [p buf, PE 0].
 */
#include <shmem.h>
#include <assert.h>
long buf;
long s = 1, d;
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_long_p(&buf, 1, (me + 1) % npes);
    shmem_long_broadcast(SHMEM_TEAM_WORLD, &d, &s, 1, 0);
    if (me == 1)
        assert(buf == 1);
    return 0;
}
