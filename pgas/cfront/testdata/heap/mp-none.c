/* Message passing through blocks of the symmetric heap, nothing between
 * the two puts.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: as examples/shmem/mp-none.c. The two allocations add barriers
 * before any communication, which order nothing: the two puts to PE 1 are
 * still unordered, the flag may arrive first and PE 1 read data 0:
 *   [put data] ->po [put flag] ->cf wait_until ->po load data ->cf [put data]
 */
#include <shmem.h>
#include <assert.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long *data = shmem_malloc(sizeof(long));
    long *flag = shmem_calloc(1, sizeof(long));
    if (me == 0) {
        shmem_long_p(data, 1, 1);
        shmem_long_p(flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
        assert(*data == 1);
    }
    shmem_free(flag);
    shmem_free(data);
    shmem_finalize();
    return 0;
}
