/* Producer/consumer over a buffer: PE 0 produces NITEMS items into PE 1's
 * buffer, each followed by a fence and an atomic update of PE 1's count;
 * PE 1 waits for each count and checks the item. Other PEs only take part
 * in the final barrier.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_fence orders the delivery of the put of item i before the
 * atomic set of count to i+1 (both target PE 1, default context; 1.6,
 * shmem_fence). PE 1 reads buf[i] only after its wait_until saw
 * count >= i+1, so after the item arrived; the next item is written into
 * another cell. Every conflict (put buf[i] / load buf[i], set count /
 * load count) goes forward along
 *   put buf[i] < set count = i+1 < wait (PE 1) < load buf[i],
 * and nothing is written after the final barrier: no cycle.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define NITEMS 2
#define PRODUCER 0
#define CONSUMER 1

long buf[NITEMS];
long count;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int errors = 0;

    if (me == PRODUCER) {
        for (int i = 0; i < NITEMS; i++) {
            shmem_long_p(&buf[i], 10 + i, CONSUMER);
            shmem_fence();
            shmem_long_atomic_set(&count, i + 1, CONSUMER);
        }
    } else if (me == CONSUMER) {
        for (int i = 0; i < NITEMS; i++) {
            shmem_long_wait_until(&count, SHMEM_CMP_GE, i + 1);
            if (buf[i] != 10 + i) {
                printf("PE %d: item %d is %ld\n", me, i, buf[i]);
                errors++;
            }
        }
    }
    shmem_barrier_all();
    if (errors)
        shmem_global_exit(1);
    shmem_finalize();
    return 0;
}
