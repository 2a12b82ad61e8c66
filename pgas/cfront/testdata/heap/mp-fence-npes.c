/* Message passing into a heap array of one slot per PE, through a helper
 * taking pointers; the receiver sums the array with a moving pointer.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: as examples/shmem/mp-fence.c. The array has N slots (its size
 * depends on N: the translation is made per N). PE 0 puts box[1] on PE 1,
 * fences, then puts the flag: delivery of box[1] precedes that of the
 * flag, which precedes PE 1's wait, which precedes its loads; the other
 * slots are written by no one. Every conflict goes forward:
 *   [put box[1]] < [put flag] < wait_until < load box[1]
 */
#include <shmem.h>
#include <assert.h>

static void send(long *dst, long *flag, int pe) {
    shmem_long_p(dst, 1, pe);
    shmem_fence();
    shmem_long_p(flag, 1, pe);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long *box = shmem_calloc(npes, sizeof(long));
    long *flag = shmem_malloc(sizeof(long));
    if (me == 0) {
        send(box + 1, flag, 1);
    } else if (me == 1) {
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
        long sum = 0;
        long *q = box;
        for (int i = 0; i < npes; i++) {
            sum = sum + *q;
            q++;
        }
        assert(sum == 1);
    }
    shmem_finalize();
    return 0;
}
