/* Store buffering between partners me ^ 1, guarded by the PE count, with a quiet.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: PEs 0 and 1 (partners by me ^ 1) run sb-quiet.c of examples/shmem:
 * each quiet completes the PE's put before its load, so popb x(1) < load
 * x(0) and popb x(0) < load x(1), and with the loads before the other's
 * delivery that is a cycle of <, impossible. PE 2 is skipped by the guard.
 */
#include <shmem.h>

long x;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int partner = me ^ 1;
    if (partner < shmem_n_pes()) {
        shmem_long_p(&x, 1, partner);
        shmem_quiet();
        r = x;
    }
    shmem_finalize();
    return 0;
}
