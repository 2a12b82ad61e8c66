/* The halo exchange of halo.c with the classic mistake: shmem_sync_all in
 * place of shmem_barrier_all, which looks alike and costs less.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: shmem_sync_all synchronises the PEs but, unlike barrier_all, does
 * not complete the puts issued before it (OpenSHMEM 1.6, sync_all: it
 * makes no promise about outstanding stores). So PE 0's put into PE 1's
 * ghost u[0] can be delivered after PE 1 passed the sync and read u[0]:
 *   put (PE 0) -po-> sync (PE 0) <-> sync (PE 1) -po-> load u[0] (PE 1)
 *   -cf-> delivery of the put, which is the same remote access as the put:
 * a happens-before cycle, which no SC run has. At N = 2 and 3 alike.
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
        shmem_sync_all();
        if (step == 0 && (u[0] != left || u[NLOC + 1] != right)) {
            fprintf(stderr, "PE %d: wrong halo %ld %ld\n", me, u[0], u[NLOC + 1]);
            shmem_global_exit(1);
        }
        for (int i = 1; i <= NLOC; i++)
            unew[i] = (u[i - 1] + u[i] + u[i + 1]) % 7;
        shmem_sync_all();
        memcpy(&u[1], &unew[1], NLOC * sizeof(long));
    }

    printf("PE %d: u[1] = %ld\n", me, u[1]);
    shmem_free(u);
    shmem_finalize();
    return 0;
}
