/* gather.c with shmem_sync_all in place of the barrier: every PE puts its
 * partial result into its slot on PE 0, all synchronise, PE 0 adds up.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: shmem_sync_all does not complete PE 1's put (1.6, sync_all), so
 * it can land in part[1] after PE 0 read it:
 *   put part[1] (PE 1) -po-> sync (PE 1) <-> sync (PE 0) -po-> load part[1]
 *   (PE 0) -cf-> delivery of the put <-> put: a cycle.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long *part = shmem_calloc(npes, sizeof(long));
    long mine = me + 1;

    shmem_long_put(&part[me], &mine, 1, 0);
    shmem_sync_all();
    if (me == 0) {
        long sum = 0;
        for (int pe = 0; pe < npes; pe++)
            sum += part[pe];
        if (sum != npes * (npes + 1) / 2) {
            fprintf(stderr, "sum %ld is wrong\n", sum);
            shmem_global_exit(1);
        }
        printf("sum = %ld\n", sum);
    }
    shmem_free(part);
    shmem_finalize();
    return 0;
}
