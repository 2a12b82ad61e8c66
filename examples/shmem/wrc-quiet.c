/* Write-to-read causality through a quiet on the middle PE (the shape of
 * openshmem-org/specification issue #265).
 *
 * PE 0 puts data to PE 2 and then, after a fence, a flag to PE 1. PE 1
 * waits for the flag, calls shmem_quiet and puts a second flag to PE 2.
 * PE 2 waits for that flag and reads data.
 *
 * expect: N=2 ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why (N >= 3): PE 0's fence orders only puts to the same PE, and its two
 * puts go to PEs 2 and 1; PE 1's quiet completes PE 1's own operations,
 * not PE 0's. So the data can still be in flight when PE 2 sees flag2:
 *   [put data] ->po [put flag] ->cf wait(PE 1) ->po [put flag2]
 *     ->cf wait(PE 2) ->po load data ->cf [put data]
 * With N = 2 the program does nothing (it needs three PEs): ROBUST.
 * wrc-quiet0.c moves the quiet to PE 0, which makes it robust.
 */
#include <shmem.h>
#include <assert.h>

long data, flag, flag2;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() < 3)
        return 0;
    if (me == 0) {
        shmem_long_p(&data, 1, 2);
        shmem_fence();
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        shmem_quiet();
        shmem_long_p(&flag2, 1, 2);
    } else if (me == 2) {
        shmem_long_wait_until(&flag2, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
