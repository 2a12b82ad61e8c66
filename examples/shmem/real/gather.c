/* A hand-written gather and reduction: every PE puts its partial result
 * into its own slot of an array on PE 0, all meet at a barrier, and PE 0
 * adds the slots and checks the sum. The array is allocated on the
 * symmetric heap, sized by the number of PEs.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: each slot is written by one PE only, and shmem_barrier_all
 * completes the puts before PE 0, after the barrier, reads the slots
 * (1.6, barrier_all). Every conflict goes from a put before the barrier
 * to a load after it: no cycle.
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
    shmem_barrier_all();
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
