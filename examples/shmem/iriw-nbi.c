/* IRIW with non-blocking gets: each reader issues both gets, then quiets.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 NOT ROBUST
 *
 * Why (N = 4): the two gets of a reader are unordered until the quiet, so
 * PE 2 may read y (0) before PE 1 stores it and x (1) after PE 0 does,
 * while PE 3 reads x (0) early and y (1) late:
 *   store x ->cf [get x, PE 2] ->po [get y, PE 2] ->cf store y
 *     ->cf [get y, PE 3] ->po [get x, PE 3] ->cf store x
 * With N < 4 the program does nothing.
 */
#include <shmem.h>

long x, y;
long a, b;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() < 4)
        return 0;
    if (me == 0) {
        x = 1;
    } else if (me == 1) {
        y = 1;
    } else if (me == 2) {
        shmem_long_get_nbi(&a, &x, 1, 0);
        shmem_long_get_nbi(&b, &y, 1, 1);
        shmem_quiet();
    } else if (me == 3) {
        shmem_long_get_nbi(&a, &y, 1, 1);
        shmem_long_get_nbi(&b, &x, 1, 0);
        shmem_quiet();
    }
    shmem_finalize();
    return 0;
}
