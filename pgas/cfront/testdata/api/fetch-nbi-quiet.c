/* shmem_atomic_fetch_nbi completes at the quiet: PE 1 fetches PE 0's x
 * into its local f without blocking, quiets, then reads f.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the quiet waits until the fetched value has landed in f, so the
 * load of f comes after it (as get-nbi-quiet.c with a get).
 */
#include <shmem.h>
#include <assert.h>
long x = 1;
int main(void) {
    long f = 0;
    if (shmem_my_pe() == 1) {
        shmem_long_atomic_fetch_nbi(&f, &x, 0);
        shmem_quiet();
        assert(f == 1);
    }
    return 0;
}
