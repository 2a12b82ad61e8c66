/* waitsome-fence.c without the fence: PE 0's put of data and its atomic
 * set of f[0] are unordered, so PE 1 can await f[0] = 1 and then read
 * data = 0: put data -po-> set f[0] -cf-> await f[0] -po-> load data -cf->
 * put data, a cycle no SC run has.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 */
#include <shmem.h>
#include <assert.h>
long f[2];
long data;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_long_atomic_set(&f[0], 1, 1);
    } else if (me == 1) {
        size_t idx[2];
        size_t k = shmem_long_wait_until_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    return 0;
}
