/* PE 0 calls shmem_global_exit at once; PEs 1 and 2 run store buffering
 * by puts.
 * expect: N=2 ROBUST, N=3 NOT ROBUST
 * Why: shmem_global_exit stops the caller; the others are told to stop,
 * at no point the specification fixes, so every finite run of theirs is
 * real. At N = 3 PEs 1 and 2 may both read 0 (SB): [p x] ->po load y
 * ->cf [p y] ->po load x ->cf [p x]. At N = 2 PE 1 has no partner and
 * only PE 0 calls the exit.
 */
#include <shmem.h>
long x, y;
int main(void) {
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long r;
    if (me == 0)
        shmem_global_exit(0);
    if (npes < 3)
        return 0;
    if (me == 1) {
        shmem_long_p(&x, 1, 2);
        r = y;
    } else if (me == 2) {
        shmem_long_p(&y, 1, 1);
        r = x;
    }
    return 0;
}
