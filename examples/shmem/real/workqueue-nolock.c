/* workqueue.c without its lock: every PE takes the next task index from
 * PE 0 with a get and advances it with a put, unprotected.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: besides the lost updates that SC runs have too, a PE's put of
 * next and its own get of next in the following iteration are not
 * ordered: nothing (fence, quiet, lock) completes the put before the get
 * (1.6: a blocking put returns once its source may be reused). The get
 * can read the old index:
 *   put next (PE p) -po-> get next (PE p) -cf-> delivery of the put <-> put:
 * a cycle on one PE, which no SC run has.
 *
 * Two tasks, not workqueue.c's three: the cycle needs one task per PE,
 * and with three the sequentially consistent runs of N = 3 (searched
 * first, for run-time errors) take minutes instead of seconds.
 */
#include <shmem.h>
#include <stdio.h>

#define NTASKS 2

long next;
long total;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int mine = 0;

    for (;;) {
        long t = shmem_long_g(&next, 0);
        if (t < NTASKS)
            shmem_long_p(&next, t + 1, 0);
        if (t >= NTASKS)
            break;
        mine++; /* task t would run here */
    }
    shmem_long_atomic_add(&total, mine, 0);
    shmem_barrier_all();
    if (me == 0 && total != NTASKS) {
        printf("%ld tasks done, expected %d\n", total, NTASKS);
        shmem_global_exit(1);
    }
    shmem_finalize();
    return 0;
}
