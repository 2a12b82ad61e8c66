/* A 1-D stencil with a halo exchange, as a grid code would write it: every
 * PE owns NLOC interior cells of u (on the symmetric heap) and two ghost
 * cells, u[0] and u[NLOC+1]. Each step it puts its edge cells into the
 * neighbours' ghost cells, waits at a barrier, computes, and waits at a
 * second barrier before the next exchange may overwrite the ghosts.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_barrier_all completes every put issued before it (OpenSHMEM
 * 1.6, barrier_all: previously issued stores and RMA updates are complete
 * on return), so the puts of step s land before any PE passes the first
 * barrier of step s, and every PE reads its ghosts between the first and
 * the second barrier of that step. The puts of step s+1 are issued after
 * the second barrier. So every conflict on a ghost cell goes from an
 * earlier barrier phase to a later one, and the edge cells read as
 * sources are written only by their own PE (memcpy after the second
 * barrier): no conflict goes backwards, no cycle.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NLOC 2
#define NSTEPS 2

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    int left = (me + npes - 1) % npes;
    int right = (me + 1) % npes;

    long *u = shmem_malloc((NLOC + 2) * sizeof(long));
    long unew[NLOC + 2];
    if (u == NULL) {
        fprintf(stderr, "PE %d: shmem_malloc failed\n", me);
        shmem_global_exit(1);
    }
    for (int i = 0; i < NLOC + 2; i++)
        u[i] = me;
    shmem_barrier_all();

    for (int step = 0; step < NSTEPS; step++) {
        shmem_long_put(&u[NLOC + 1], &u[1], 1, left);
        shmem_long_put(&u[0], &u[NLOC], 1, right);
        shmem_barrier_all();
        if (step == 0 && (u[0] != left || u[NLOC + 1] != right)) {
            fprintf(stderr, "PE %d: wrong halo %ld %ld\n", me, u[0], u[NLOC + 1]);
            shmem_global_exit(1);
        }
        for (int i = 1; i <= NLOC; i++)
            unew[i] = (u[i - 1] + u[i] + u[i + 1]) % 7;
        shmem_barrier_all();
        memcpy(&u[1], &unew[1], NLOC * sizeof(long));
    }

    printf("PE %d: u[1] = %ld\n", me, u[1]);
    shmem_free(u);
    shmem_finalize();
    return 0;
}
