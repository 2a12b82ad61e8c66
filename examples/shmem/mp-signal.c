/* Message passing with put-with-signal: the data and the signal in one
 * call, the consumer waits on the signal.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: a put-with-signal delivers its data before its signal
 * (docs/shmem-calculus.md: the signal is a send `after` the data). PE 1's
 * shmem_signal_wait_until passes only once the signal is 1, hence after
 * the data arrived, and its load of data reads 1:
 *   [put data] < [signal] < signal_wait_until < load data
 * all conflicts forward, no cycle.
 */
#include <shmem.h>
#include <stdint.h>
#include <assert.h>

long data;
uint64_t sig;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long one = 1;
        shmem_long_put_signal(&data, &one, 1, &sig, 1, SHMEM_SIGNAL_SET, 1);
    } else if (me == 1) {
        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
