/* mp-amo-nbi.c with shmem_fence between the put of data and the
 * non-blocking atomic that raises the flag.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: a fence orders the nbi atomic's update of flag after the delivery
 * of the earlier put to the same PE on the context (OpenSHMEM 1.6,
 * shmem_fence: it orders puts and AMOs; only the value fetched is left
 * unordered, and that lands in PE 0's private old). So popb data <
 * update of flag < PE 1's wait (which passes only on 1) < its load of
 * data, which reads 1; every conflict goes forward, as in mp-fence.c.
 * PE 0's read of old comes after the quiet, by which the fetched value
 * has landed. PEs 2 and 3 do nothing.
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
        shmem_fence();
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
