/* A pipeline through the PEs: PE 0 produces NITEMS values, every other PE
 * receives each value from its left neighbour, adds its own number and
 * forwards it to the right with a put-with-signal; the last PE checks the
 * values. One signal word counts the items (a tempting economy).
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: a put-with-signal orders its own data before its own signal, but
 * two of them from one PE are not ordered without a fence (1.6,
 * shmem_put_signal and shmem_fence). Item 1's signal (sig = 2) can land
 * before item 0's data; the reader waiting for sig >= 1 then reads the
 * old slot[0]:
 *   put_signal item 0 -po-> put_signal item 1 (PE 0), item 1's signal
 *   -cf-> wait (PE 1) -po-> load slot[0] -cf-> delivery of item 0's data
 *   <-> put_signal item 0: a cycle.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

#define NITEMS 2

long slot[NITEMS];
uint64_t sig;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long expect_add = (long)npes * (npes - 1) / 2;

    for (int i = 0; i < NITEMS; i++) {
        long v = i;
        if (me > 0) {
            shmem_signal_wait_until(&sig, SHMEM_CMP_GE, i + 1);
            v = slot[i] + me;
        }
        if (me < npes - 1) {
            shmem_long_put_signal(&slot[i], &v, 1, &sig, i + 1, SHMEM_SIGNAL_SET, me + 1);
        } else if (v != i + expect_add) {
            printf("item %d arrived as %ld\n", i, v);
            shmem_global_exit(1);
        }
    }
    shmem_finalize();
    return 0;
}
