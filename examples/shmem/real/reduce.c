/* A reduction with the library's collective: every PE contributes me + 1
 * to a sum over the world team and checks the result on return.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_long_sum_reduce is a blocking collective: on return the
 * destination holds the reduction of every PE's source (1.6, reductions),
 * and the source and destination are written by nobody else meanwhile.
 * The only remote writes are the collective's own deliveries into dest,
 * which all complete before the PE that owns dest returns and reads it;
 * the sources are read before their owners return. No conflict goes
 * backwards: no cycle.
 */
#include <shmem.h>
#include <stdio.h>

long src, dst;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();

    src = me + 1;
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &dst, &src, 1);
    if (dst != npes * (npes + 1) / 2) {
        printf("PE %d: sum %ld is wrong\n", me, dst);
        shmem_global_exit(1);
    }
    shmem_finalize();
    return 0;
}
