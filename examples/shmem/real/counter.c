/* A distributed counter: every PE increments a counter on PE 0 with a
 * non-fetching atomic, then all meet at a barrier and PE 0 checks that
 * the counter equals the number of PEs.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_barrier_all completes every atomic issued before it (1.6,
 * barrier_all), so all increments are delivered before any PE leaves the
 * barrier, and PE 0 reads the counter after it. The increments among
 * themselves conflict only with each other before the barrier; the read
 * is after all of them on every path through the barrier: no cycle.
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
    shmem_barrier_all();
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
