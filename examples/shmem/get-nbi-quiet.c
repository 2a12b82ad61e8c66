/* Message passing by pulling: PE 1 sets data and then flag in its own
 * memory; PE 0 gets the flag with a non-blocking get and a quiet, and if
 * it is set, gets the data the same way. The C twin of
 * examples/shmem-calculus/getmem-nbi-quiet.pgas.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: each quiet completes its get before PE 0 goes on, so the remote
 * read of data comes after the remote read of flag. If the flag read saw
 * 1, it came after PE 1's store of flag, hence after its store of data,
 * and the data read comes later still: forward. If it saw 0, PE 0 stops.
 * PE 0's copies f and d are written by its gets and read after the
 * quiets. No cycle.
 */
#include <shmem.h>
#include <assert.h>

long data, flag;
long f, d;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_get_nbi(&f, &flag, 1, 1);
        shmem_quiet();
        if (f == 1) {
            shmem_long_get_nbi(&d, &data, 1, 1);
            shmem_quiet();
            assert(d == 1);
        }
    } else if (me == 1) {
        data = 1;
        flag = 1;
    }
    shmem_finalize();
    return 0;
}
