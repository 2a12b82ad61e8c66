/* prodcons.c without its fence: the producer relies on the order of its
 * calls. PE 0 produces NITEMS items into PE 1's buffer, each followed by
 * an atomic update of PE 1's count;
 * PE 1 waits for each count and checks the item. Other PEs only take part
 * in the final barrier.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: without the fence, the put of buf[0] and the atomic set of count
 * are delivered in either order (1.6: puts and AMOs to one PE are ordered
 * only by fence or quiet). The set can land first; PE 1 sees count = 1,
 * reads the old buf[0], and only then the put lands:
 *   put buf[0] -po-> set count (PE 0), set's delivery -cf-> wait (PE 1)
 *   -po-> load buf[0] -cf-> delivery of the put <-> put:
 * a cycle. The check then reports a wrong item, which SC never does.
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
