/* A ring exchange on the symmetric heap, written as an HPC engineer would:
 * one slot per PE (the block's size is in N), a helper taking the block,
 * neighbours computed from shmem_my_pe() and shmem_n_pes().
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: every PE puts 1 into slot me of its right neighbour, fences, then
 * sets that neighbour's flag; it then waits for its own flag and reads
 * the slot of its left neighbour. Slot me of PE right is written by me
 * only, and the fence makes it arrive before the flag, which precedes
 * the right neighbour's wait and so its load: every conflict goes forward
 *   [put slot] < [put flag] < wait_until < load slot
 * and no other cell is shared. The final shmem_free is a barrier after
 * everything else.
 */
#include <shmem.h>
#include <assert.h>

static void send(long *slots, long *flag, int me, int to) {
    shmem_long_p(&slots[me], 1, to);
    shmem_fence();
    shmem_long_p(flag, 1, to);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long *slots = shmem_calloc(npes, sizeof(long));
    long *flag = shmem_calloc(1, sizeof(long));
    int right = (me + 1) % npes;
    int left = (me + npes - 1) % npes;
    send(slots, flag, me, right);
    shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
    assert(slots[left] == 1);
    shmem_free(flag);
    shmem_free(slots);
    shmem_finalize();
    return 0;
}
