/* A put-with-signal of two elements orders its signal after its own data
 * only: an earlier put of another object, with no fence, may arrive after
 * the signal.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: PE 0 puts flag, then put-with-signals data[0..1]. The signal waits
 * for the chain of data sends (docs/shmem-calculus.md, Cmd.Chain), not for
 * the put of flag, which is in the same fence epoch. So PE 1 can see the
 * signal and then read flag = 0:
 *   [put flag] <po [signal] < signal_wait_until <po load flag <cf [put flag]
 * a cycle. (In every SC run flag is 1 by then, so the assert holds in SC.)
 * A shmem_fence() between the two calls removes it.
 */
#include <shmem.h>
#include <stdint.h>
#include <assert.h>

long data[2];
long flag;
uint64_t sig;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long src[2];
        src[0] = 1;
        src[1] = 1;
        shmem_long_p(&flag, 1, 1);
        shmem_long_put_signal_nbi(data, src, 2, &sig, 1, SHMEM_SIGNAL_SET, 1);
    } else if (me == 1) {
        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
        assert(flag == 1);
    }
    shmem_finalize();
    return 0;
}
