/* As iput-fence.c without the fence.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: the second element may land after the flag: [iput a[2]] ->po
 * [flag] ->cf await (PE 1) ->po load a[2] ->cf [iput a[2]].
 */
#include <shmem.h>
#include <assert.h>
long a[4];
long flag;
int main(void) {
    long src[2];
    int me = shmem_my_pe();
    if (me == 0) {
        src[0] = 1;
        src[1] = 1;
        shmem_long_iput(a, src, 2, 1, 2, 1);
        shmem_long_atomic_set(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(a[2] == 1);
    }
    return 0;
}
