/* counter.c with shmem_sync_all in place of shmem_barrier_all: every PE
 * increments a counter on PE 0 with a non-fetching atomic, then all
 * synchronise and PE 0 checks the counter.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: a non-fetching atomic is delivered some time after the call
 * returns, and shmem_sync_all does not complete it (1.6, sync_all). PE
 * 1's increment can land after PE 0 passed the sync and read the counter:
 *   inc (PE 1) -po-> sync (PE 1) <-> sync (PE 0) -po-> load counter (PE 0)
 *   -cf-> delivery of the inc <-> inc:
 * a cycle; PE 0 then reports a wrong count, which no SC run can.
 */
#include <shmem.h>
#include <stdio.h>

long counter;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();

    shmem_long_atomic_inc(&counter, 0);
    shmem_sync_all();
    if (me == 0) {
        if (counter != npes) {
            printf("counter is %ld, expected %d\n", counter, npes);
            shmem_global_exit(1);
        }
        printf("counter = %ld\n", counter);
    }
    shmem_finalize();
    return 0;
}
