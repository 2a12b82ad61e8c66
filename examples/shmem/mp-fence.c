/* Message passing with shmem_fence between the two puts.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the fence orders delivery between operations to the same PE on the
 * same context (docs/shmem-calculus.md: popb of the flag waits for every
 * earlier-epoch send to PE 1). So popb data < popb flag < PE 1's wait
 * (which passes only on 1) < its load of data, which therefore reads 1:
 * every conflict goes forward in
 *   [put data] < [put flag] < wait_until < load data
 * and no cycle exists. PEs 2 and 3 do nothing.
 */
#include <shmem.h>
#include <assert.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_fence();
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
