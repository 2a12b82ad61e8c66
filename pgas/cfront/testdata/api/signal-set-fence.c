/* Message passing with the standalone signal routine: data by shmem_p, a
 * fence, then shmem_signal_set; PE 1 waits for the signal.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: a signal update is an operation on a symmetric object, which the
 * fence orders after the data (OpenSHMEM 1.6, shmem_fence).
 */
#include <shmem.h>
#include <assert.h>
long data;
uint64_t sig;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_fence();
        shmem_signal_set(&sig, 1, 1);
    } else if (me == 1) {
        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    return 0;
}
