/* A counter on PE 0 incremented by every PE under a distributed lock:
 * fetch it with shmem_g, put it back plus one.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the critical sections are serialised by the lock, an atomic await
 * (a compare-and-swap on PE 0 that executes only when it succeeds).
 * shmem_clear_lock first completes the section's put (its quiet), then
 * releases; the next section's acquiring swap follows the release
 * (amo ->cf amo), so every conflict between two sections goes from the
 * earlier to the later, and inside a section the get is complete on
 * return and the put complete before the release. hb follows the order
 * of the sections: no cycle.
 */
#include <shmem.h>

long lock;
long counter;

int main(void) {
    shmem_init();
    shmem_set_lock(&lock);
    long v = shmem_long_g(&counter, 0);
    shmem_long_p(&counter, v + 1, 0);
    shmem_clear_lock(&lock);
    shmem_finalize();
    return 0;
}
