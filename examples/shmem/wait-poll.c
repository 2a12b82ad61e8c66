/* A wait_until that polls a variable written by a put: a ping-pong.
 * PE 0 puts ping = 1 into PE 1 and waits for pong; PE 1 waits for ping,
 * then puts pong = 1 into PE 0.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: shmem_wait_until is an atomic await (docs/shmem-calculus.md): it
 * executes once, when the cell holds 1, i.e. after the put is delivered;
 * failed polls are not events. So
 *   [put ping] < wait ping (PE 1) < [put pong] < wait pong (PE 0)
 * and every conflict goes forward. (OpenSHMEM 1.5 asks that a waited-on
 * variable be updated by atomics; for ordering a put and a non-fetching
 * atomic_set are the same.)
 */
#include <shmem.h>

long ping, pong;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&ping, 1, 1);
        shmem_long_wait_until(&pong, SHMEM_CMP_EQ, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&ping, SHMEM_CMP_EQ, 1);
        shmem_long_p(&pong, 1, 0);
    }
    shmem_finalize();
    return 0;
}
