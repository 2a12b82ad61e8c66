/* Message passing whose flag is raised by a non-blocking fetching atomic
 * (shmem_long_atomic_fetch_inc_nbi) completed by the quiet right after it,
 * with nothing ordering the data before the flag.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: the put of data and the atomic update of flag go to PE 1 in one
 * fence epoch, so the update may happen first (OpenSHMEM 1.6: the nbi
 * atomic's update is ordered only by a fence, like a put's delivery; the
 * quiet waits for both but orders neither). PE 1's wait then passes and
 * its load of data reads 0:
 *   [put data] ->po [fetch_inc flag] ->cf wait_until ->po load data
 *   ->cf [put data]
 * a happens-before cycle, as in mp-none.c. The value fetched into old,
 * private to PE 0, is read by nobody else. PEs 2 and 3 do nothing.
 */
#include <shmem.h>
#include <assert.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long old;
        shmem_long_p(&data, 1, 1);
        shmem_long_atomic_fetch_inc_nbi(&old, &flag, 1);
        shmem_quiet();
        assert(old == 0);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
