/* A pipeline through the PEs: PE 0 produces NITEMS values, every other PE
 * receives each value from its left neighbour, adds its own number and
 * forwards it to the right with a put-with-signal; the last PE checks the
 * values. Every item has its own signal word.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: a put-with-signal delivers its data before it updates its signal
 * (1.6, shmem_put_signal), and PE k reads slot[i] only after it saw
 * sig[i] == 1, the signal of the operation that wrote slot[i]. Each slot
 * and each signal is written once, by the left neighbour, before the
 * reader reads it; the value forwarded is a private copy. Every conflict
 * goes forward along the pipeline: no cycle.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

#define NITEMS 2

long slot[NITEMS];
uint64_t sig[NITEMS];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long expect_add = (long)npes * (npes - 1) / 2;

    for (int i = 0; i < NITEMS; i++) {
        long v = i;
        if (me > 0) {
            shmem_signal_wait_until(&sig[i], SHMEM_CMP_EQ, 1);
            v = slot[i] + me;
        }
        if (me < npes - 1) {
            shmem_long_put_signal(&slot[i], &v, 1, &sig[i], 1, SHMEM_SIGNAL_SET, me + 1);
        } else if (v != i + expect_add) {
            printf("item %d arrived as %ld\n", i, v);
            shmem_global_exit(1);
        }
    }
    shmem_finalize();
    return 0;
}
