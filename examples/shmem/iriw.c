/* IRIW, independent reads of independent writes: PE 0 sets x, PE 1 sets
 * y (each in its own memory); PEs 2 and 3 read both with blocking gets,
 * in opposite orders.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why (N = 4): shmem_g is complete when it returns, so each reader's two
 * remote reads happen in program order. The cycle
 *   store x -> get x (PE 2) -> get y (PE 2) -> store y -> get y (PE 3)
 *     -> get x (PE 3) -> store x
 * would need read x(PE 2) < read y(PE 2) < store y < read y(PE 3)
 * < read x(PE 3) < store x < read x(PE 2), impossible. The g results go
 * through a private cell that each get writes before its PE reads it,
 * forward only. With N < 4 the program does nothing. iriw-nbi.c uses
 * non-blocking gets instead.
 */
#include <shmem.h>

long x, y;

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
        long r1 = shmem_long_g(&x, 0);
        long r2 = shmem_long_g(&y, 1);
    } else if (me == 3) {
        long r3 = shmem_long_g(&y, 1);
        long r4 = shmem_long_g(&x, 0);
    }
    shmem_finalize();
    return 0;
}
