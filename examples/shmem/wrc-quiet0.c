/* Write-to-read causality with the quiet where it helps: on PE 0, between
 * its put of data to PE 2 and its flag to PE 1.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why (N >= 3): the quiet returns once the data is delivered, so
 *   popb data < quiet < [put flag] < wait(PE 1) < [put flag2] < wait(PE 2)
 *   < load data
 * and the load reads 1; every conflict goes forward. With N = 2 the
 * program does nothing.
 */
#include <shmem.h>
#include <assert.h>

long data, flag, flag2;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() < 3)
        return 0;
    if (me == 0) {
        shmem_long_p(&data, 1, 2);
        shmem_quiet();
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        shmem_long_p(&flag2, 1, 2);
    } else if (me == 2) {
        shmem_long_wait_until(&flag2, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
