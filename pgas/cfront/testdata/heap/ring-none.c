/* A ring exchange on the symmetric heap, with no fence (a bug):
 * one slot per PE (the block's size is in N), a helper taking the block,
 * neighbours computed from shmem_my_pe() and shmem_n_pes().
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: ring-fence.c without its fence. The two puts to the right
 * neighbour are unordered, so the flag may arrive first; the neighbour's
 * wait passes and its load of the slot reads 0:
 *   [put slot] ->po [put flag] ->cf wait_until ->po load slot ->cf [put slot]
 */
#include <shmem.h>
#include <assert.h>

static void send(long *slots, long *flag, int me, int to) {
    shmem_long_p(&slots[me], 1, to);
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
