/* As fetch-nbi-quiet.c without the quiet.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: the fetched value may land in f after PE 1 reads it:
 * [fetch_nbi] ->po load f ->cf [fetch_nbi] (its write of f).
 */
#include <shmem.h>
#include <assert.h>
long x = 1;
int main(void) {
    long f = 0;
    if (shmem_my_pe() == 1) {
        shmem_long_atomic_fetch_nbi(&f, &x, 0);
        assert(f == 1);
    }
    return 0;
}
