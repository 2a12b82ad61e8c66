/* A shared work queue: the index of the next task lives on PE 0; every PE
 * takes tasks under a distributed lock (get the index, put index + 1)
 * until none is left, then adds the number it took to a total on PE 0.
 * PE 0 checks that every task was taken exactly once.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: the get and the put of the index happen between shmem_set_lock and
 * shmem_clear_lock, and clear_lock completes the stores of the critical
 * section before the lock is released (1.6, shmem_clear_lock); the next
 * holder's get comes after its set_lock, so after the put landed. The
 * critical sections are totally ordered and every conflict on next goes
 * from an earlier section to a later one. The adds to total are
 * completed by the barrier before PE 0 reads it: no cycle.
 */
#include <shmem.h>
#include <stdio.h>

#define NTASKS 3

long lock;
long next;
long total;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int mine = 0;

    for (;;) {
        shmem_set_lock(&lock);
        long t = shmem_long_g(&next, 0);
        if (t < NTASKS)
            shmem_long_p(&next, t + 1, 0);
        shmem_clear_lock(&lock);
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
