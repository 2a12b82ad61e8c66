/* Message passing with shmem_quiet between the two puts; the data goes
 * with shmem_putmem from a local buffer.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: quiet returns only when every operation of the context is
 * complete, so popb data < quiet < issue of the flag put < popb flag <
 * PE 1's wait < its load of data (which reads 1). The buffer `one` is
 * stored before the blocking put reads it (local completion: the popa
 * happens at the call). Every conflict goes forward; no cycle.
 */
#include <shmem.h>
#include <assert.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long one = 1;
        shmem_putmem(&data, &one, sizeof(long), 1);
        shmem_quiet();
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
