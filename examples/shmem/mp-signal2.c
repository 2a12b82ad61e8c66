/* Message passing with a put-with-signal of two elements: the consumer
 * waits on the signal, then reads the first element.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: OpenSHMEM delivers the signal after all nelems data elements
 * (the two data sends are unordered among themselves). The translation is
 * put_signal(..., 2): two data sends, the second a Chain send, and the
 * signal waits for both (docs/shmem-calculus.md, Cmd.Chain). So once PE 1
 * sees the signal, data[0] (and data[1]) hold 1:
 *   [put data[0]] < [signal] < signal_wait_until < load data[0]
 * all conflicts forward, no cycle. Had the signal followed only the last
 * data send (the rule before Chain), it could overtake data[0]: NOT
 * ROBUST, which is why nelems > 1 was refused before.
 */
#include <shmem.h>
#include <stdint.h>
#include <assert.h>

long data[2];
uint64_t sig;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long src[2];
        src[0] = 1;
        src[1] = 1;
        shmem_long_put_signal(data, src, 2, &sig, 1, SHMEM_SIGNAL_SET, 1);
    } else if (me == 1) {
        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
        assert(data[0] == 1);
    }
    shmem_finalize();
    return 0;
}
