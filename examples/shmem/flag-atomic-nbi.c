/* The entry protocol of flag-atomic.c with the flags raised by the
 * non-blocking swap (shmem_long_atomic_swap_nbi), each followed at once by
 * shmem_quiet.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the swap's update of the remote flag happens at some time between
 * the call and the end of the quiet, and the PE does nothing in between,
 * so its load of the other flag, after the quiet, follows the update, as
 * in flag-atomic.c. The cycle would need
 *   swap flag0 < load flag1 < swap flag1 < load flag0 < swap flag0,
 * impossible. (Without the quiet the update could land after the load:
 * the cycle of flag-put.c; pgasrob then refuses the call, as it has no
 * item for an nbi atomic left pending.)
 */
#include <shmem.h>

long flag0, flag1;
long inside;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long old;
    if (me == 0) {
        shmem_long_atomic_swap_nbi(&old, &flag0, 1, 1);
        shmem_quiet();
        if (flag1 == 0)
            inside = 1;
    } else if (me == 1) {
        shmem_long_atomic_swap_nbi(&old, &flag1, 1, 0);
        shmem_quiet();
        if (flag0 == 0)
            inside = 1;
    }
    shmem_finalize();
    return 0;
}
